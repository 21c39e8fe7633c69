package sim_test

import (
	"fmt"
	"testing"

	"electsim/algo"
	"electsim/sim"
)

// DESIGN §3.1: with a fixed delay below answer-timeout/2, node n down from time 0 and every
// other node booting, ELECTION is sent n(n−1)/2 times (n−1 of them to the dead node), OK
// (n−1)(n−2)/2 times, COORDINATOR n−1 times (n−2 delivered), and n−1 is elected.
func TestBullyExactCounts(t *testing.T) {
	for _, n := range []int{3, 5, 8, 20} {
		for _, e := range engines {
			t.Run(fmt.Sprintf("n=%d/%s", n, e), func(t *testing.T) {
				cfg := fixed(t, "bully", n, 10*ms, e)
				cfg.Actions = []sim.Action{at(0, sim.Crash, algo.ID(n))}
				cfg.RunFor = 2000 * ms
				sum := run(t, cfg)

				check := func(kind string, wantSent, wantDelivered, wantDropped int) {
					t.Helper()
					s, d, x := sum.Count(kind)
					if s != int64(wantSent) || d != int64(wantDelivered) || x != int64(wantDropped) {
						t.Errorf("%s: sent/delivered/dropped = %d/%d/%d, want %d/%d/%d",
							kind, s, d, x, wantSent, wantDelivered, wantDropped)
					}
				}
				check("ELECTION", n*(n-1)/2, n*(n-1)/2-(n-1), n-1)
				check("OK", (n-1)*(n-2)/2, (n-1)*(n-2)/2, 0)
				check("COORDINATOR", n-1, n-2, 1)
				if sum.Leader != algo.ID(n-1) {
					t.Errorf("leader = %d, want %d", sum.Leader, n-1)
				}
				for _, v := range sum.Nodes {
					if v.ID == algo.ID(n) {
						if v.Status != sim.Crashed {
							t.Errorf("node %d: %s, want crashed", v.ID, v.Status)
						}
						continue
					}
					if v.Leader != algo.ID(n-1) {
						t.Errorf("node %d believes in %d, want %d", v.ID, v.Leader, n-1)
					}
				}
				if len(sum.Violations) != 0 {
					t.Errorf("violations: %v", sum.Violations)
				}
			})
		}
	}
}
