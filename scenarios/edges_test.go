package scenarios

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"electsim/algo"
	"electsim/sim"
)

// A graph can be written in a scenario as its edges: on the topology line, with more on edges
// lines after it, spaces or commas between them. The run gets them as data.
func TestInlineEdges(t *testing.T) {
	sc, err := Parse("g.scn", []byte("algo echo\nnodes 5\ntopology edges 1-2 2-3, 3-4\nedges 4-5 5-1\nedges 1-3\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]algo.ID{{1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 1}, {1, 3}}
	cfg := sc.Config()
	if sc.Topology != algo.EdgeList || !slices.Equal(sc.Edges, want) || cfg.Topology != algo.EdgeList || !slices.Equal(cfg.Edges, want) {
		t.Fatalf("topology %q edges %v; the run's %q %v", sc.Topology, sc.Edges, cfg.Topology, cfg.Edges)
	}
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Topology().Neighbours(1); !slices.Equal(got, []algo.ID{2, 3, 5}) {
		t.Errorf("node 1's neighbours %v, want 2 3 5", got)
	}
}

// Every mistake in inline edges is at its place, saying what was expected.
func TestInlineEdgesErrors(t *testing.T) {
	for src, want := range map[string]string{
		"algo echo\nnodes 3\ntopology edges 1-2 2-x\n":                 `g.scn:3:20: expected an edge such as 1-2 (two node ids joined by -), got "2-x"`,
		"algo echo\nnodes 3\ntopology edges 1-2 2->3\n":                `g.scn:3:20: expected an edge such as 1-2, got "2->3": an edge joins two nodes both ways; write it with -`,
		"algo echo\nnodes 3\ntopology edges 1-2 3-3\n":                 "g.scn:3:20: the edge 3-3 joins a node to itself",
		"algo echo\nnodes 3\ntopology edges 1-2 2-3 3-17\n":            "g.scn:3:26: unknown node 17 (nodes are 1..3)",
		"algo echo\nnodes 3\ntopology edges 1-2 2-3 | 3-1\n":           `g.scn:3:24: expected an edge such as 1-2, got "|"`,
		"algo echo\nnodes 3\ntopology edges\n":                         "g.scn:3:10: topology edges needs its edges: write them after it",
		"algo echo\nnodes 3\nedges 1-2 2-3\n":                          "g.scn:3:1: an edges line adds edges to topology edges: write topology edges first",
		"algo echo\nnodes 3\ntopology line\nedges 1-2 2-3\n":           "g.scn:4:1: an edges line adds edges to topology edges",
		"algo echo\nnodes 4\ntopology edges 1-2 3-4\n":                 "g.scn:3:10: topology edges is not connected: node 3 has no path to node 1",
		"algo bully\nnodes 3\ntopology edges 1-2 2-3\n":                "g.scn:3:1: bully does not run on the edges topology: it runs on complete",
		"algo echo\nnodes 3\ntopology edges:1-2\n":                     `g.scn:3:10: topology "edges:1-2" takes no parameter: write edges`,
		"algo echo\nnodes 3\ntopology edges 1-2\nnodes 3\nedges 9-1\n": "g.scn:4:1: the nodes are given already, at line 2",
	} {
		_, err := Parse("g.scn", []byte(src))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q:\n got %v\nwant %s", src, err, want)
		}
	}
	// Flags that choose other nodes make an edge wrong at its place, saying so.
	sc, err := Parse("g.scn", []byte("algo echo\nnodes 4\ntopology edges 1-2 2-3 3-4\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = sc.Recheck(Override{IDs: []algo.ID{1, 2, 3}, NodesFlag: "--nodes 3"})
	if want := "g.scn:3:26: unknown node 4 (nodes are 1..3, set by --nodes 3)"; err == nil || err.Error() != want {
		t.Errorf("with --nodes 3: %v, want %s", err, want)
	}
}

// Format writes a graph's edges inline — on the topology line when they are few, else on edges
// lines after it — and they parse back as they were, for graphs drawn at random.
func TestInlineEdgesRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 60).Draw(t, "n")
		ids := make([]algo.ID, n)
		for i := range ids {
			ids[i] = algo.ID(rapid.IntRange(1, 1_000_000).Draw(t, "id"))
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		if len(ids) < 2 {
			return
		}
		rapid.Permutation(ids).Draw(t, "ring")
		sc := New("gen")
		sc.Algorithm, sc.IDs, sc.Contig = "echo", ids, slices.Equal(ids, contiguous(len(ids)))
		for i := 1; i < len(ids); i++ { // a spanning tree, then edges at random
			sc.Edges = append(sc.Edges, [2]algo.ID{ids[rapid.IntRange(0, i-1).Draw(t, "parent")], ids[i]})
		}
		for range rapid.IntRange(0, 40).Draw(t, "more") {
			a, b := rapid.SampledFrom(ids).Draw(t, "a"), rapid.SampledFrom(ids).Draw(t, "b")
			if a != b {
				sc.Edges = append(sc.Edges, [2]algo.ID{a, b})
			}
		}
		sc.Topology = algo.EdgeList
		text := Format(sc)
		if len(sc.Edges) > edgesPerLine && !strings.Contains(text, "\ntopology edges\nedges ") {
			t.Fatalf("%d edges, not on edges lines:\n%s", len(sc.Edges), text)
		}
		back, err := Parse("gen.scn", []byte(text))
		if err != nil {
			t.Fatalf("the formatted text does not parse: %v\n%s", err, text)
		}
		if !reflect.DeepEqual(withoutLines(back), sc) {
			t.Fatalf("round trip changed the scenario:\n%s\n got %v\nwant %v", text, back.Edges, sc.Edges)
		}
		if again := Format(back); again != text {
			t.Fatalf("Format is not stable:\n%s\nthen\n%s", text, again)
		}
	})
}

// Inline writes a file's graph in its scenario: the copy's topology is edges, the original's
// is as it was.
func TestInline(t *testing.T) {
	sc := New("x")
	sc.Algorithm, sc.IDs = "echo", []algo.ID{1, 2, 3}
	sc.Topology, sc.Edges = "file:net.txt", [][2]algo.ID{{1, 2}, {2, 3}}
	in := sc.Inline()
	if in.Topology != algo.EdgeList || sc.Topology != "file:net.txt" || !slices.Equal(in.Edges, sc.Edges) {
		t.Errorf("inline: %q %v; the original %q", in.Topology, in.Edges, sc.Topology)
	}
	plain := New("y")
	if plain.Inline().Topology != "" {
		t.Error("a scenario with no graph of edges gained a topology")
	}
	if got := Format(in); got != Format(sc) || !strings.Contains(got, "topology edges 1-2 2-3\n") {
		t.Errorf("formatted:\n%s\nand\n%s", got, Format(sc))
	}
}

// A long edges line is no trouble: 100,000 edges in one line parse.
func TestInlineEdgesLong(t *testing.T) {
	var b strings.Builder
	fmt.Fprintf(&b, "algo echo\nnodes 100001\ntopology edges")
	for i := 1; i <= 100_000; i++ {
		fmt.Fprintf(&b, " %d-%d", i, i+1)
	}
	b.WriteString("\n")
	sc, err := Parse("long.scn", []byte(b.String()))
	if err != nil || len(sc.Edges) != 100_000 {
		t.Fatalf("%v", err)
	}
}

// A file's graph too big to write in a scenario file is written as the file's name: what Format
// writes always reads back.
func TestFormatBigFileGraphByName(t *testing.T) {
	sc := New("big")
	sc.Algorithm, sc.Topology = "echo", "file:big.txt"
	for i := range 300_000 {
		sc.Edges = append(sc.Edges, [2]algo.ID{algo.ID(1_000_000 + i), algo.ID(2_000_000 + i)})
	}
	if text := Format(sc); !strings.Contains(text, "\ntopology file:big.txt\n") || len(text) > 1000 {
		t.Errorf("%d edges formatted in %d bytes:\n%.300s", len(sc.Edges), len(text), text)
	}
	sc.Edges = sc.Edges[:100_000]
	if text := Format(sc); !strings.Contains(text, "\ntopology edges\nedges ") || len(text) > MaxFileSize {
		t.Errorf("%d edges formatted in %d bytes", len(sc.Edges), len(text))
	}
}
