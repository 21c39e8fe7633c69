package bench

import (
	"fmt"
	"testing"

	"electsim/sim"
)

// FloodMax sends exactly diam·2|E| MAX-UID messages, diam and |E| found here by Floyd–Warshall
// over the edges --json would list, not by the topology's own methods; and on a line, whose
// diameter is n−1, exactly (n−1)·2(n−1).
func TestFloodMaxExactOnGraphs(t *testing.T) {
	for _, c := range []struct {
		n   int
		top string
	}{{12, "random:2"}, {40, "random:3"}, {64, "random:5.5"}, {9, "line"}, {12, "grid:3x4"}, {15, "tree:2"}, {8, "star"}} {
		cfg, err := WorkloadOf("floodmax", c.n, 3, sim.Inline, false)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Topology = c.top
		cl, err := cfg.Cluster()
		if err != nil {
			t.Fatal(err)
		}
		edges := cl.Topology.Edges()
		index := map[int]int{}
		for i, id := range cl.Sorted {
			index[int(id)] = i
		}
		const far = 1 << 20
		d := make([][]int, c.n)
		for i := range d {
			d[i] = make([]int, c.n)
			for j := range d[i] {
				if i != j {
					d[i][j] = far
				}
			}
		}
		for _, e := range edges {
			a, b := index[int(e[0])], index[int(e[1])]
			d[a][b], d[b][a] = 1, 1
		}
		for k := range c.n {
			for i := range c.n {
				for j := range c.n {
					d[i][j] = min(d[i][j], d[i][k]+d[k][j])
				}
			}
		}
		diam := 0
		for i := range c.n {
			for j := range c.n {
				diam = max(diam, d[i][j])
			}
		}
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sum := s.Run()
		want := int64(diam * 2 * len(edges))
		name := fmt.Sprintf("floodmax on %s over %d nodes", c.top, c.n)
		if sum.Sent[0] != want || int(sum.Leader) != c.n {
			t.Errorf("%s: %d MAX-UID, leader %d; want diam %d · 2·%d edges = %d, leader %d", name, sum.Sent[0], sum.Leader, diam, len(edges), want, c.n)
		}
		if c.top == "line" && want != int64(2*(c.n-1)*(c.n-1)) {
			t.Errorf("%s: the oracle says %d", name, want)
		}
	}
}
