package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// On random connected graphs of 10 to 2,000 nodes, floodmax and echo elect the highest id, and
// every message the trace shows travels along an edge of the topology --json gives.
func TestGraphElectionsAlongEdges(t *testing.T) {
	for _, algo := range []string{"floodmax", "echo"} {
		for _, c := range []struct {
			n    int
			d    string
			seed int
		}{{10, "2", 3}, {137, "3.5", 11}, {600, "6", 5}, {2000, "3", 7}} {
			args := []string{"run", "--algo", algo, "--nodes", fmt.Sprint(c.n), "--topology", "random:" + c.d,
				"--seed", fmt.Sprint(c.seed), "--run", "120s"}
			name := strings.Join(args[1:], " ")
			code, out, errOut := call(append(args, "--json")...)
			if code != 0 {
				t.Fatalf("%s --json: exit %d: %s", name, code, errOut)
			}
			var sum struct {
				Topology struct {
					Name  string
					Edges [][2]int
				}
				Final struct{ Leader int }
			}
			if err := json.Unmarshal([]byte(out), &sum); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if sum.Final.Leader != c.n {
				t.Errorf("%s: leader %d, want the highest id %d", name, sum.Final.Leader, c.n)
			}
			edges := map[[2]int]bool{}
			for _, e := range sum.Topology.Edges {
				edges[e], edges[[2]int{e[1], e[0]}] = true, true
			}
			if sum.Topology.Name != "random:"+c.d || len(sum.Topology.Edges) < c.n-1 {
				t.Fatalf("%s: topology %q with %d edges", name, sum.Topology.Name, len(sum.Topology.Edges))
			}
			code, out, errOut = call(append(args, "--trace", "-")...)
			if code != 0 {
				t.Fatalf("%s --trace -: exit %d: %s", name, code, errOut)
			}
			sends := 0
			sc := bufio.NewScanner(strings.NewReader(out))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var r struct {
					Type     string
					From, To int
				}
				if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
					t.Fatalf("%s: trace line %q: %v", name, sc.Text(), err)
				}
				if r.Type != "send" {
					continue
				}
				sends++
				if !edges[[2]int{r.From, r.To}] {
					t.Fatalf("%s: a message %d→%d along no edge of the topology", name, r.From, r.To)
				}
			}
			if sends < 2*(c.n-1) {
				t.Errorf("%s: only %d sends in the trace", name, sends)
			}
		}
	}
}
