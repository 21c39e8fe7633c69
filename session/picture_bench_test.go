package session

import (
	"fmt"
	"testing"

	"electsim/algo"
	"electsim/sim"
)

// A frame's picture on a topology, the places and edges worked out once (the first frame) and
// reused: a one-way ring and a grid of 32 and 48 nodes (their edges drawn), a random graph of 48
// (its force layout), and a one-way ring of 200,000 nodes (in rows, no edges).
//
//	go test ./session -run '^$' -bench PictureTopology
func BenchmarkPictureTopology(b *testing.B) {
	for _, c := range []struct {
		algo, topology string
		n              int
	}{
		{"peterson", algo.UniRing, 32},
		{"floodmax", "grid:6x8", 48},
		{"floodmax", "random:3", 48},
		{"peterson", algo.UniRing, 200_000},
	} {
		b.Run(fmt.Sprintf("%s %d", c.topology, c.n), func(b *testing.B) {
			info, err := algo.Lookup(c.algo)
			if err != nil {
				b.Fatal(err)
			}
			cfg := sim.DefaultConfig(info, c.n)
			cfg.Topology = c.topology
			cfg.Engine = sim.Inline
			s, err := New(cfg, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			s.PlayTo(0)
			var p Picture
			s.Picture(&p, 0)
			for b.Loop() {
				s.Picture(&p, 0)
			}
		})
	}
}
