package sim_test

import (
	"testing"
	"time"

	"electsim/sim"
)

// A `leader` action when every node is crashed says so, at its own time — not that the actions
// of 0ms come before the boots, which is true only at 0ms (issue 28, item 17).
func TestLeaderWhenEveryNodeIsCrashed(t *testing.T) {
	for _, e := range engines {
		cfg := fixed(t, "bully", 5, 10*ms, e)
		cfg.RunFor = 2 * time.Second
		cfg.Actions = []sim.Action{at(time.Second, sim.Crash, 1, 2, 3, 4, 5), at(1500*ms, sim.Crash, sim.AgreedLeader)}
		want := "crash leader: no node leads at 1500ms — every node that could lead is crashed"
		if sum := run(t, cfg); sum.Halted != want || sum.End != 1500*ms {
			t.Errorf("%s: halted %q at %v, want %q", e, sum.Halted, sum.End, want)
		}
	}
}
