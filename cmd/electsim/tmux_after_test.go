package main

import (
	"os"
	"path/filepath"
	"testing"
)

// A counterexample that check --exhaustive writes, with a fault between two boots (`at 0ms after
// 2 inputs crash 3`), steps in a real terminal as it replays: node 3 crashes as the third step,
// before it boots, recovers at 50ms as the ninth, and the run stops at the break with the split
// brain on screen (each step one later than the explorer counts it: the scenario sets every
// link's delay at 0ms first, an action) — keys one at a time, then back and forward again in bursts.
func TestTUIUnderTmuxFaultBetweenInputs(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mid.scn")
	if code, out, errOut := call("check", "--exhaustive", "--algo", "bully", "--nodes", "3", "--faults", "crash,recover",
		"--budget", "2", "--out", file); code != 1 {
		t.Fatalf("check --exhaustive: exit %d\n%s%s", code, out, errOut)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p := startPane(t, "tui", file, "--no-color")
	p.shows("the first screen", "electsim · Counterexample: bully breaks at-most-one-leader")
	p.key("l", "l", "l", "l")
	p.shows("node 3 crashed between the second boot and its own", "step 4 ", "#4 3      crash")
	p.burst("llllll")
	p.shows("its recovery at 50ms", "step 10 ", "#10 3      recover", "SPLIT BRAIN")
	p.key("l", "l")
	p.shows("the break after the split", "step 12 ", "at a break")
	p.burst("hhhhhhhh")
	p.shows("back to the crash", "step 4 ")
	p.burst("llllllll")
	p.shows("forward to the break again", "step 12 ", "at a break", "SPLIT BRAIN")
	p.key("q")
	if code := p.exitStatus(); code != 0 {
		t.Errorf("after q the process exited with status %d; the scenario:\n%s", code, src)
	}
}
