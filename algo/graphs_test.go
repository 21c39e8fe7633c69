package algo

import (
	"fmt"
	"math"
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
		"grid:3":     "expected grid:RxC",
		"grid:0x3":   "expected grid:RxC",
		"tree:":      "expected tree:K",
		"tree:x":     "expected tree:K",
		"random:0":   "expected random:D",
		"random:NaN": "expected random:D",
		"random":     "expected random:D",
		"line:2":     "takes no parameter",
		"file:":      "expected file:PATH",
		"edges:1-2":  "takes no parameter",
		"hypercube":  "unknown topology",
	} {
		if err := CheckTopology(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
	if _, err := seeded(t, "grid:2x2", 1, 1, 2, 3); err == nil || !strings.Contains(err.Error(), "R·C = 3") {
		t.Errorf("grid:2x2 over 3 nodes: %v", err)
	}
}

// A graph given as its edges — a file's, read by the caller, or a scenario's edges — is laid
// as given: the same edge twice or both ways is one edge; an edge naming a node not in the
// run, a loop, no edges at all, or a graph that leaves a node out, say so. Nothing is read:
// file:PATH with no edges given has none.
func TestGraphFromEdges(t *testing.T) {
	edges := [][2]ID{{1, 2}, {2, 3}, {3, 4}, {4, 1}, {1, 3}, {3, 1}}
	for _, name := range []string{"file:good.txt", EdgeList} {
		c, err := NewClusterGraph([]ID{1, 2, 3, 4}, name, edges, 1, 0, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, want := normalise(c.Topology.Edges()), [][2]ID{{1, 2}, {1, 3}, {1, 4}, {2, 3}, {3, 4}}; !slices.Equal(got, want) {
			t.Errorf("%s: edges %v, want %v", name, got, want)
		}
		if c.Topology.Name() != name {
			t.Errorf("named %q, want %q", c.Topology.Name(), name)
		}
	}
	for _, c := range []struct {
		edges [][2]ID
		want  string
	}{
		{[][2]ID{{1, 2}, {2, 7}}, `topology file:g.txt: the edge 2–7 names node 7, which is not in the run`},
		{[][2]ID{{9, 2}, {2, 3}}, `topology file:g.txt: the edge 9–2 names node 9, which is not in the run`},
		{[][2]ID{{1, 2}, {2, 2}, {2, 3}}, `topology file:g.txt: the edge 2–2 joins a node to itself`},
		{nil, `topology file:g.txt has no edges`},
		{[][2]ID{{1, 2}}, "topology file:g.txt is not connected: node 3 has no path to node 1"},
	} {
		if _, err := NewClusterGraph([]ID{1, 2, 3}, "file:g.txt", c.edges, 1, 0, nil); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.edges, err, c.want)
		}
	}
	if err := CheckTopology("file:/nowhere/at/all"); err != nil {
		t.Errorf("a file's name is checked as a name, not read: %v", err)
	}
}

// Parameters too big for a whole number are no graph of another shape (issue 28, item 10):
// random:D with N·D/2 past int64 is every pair, not a tree; a grid whose R·C wraps round to
// the number of nodes is refused, saying how many places it has; a random graph of more edges
// than a graph may have is refused before it is drawn.
func TestGraphParametersDoNotOverflow(t *testing.T) {
	for _, d := range []string{"1e18", "1e19", "1e300", "9223372036854775807"} {
		c, err := seeded(t, "random:"+d, 1, ids1(6)...)
		if err != nil {
			t.Fatalf("random:%s: %v", d, err)
		}
		if got := len(c.Topology.Edges()); got != 15 {
			t.Errorf("random:%s over 6 nodes: %d edges, want every pair, 15", d, got)
		}
	}
	if got := RandomEdgeCount(6, 1e19); got != 15 {
		t.Errorf("RandomEdgeCount(6, 1e19) = %d, want 15", got)
	}
	_, err := seeded(t, "grid:4x4611686018427387905", 1, ids1(4)...)
	if err == nil || !strings.Contains(err.Error(), "has 18446744073709551620 places, and the run has 4 nodes") {
		t.Errorf("grid:4x4611686018427387905 over 4 nodes: %v", err)
	}
	_, err = seeded(t, "random:1e9", 1, ids1(20_000)...)
	if err == nil || !strings.Contains(err.Error(), "would have 199990000 edges, more than the 10000000 a graph may have") {
		t.Errorf("random:1e9 over 20,000 nodes: %v", err)
	}
}

// A name is quoted in an error escaped and cut short, however long it was typed.
func TestGraphNameQuotedShort(t *testing.T) {
	name := "grid:" + strings.Repeat("\x1b", 100_000)
	err := CheckTopology(name)
	if err == nil || len(err.Error()) > 300 || strings.ContainsRune(err.Error(), 0x1b) {
		t.Errorf("a 400 KB name: %d bytes of error: %.120q", len(err.Error()), err)
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
	for name, want := range map[string]bool{"random:7": true, "tree:2": true, Line: true, Star: true, "file:g": true, EdgeList: true, "grid:1x3": true, Complete: false, UniRing: false} {
		if got := a.RunsOn(name); got != want {
			t.Errorf("RunsOn(%s) = %v", name, got)
		}
	}
}
