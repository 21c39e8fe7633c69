package session

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"electsim/algo"
	"electsim/scenarios"
	"electsim/sim"
)

// A session on a topology file reads it once, when the scenario is loaded (issue 28, item 6):
// after the file changes, or is gone, stepping back, starting again and a second session all
// run on the edges the session began with, and a step back is as exact as ever.
func TestTopologyFileReadOnce(t *testing.T) {
	dir := t.TempDir()
	net := filepath.Join(dir, "net.txt")
	write := func(text string) {
		if err := os.WriteFile(net, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("1 2\n2 3\n3 4\n4 5\n")
	scn := filepath.Join(dir, "g.scn")
	if err := os.WriteFile(scn, []byte("algo echo\nnodes 5\ntopology file:net.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Load(scn)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.Engine = sim.Inline
	s, err := New(cfg, sc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	edges := s.Topology().Edges()
	next(t, s, 12)
	shown := jsonl(s.Steps()[11].Records)

	write("1 5\n5 4\n4 3\n3 2\n2 1\n1 3\n") // another graph: nothing of the session may follow it
	if err := s.Back(4); err != nil {
		t.Fatalf("back after the file changed: %v", err)
	}
	next(t, s, 4)
	if got := jsonl(s.Steps()[11].Records); got != shown || !slices.Equal(s.Topology().Edges(), edges) {
		t.Errorf("after the file changed, a step back and forward shows another run:\n%s\nwas\n%s", got, shown)
	}
	if err := os.Remove(net); err != nil {
		t.Fatal(err)
	}
	if err := s.Back(12); err != nil {
		t.Fatalf("back after the file is gone: %v", err)
	}
	if err := s.Restart(); err != nil {
		t.Fatalf("restart after the file is gone: %v", err)
	}
	other, err := New(cfg, sc)
	if err != nil {
		t.Fatalf("a second session after the file is gone: %v", err)
	}
	defer other.Close()
	for _, top := range []*algo.Topology{s.Topology(), other.Topology()} {
		if !slices.Equal(top.Edges(), edges) {
			t.Errorf("edges %v, want those the session began with, %v", top.Edges(), edges)
		}
	}
}
