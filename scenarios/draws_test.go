package scenarios

import (
	"reflect"
	"strings"
	"testing"

	"electsim/sim"
)

// A draws line pins a node's first draws; it reads back as written, and reaches the run.
func TestDrawsLine(t *testing.T) {
	src := "algo raft\nnodes 3\ndraws 2 low high middle\ndraws 3 high\nrun 1s\n"
	sc, err := Parse("d.scn", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []sim.NodeDraws{{Node: 2, Points: []sim.DrawPoint{sim.DrawLow, sim.DrawHigh, sim.DrawMiddle}},
		{Node: 3, Points: []sim.DrawPoint{sim.DrawHigh}}}
	if !reflect.DeepEqual(sc.Draws, want) {
		t.Fatalf("draws %v, want %v", sc.Draws, want)
	}
	if cfg := sc.Config(); !reflect.DeepEqual(cfg.Draws, want) {
		t.Errorf("the run's draws %v, want %v", cfg.Draws, want)
	}
	text := Format(sc)
	if !strings.Contains(text, "draws   2 low high middle\n") {
		t.Errorf("Format wrote\n%s", text)
	}
	again, err := Parse("d.scn", []byte(text))
	if err != nil || !reflect.DeepEqual(again.Draws, want) {
		t.Errorf("read back: %v, %v", again.Draws, err)
	}
}

func TestDrawsLineErrors(t *testing.T) {
	for src, want := range map[string]string{
		"nodes 3\ndraws 4 low\n":             "d.scn:2:7: unknown node 4 (nodes are 1..3)",
		"nodes 3\ndraws 2 lowest\n":          `d.scn:2:9: unknown draw "lowest" (choose low, high or middle)`,
		"nodes 3\ndraws 2\n":                 "d.scn:2:8: expected the points node 2's draws take (low, high or middle); the line ends here",
		"nodes 3\ndraws 2 low\ndraws 2 high": "d.scn:3:7: the draws of node 2 are given twice (first at line 2)",
	} {
		_, err := Parse("d.scn", []byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %s", src, err, want)
		}
	}
}
