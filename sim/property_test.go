package sim_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// genSchedule draws a random fault schedule over ids: every kind of action at random times.
func genSchedule(t *rapid.T, ids []algo.ID, runFor time.Duration) []sim.Action {
	node := rapid.SampledFrom(ids)
	when := rapid.Custom(func(t *rapid.T) time.Duration {
		return time.Duration(rapid.Int64Range(0, int64(runFor/time.Millisecond)).Draw(t, "ms")) * time.Millisecond
	})
	var actions []sim.Action
	for range rapid.IntRange(0, 12).Draw(t, "actions") {
		a := sim.Action{At: when.Draw(t, "at")}
		switch rapid.IntRange(0, 11).Draw(t, "op") {
		case 0:
			a.Op, a.Nodes = sim.Crash, []algo.ID{node.Draw(t, "n")}
		case 1:
			a.Op, a.Nodes = sim.Recover, []algo.ID{node.Draw(t, "n")}
		case 2:
			a.Op, a.Nodes = sim.Pause, []algo.ID{node.Draw(t, "n")}
		case 3:
			a.Op, a.Nodes = sim.Resume, []algo.ID{node.Draw(t, "n")}
		case 4:
			perm := rapid.Permutation(ids).Draw(t, "perm")
			cut := rapid.IntRange(1, len(ids)-1).Draw(t, "split")
			a.Op, a.Groups = sim.Partition, [][]algo.ID{perm[:cut]}
		case 5:
			a.Op = sim.Heal
		case 6:
			from, to := node.Draw(t, "from"), node.Draw(t, "to")
			if from == to {
				a.Op = sim.Heal
				break
			}
			a.Op, a.Link = sim.Cut, &network.Link{From: from, To: to}
		case 7:
			lo := time.Duration(rapid.IntRange(0, 50).Draw(t, "lo")) * time.Millisecond
			hi := lo + time.Duration(rapid.IntRange(0, 400).Draw(t, "span"))*time.Millisecond
			a.Op, a.Delay = sim.SetDelay, network.Delay{Min: lo, Max: hi}
		case 8:
			a.Op, a.Drop = sim.SetDrop, float64(rapid.IntRange(0, 60).Draw(t, "drop"))
		case 9:
			a.Op, a.Nodes = sim.Elect, []algo.ID{node.Draw(t, "n")}
		case 10:
			a.Op = sim.Say
			a.Text = "narration"
		case 11:
			rates := []float64{0.25, 0.5, 0.8, 1, 1.25, 2, 4}
			a.Op, a.Nodes, a.Rate = sim.Clock, []algo.ID{node.Draw(t, "n")}, rapid.SampledFrom(rates).Draw(t, "rate")
		}
		actions = append(actions, a)
	}
	return actions
}

// Whatever the faults, every algorithm runs to the end — no loop that stops virtual time, no
// flood of messages, no panic — and both engines give the same trace.
func TestRandomSchedulesRunCleanly(t *testing.T) {
	for _, name := range algo.Names() {
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				n := rapid.IntRange(minNodes(name), 7).Draw(t, "nodes")
				ids := make([]algo.ID, n)
				for i, p := range rapid.Permutation(seq(1, n, 1)).Draw(t, "ring") {
					ids[i] = p
				}
				cfg := sim.DefaultConfig(lookup(t, name), n)
				cfg.IDs = ids
				cfg.Seed = rapid.Uint64().Draw(t, "seed")
				cfg.RunFor = 3 * time.Second
				cfg.Network.FIFO = rapid.Bool().Draw(t, "fifo")
				cfg.Actions = genSchedule(t, ids, cfg.RunFor)
				cfg.MaxScheduled = 200_000
				cfg.StallSteps = 200_000
				cfg.Engine = sim.Inline
				a := jsonl(t, cfg)
				cfg.Engine = sim.Goroutine
				b := jsonl(t, cfg)
				if !bytes.Equal(a, b) {
					t.Fatalf("the engines disagree (seed %d):\n%s", cfg.Seed, firstDiff(a, b))
				}
				sum := run(t, cfg)
				if sum.Halted != "" {
					t.Fatalf("halted: %s (seed %d, actions %v)", sum.Halted, cfg.Seed, cfg.Actions)
				}
				// A storm: more than 100 messages per node per virtual second is not an election.
				var sent int64
				for _, s := range sum.Sent {
					sent += s
				}
				if limit := int64(100 * n * 3); sent > limit+int64(n*n*60*3) {
					t.Fatalf("%d messages in 3s among %d nodes (seed %d): a storm; kinds %v sent %v",
						sent, n, cfg.Seed, sum.Kinds, sum.Sent)
				}
			})
		})
	}
}

// After the last fault heals, every algorithm that declares it recovers (algo.Info.Recovers)
// settles on one leader that every live node names — the winner it declares: the highest live
// id for Bully and Ring, the lowest for Lowest-ID, any for Raft (when a majority is live).
func TestRandomSchedulesSettle(t *testing.T) {
	for _, name := range algo.Names() {
		t.Run(name, func(t *testing.T) {
			info := lookup(t, name)
			if !info.Recovers {
				t.Skipf("%s declares it does not recover after faults; its election without them is TestCatalogElects's", name)
			}
			rapid.Check(t, func(t *rapid.T) {
				n := rapid.IntRange(minNodes(name), 7).Draw(t, "nodes")
				cfg := sim.DefaultConfig(lookup(t, name), n)
				cfg.Seed = rapid.Uint64().Draw(t, "seed")
				cfg.Engine = sim.Inline
				cfg.Actions = genSchedule(t, cfg.IDs, 2*time.Second)
				// End every fault by 2s, then give the algorithm 3s to settle.
				last := 2 * time.Second
				cfg.Actions = append(cfg.Actions,
					sim.Action{At: last, Op: sim.Heal},
					sim.Action{At: last, Op: sim.SetDelay, Delay: network.Delay{Min: 5 * ms, Max: 15 * ms}},
					sim.Action{At: last, Op: sim.SetDrop, Drop: 0})
				for _, id := range cfg.IDs {
					cfg.Actions = append(cfg.Actions,
						sim.Action{At: last, Op: sim.Resume, Nodes: []algo.ID{id}},
						sim.Action{At: last, Op: sim.Clock, Nodes: []algo.ID{id}, Rate: 1})
				}
				cfg.RunFor = 5 * time.Second
				sum := run(t, cfg)
				var live []algo.ID
				for _, v := range sum.Nodes {
					if v.Status != sim.Crashed {
						live = append(live, v.ID)
					}
				}
				if len(live) == 0 {
					return
				}
				want := slices.Max(live)
				switch {
				case info.Winner == algo.Lowest:
					want = slices.Min(live)
				case info.Quorum:
					// Raft, Paxos: whoever times out first wins; Zab: the newest history among the
					// live, which a crash may have left behind. A leader is owed only to a
					// live majority.
					if len(live) < n/2+1 {
						return
					}
					want = sum.Leader
					if want == 0 {
						want = -1 // none agreed: fail below
					}
				case name == "lease" || name == "k8s-lease":
					// Any live candidate, once the lock service (client-go's: the API server) is
					// up; never it (the second-highest id) or the resource (the highest).
					if sum.Nodes[n-2].Status == sim.Crashed || slices.Min(live) >= algo.ID(n-1) {
						return // no lock service, or no live candidate
					}
					want = sum.Leader
					if want == 0 || want >= algo.ID(n-1) {
						want = -1
					}
				case name == "zookeeper":
					// Any live candidate, once the coordination service (the highest id) is up.
					if sum.Nodes[n-1].Status == sim.Crashed || slices.Min(live) == algo.ID(n) {
						return
					}
					want = sum.Leader
					if want == 0 || want == algo.ID(n) {
						want = -1
					}
				case info.Winner == algo.AnyWinner || info.Groups:
					// An algorithm of groups keeps the coordinator that a merge made: any live node.
					if want = sum.Leader; want == 0 || !slices.Contains(live, want) {
						want = -1 // none agreed, or not a live node: fail below
					}
				}
				// Per-link overrides from the schedule may remain: heal restores links, not delays.
				slow := false
				for _, a := range cfg.Actions {
					if a.Op == sim.SetDelay && a.Link != nil || a.Op == sim.SetDrop && a.Link != nil {
						slow = true
					}
				}
				if sum.Leader != want && !slow {
					t.Fatalf("settled on %d, want %d (live %v); %s", sum.Leader, want, live, describeViolations(sum))
				}
			})
		})
	}
}

// minNodes is the smallest cluster algorithm name runs on, from 2: the smallest its Validate
// takes (Lease needs a lock service and a resource besides its candidates).
func minNodes(name string) int {
	info, _ := algo.Lookup(name)
	for n := 2; ; n++ {
		cfg := sim.DefaultConfig(info, n)
		if cfg.Validate() == nil {
			return n
		}
	}
}

func describeViolations(sum sim.Summary) string {
	var b bytes.Buffer
	for _, v := range sum.Violations {
		fmt.Fprintf(&b, "%v; ", v)
	}
	for _, n := range sum.Nodes {
		fmt.Fprintf(&b, "%d:%s→%d ", n.ID, n.Status, n.Leader)
	}
	return b.String()
}
