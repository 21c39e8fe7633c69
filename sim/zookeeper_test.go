package sim_test

import (
	"fmt"
	"testing"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// zkCrash runs ZooKeeper's recipe on n nodes (the highest the service) with the default network,
// crashes the leader at 1s, and returns the summary.
func zkCrash(t *testing.T, n int, seed uint64, watch string, e sim.Engine) sim.Summary {
	t.Helper()
	cfg := sim.DefaultConfig(lookup(t, "zookeeper"), n)
	cfg.Seed, cfg.Engine = seed, e
	cfg.Params = algo.Params{"watch": {Choice: watch}}
	cfg.Actions = []sim.Action{at(time.Second, sim.Crash, sim.AgreedLeader)}
	return run(t, cfg)
}

// The herd effect as a number (docs/algorithms.md, ZooKeeper): when the leader's session expires
// and its znode is deleted, watching the predecessor wakes exactly one candidate — the next in
// line — and watching the leader wakes every other live candidate, n − 2 of them (n nodes, less
// the service and the leader). Each woken candidate asks again (WATCH). Before the crash no znode
// is deleted, so no watch fires. `electsim run --algo zookeeper --nodes 10 --at '1s crash
// leader'` is n = 10, seed 1: 1 NOTIFY, and 8 with --set watch=leader.
func TestZooKeeperNotifications(t *testing.T) {
	for _, n := range []int{3, 4, 7, 10, 13} {
		for _, seed := range []uint64{1, 2, 3} {
			for _, e := range engines {
				for watch, want := range map[string]int64{algo.WatchPredecessor: 1, algo.WatchLeader: int64(n - 2)} {
					t.Run(fmt.Sprintf("n%d/seed%d/%s/%s", n, seed, e, watch), func(t *testing.T) {
						sum := zkCrash(t, n, seed, watch, e)
						notify, _, _ := sum.Count(algo.KindNotify)
						asks, _, _ := sum.Count(algo.KindWatch)
						if notify != want || asks != want {
							t.Errorf("NOTIFY %d and WATCH %d sent, want %d each", notify, asks, want)
						}
						if sum.Leader == 0 || sum.Leader == algo.ID(n) {
							t.Errorf("no candidate agreed on after the crash: leader %d", sum.Leader)
						}
						for _, p := range sum.Properties {
							if !p.Holds {
								t.Errorf("%s does not hold: %s", p.Name, describeViolations(sum))
							}
						}
					})
				}
			}
		}
	}
}
