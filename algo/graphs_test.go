package algo

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func seeded(t *testing.T, topology string, seed uint64, ring ...ID) (*Cluster, error) {
	t.Helper()
	return NewClusterSeeded(ring, topology, seed, 0, nil)
}

func ids1(n int) []ID {
	ring := make([]ID, n)
	for i := range ring {
		ring[i] = ID(i + 1)
	}
	return ring
}

// connected reports whether every node of t reaches every other, by a search of its own over
// Neighbours (not the builder's).
func connected(top *Topology, ring []ID) bool {
	seen := map[ID]bool{ring[0]: true}
	stack := []ID{ring[0]}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, nb := range top.Neighbours(id) {
			if !seen[nb] {
				seen[nb] = true
				stack = append(stack, nb)
			}
		}
	}
	return len(seen) == len(ring)
}

// random:D is connected, has round(N·D/2) edges (between N-1 and every pair), no edge twice
// and none from a node to itself, its edges agree with Neighbours and HasEdge, and the same
// seed draws the same graph.
func TestRandomGraphProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 300).Draw(rt, "n")
		tenths := rapid.IntRange(5, 120).Draw(rt, "tenths") // the mean degree, in tenths
		seed := rapid.Uint64().Draw(rt, "seed")
		ring := ids1(n)
		rapid.Permutation(ring).Draw(rt, "ring")
		name := fmt.Sprintf("random:%g", float64(tenths)/10)
		c, err := NewClusterSeeded(ring, name, seed, 0, nil)
		if err != nil {
			rt.Fatal(err)
		}
		top := c.Topology
		edges := top.Edges()
		want := int(math.Round(float64(n) * (float64(tenths) / 10) / 2))
		want = min(max(want, n-1), n*(n-1)/2)
		if len(edges) != want {
			rt.Fatalf("%s over %d nodes: %d edges, want %d", name, n, len(edges), want)
		}
		if !connected(top, ring) {
			rt.Fatalf("%s over %d nodes, seed %d: not connected", name, n, seed)
		}
		seen := map[[2]ID]bool{}
		degrees := 0
		for _, e := range edges {
			a, b := min(e[0], e[1]), max(e[0], e[1])
			if a == b || seen[[2]ID{a, b}] || !top.HasEdge(a, b) || !top.HasEdge(b, a) {
				rt.Fatalf("edge %v: a loop, twice, or not an edge for HasEdge", e)
			}
			seen[[2]ID{a, b}] = true
		}
		for _, id := range ring {
			degrees += len(top.Neighbours(id))
		}
		if degrees != 2*len(edges) {
			rt.Fatalf("the degrees sum to %d, twice the edges is %d", degrees, 2*len(edges))
		}
		again, err := NewClusterSeeded(ring, name, seed, 0, nil)
		if err != nil || !slices.Equal(again.Topology.Edges(), edges) {
			rt.Fatalf("the same seed drew another graph: %v", err)
		}
	})
}

// Another seed draws another graph (on a graph with room for more than a tree).
func TestRandomGraphSeedMatters(t *testing.T) {
	a, _ := seeded(t, "random:4", 1, ids1(50)...)
	b, _ := seeded(t, "random:4", 2, ids1(50)...)
	if slices.Equal(a.Topology.Edges(), b.Topology.Edges()) {
		t.Error("seeds 1 and 2 drew the same random:4 graph")
	}
}

// The fixed shapes are laid over the ring order.
func TestFixedGraphs(t *testing.T) {
	ring := []ID{5, 2, 7, 1, 3, 9}
	for _, c := range []struct {
		name  string
		edges [][2]ID // as Edges lists them: by the smaller id's index, then the other's
	}{
		{Line, [][2]ID{{1, 3}, {1, 7}, {2, 5}, {2, 7}, {3, 9}}},
		{Star, [][2]ID{{1, 5}, {2, 5}, {3, 5}, {5, 7}, {5, 9}}},
		{"grid:2x3", [][2]ID{{5, 2}, {2, 7}, {1, 3}, {3, 9}, {5, 1}, {2, 3}, {7, 9}}}, // rows 5 2 7 and 1 3 9
		{"tree:2", [][2]ID{{1, 2}, {2, 5}, {2, 3}, {5, 7}, {7, 9}}},
	} {
		cl, err := seeded(t, c.name, 1, ring...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := normalise(cl.Topology.Edges())
		if want := normalise(c.edges); !slices.Equal(got, want) {
			t.Errorf("%s: edges %v, want %v", c.name, got, want)
		}
		if cl.Topology.Name() != c.name || cl.Topology.Directed() || cl.Topology.IsComplete() || cl.Topology.IsRing() {
			t.Errorf("%s: name %q, directed/complete/ring", c.name, cl.Topology.Name())
		}
	}
}

func normalise(edges [][2]ID) [][2]ID {
	out := make([][2]ID, len(edges))
	for i, e := range edges {
		out[i] = [2]ID{min(e[0], e[1]), max(e[0], e[1])}
	}
	slices.SortFunc(out, func(a, b [2]ID) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	return out
}

// Bad names say what was expected; a grid that does not fit the nodes says so.
func TestGraphNameErrors(t *testing.T) {
	for name, want := range map[string]string{
		"grid:3":      "expected grid:RxC",
		"grid:0x3":    "expected grid:RxC",
		"tree:":       "expected tree:K",
		"tree:x":      "expected tree:K",
		"random:0":    "expected random:D",
		"random:NaN":  "expected random:D",
		"random":      "expected random:D",
		"line:2":      "takes no parameter",
		"file:":       "expected file:PATH",
		"file:/nope9": "/nope9: no such file",
		"hypercube":   "unknown topology",
	} {
		if err := CheckTopology(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
	if _, err := seeded(t, "grid:2x2", 1, 1, 2, 3); err == nil || !strings.Contains(err.Error(), "R·C = 3") {
		t.Errorf("grid:2x2 over 3 nodes: %v", err)
	}
}

// An edge-list file is read with its errors positioned path:line:col; a file that leaves a node
// out is not connected, and says so.
func TestGraphFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.txt", "# a square with a diagonal\n1 2\n2 3\n\n3 4 # the third\n4,1\n1 3\n3 1\n")
	c, err := seeded(t, "file:"+good, 1, 1, 2, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := normalise(c.Topology.Edges()), [][2]ID{{1, 2}, {1, 3}, {1, 4}, {2, 3}, {3, 4}}; !slices.Equal(got, want) {
		t.Errorf("edges %v, want %v", got, want)
	}
	for text, want := range map[string]string{
		"1 2\n2 x\n":    ":2:3: \"x\": expected a node id",
		"1 2\n 3\n":     ":2:2: an edge needs two node ids",
		"1 2 3\n":       ":1:5: \"3\" after the edge's two ids",
		"1 2\n4 4\n":    ":2:3: edge 4–4 joins a node to itself",
		"1 2\n2 -3\n":   ":2:3: \"-3\": expected a node id",
		"# nothing\n\n": "no edges",
	} {
		p := write("bad.txt", text)
		if err := CheckTopology("file:" + p); err == nil || !strings.Contains(err.Error(), p+want) && !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
	p := write("other.txt", "1 2\n2 7\n")
	if _, err := seeded(t, "file:"+p, 1, 1, 2, 3); err == nil || !strings.Contains(err.Error(), p+":2:1: node 7 is not in the run") {
		t.Errorf("unknown id: %v", err)
	}
	p = write("apart.txt", "1 2\n")
	if _, err := seeded(t, "file:"+p, 1, 1, 2, 3); err == nil || !strings.Contains(err.Error(), "not connected: node 3 has no path to node 1") {
		t.Errorf("disconnected: %v", err)
	}
}

// An algorithm runs on a topology of a kind it names, whatever the parameter; one that runs on
// random graphs runs on every general graph, not on the complete graph or a ring unless named.
func TestRunsOnKind(t *testing.T) {
	a := &Info{Name: "x", Topologies: []string{Tree + ":3", Grid + ":2x2"}}
	for name, want := range map[string]bool{"tree:2": true, "grid:5x1": true, "random:3": false, Line: false, Complete: false} {
		if got := a.RunsOn(name); got != want {
			t.Errorf("RunsOn(%s) = %v", name, got)
		}
	}
	a = &Info{Name: "y", Topologies: []string{Random + ":3"}}
	for name, want := range map[string]bool{"random:7": true, "tree:2": true, Line: true, Star: true, "file:g": true, "grid:1x3": true, Complete: false, UniRing: false} {
		if got := a.RunsOn(name); got != want {
			t.Errorf("RunsOn(%s) = %v", name, got)
		}
	}
}
