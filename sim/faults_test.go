package sim_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// pingRun runs the pinger plan on nodes 1..n with the given delay and actions and returns the
// trace.
func pingRun(t *testing.T, e sim.Engine, n int, plan pingPlan, delay network.Delay, fifo bool, actions ...sim.Action) []sim.Record {
	t.Helper()
	cfg := sim.DefaultConfig(pingerInfo(plan), n)
	cfg.Engine = e
	cfg.Network.Delay = delay
	cfg.Network.FIFO = fifo
	cfg.Actions = actions
	cfg.RunFor = 2 * time.Second
	recs, _ := runTrace(t, cfg)
	return recs
}

func fixedDelay(d time.Duration) network.Delay { return network.Delay{Min: d, Max: d} }

// pings returns the PING values of the records of type typ, in trace order.
func pings(recs []sim.Record, typ sim.RecordType) []int {
	var out []int
	for _, r := range recs {
		if r.Type == typ && r.Msg.Kind == "PING" {
			out = append(out, int(r.Msg.Value))
		}
	}
	return out
}

func find(recs []sim.Record, typ sim.RecordType, value int) *sim.Record {
	for i := range recs {
		if recs[i].Type == typ && int(recs[i].Msg.Value) == value {
			return &recs[i]
		}
	}
	return nil
}

// docs/model.md, Crash: messages in flight to N are lost — dropped on arrival with reason crashed,
// even if N has recovered by then; a message sent after the crash reaches the recovered node.
func TestCrashDropsMessagesInFlight(t *testing.T) {
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			plan := pingPlan{from: 1, to: 2, count: 3, every: 6 * ms}
			recs := pingRun(t, e, 2, plan, fixedDelay(10*ms), true,
				at(5*ms, sim.Crash, 2), at(8*ms, sim.Recover, 2))
			// PING 1 sent at 0 (in flight at the crash); PING 2 sent at 6ms (to a crashed node,
			// arriving after the recovery); PING 3 sent at 12ms.
			d := find(recs, sim.RecDrop, 1)
			if d == nil || d.Reason != network.Crashed || d.At != 10*ms {
				t.Fatalf("PING 1: want dropped at 10ms with reason crashed, got %+v", d)
			}
			if got := pings(recs, sim.RecDeliver); !slices.Equal(got, []int{2, 3}) {
				t.Errorf("delivered %v, want [2 3]", got)
			}
		})
	}
}

// A message in flight to a node that crashes and recovers is lost with the old incarnation even
// if the new one is paused when it arrives: it is dropped at its arrival, not held until the
// node resumes, while a message sent after the recovery is held.
func TestLostDeliveryToPausedNodeIsNotHeld(t *testing.T) {
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			plan := pingPlan{from: 1, to: 2, count: 2, every: 9 * ms}
			recs := pingRun(t, e, 2, plan, fixedDelay(10*ms), true,
				at(5*ms, sim.Crash, 2), at(8*ms, sim.Recover, 2), at(9*ms, sim.Pause, 2), at(30*ms, sim.Resume, 2))
			// PING 1 sent at 0 to the incarnation that crashed at 5ms; PING 2 sent at 9ms.
			if d := find(recs, sim.RecDrop, 1); d == nil || d.Reason != network.Crashed || d.At != 10*ms {
				t.Errorf("PING 1: want dropped at 10ms with reason crashed, got %+v", d)
			}
			if d := find(recs, sim.RecDeliver, 2); d == nil || d.At != 30*ms {
				t.Errorf("PING 2: want delivered at 30ms, on resume, got %+v", d)
			}
		})
	}
}

// docs/model.md, Crash: a message to a node that is still down when it arrives is dropped, reason
// crashed; and a crashed node sends nothing.
func TestCrashedReceiverAndSender(t *testing.T) {
	plan := pingPlan{from: 1, to: 2, count: 5, every: 10 * ms}
	recs := pingRun(t, sim.Inline, 2, plan, fixedDelay(1*ms), true, at(15*ms, sim.Crash, 2), at(35*ms, sim.Crash, 1))
	if got := pings(recs, sim.RecDeliver); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("delivered %v, want [1 2]", got)
	}
	if got := pings(recs, sim.RecDrop); !slices.Equal(got, []int{3, 4}) {
		t.Errorf("dropped %v, want [3 4] (PING 5 is never sent: its sender crashed)", got)
	}
	if got := pings(recs, sim.RecSend); !slices.Equal(got, []int{1, 2, 3, 4}) {
		t.Errorf("sent %v, want [1 2 3 4]", got)
	}
}

// docs/model.md, Pause: a paused node handles nothing; deliveries and timers due meanwhile wait and
// are handled in their original order on resume.
func TestPauseHoldsInputsInOrder(t *testing.T) {
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			plan := pingPlan{from: 1, to: 2, count: 20, every: 2 * ms, tick: 30 * ms}
			recs := pingRun(t, e, 2, plan, network.Delay{Min: 1 * ms, Max: 3 * ms}, true,
				at(10*ms, sim.Pause, 2), at(100*ms, sim.Resume, 2))
			var order []string
			for _, r := range recs {
				if r.At < 10*ms || r.At > 100*ms {
					continue
				}
				switch {
				case r.Type == sim.RecDeliver && r.Msg.To == 2:
					if r.At != 100*ms {
						t.Errorf("PING %d delivered at %v while node 2 was paused", r.Msg.Value, r.At)
					}
					order = append(order, "PING")
				case r.Type == sim.RecTimer && r.Node == 2:
					if r.At != 100*ms {
						t.Errorf("timer %s of node 2 fired at %v while it was paused", r.Timer, r.At)
					}
					order = append(order, "tick")
				}
			}
			got := pings(recs, sim.RecDeliver)
			want := make([]int, 20)
			for i := range want {
				want[i] = i + 1
			}
			if !slices.Equal(got, want) {
				t.Errorf("delivered %v, want 1..20 in order", got)
			}
			// The tick was due at 30ms, after PINGs 1..14 had arrived (the last at ≤ 29ms): it
			// keeps its place among them on resume.
			tick := slices.Index(order, "tick")
			if tick < 0 {
				t.Fatal("the tick due during the pause never fired")
			}
			if before := tick; before < 8 || before > 14 {
				t.Errorf("tick handled after %d held PINGs: %v", before, order)
			}
		})
	}
}

// A message to a paused node is judged when it arrives, not when the node resumes: what its link
// stops then is dropped then, and what gets through is held and handled on resume whatever the
// links are by then. 1 sends PING k to 2 at (k−1)×10ms, each arriving 10ms later; 2 is paused
// from 5ms to 150ms; 2 is cut off from 35ms to 65ms, and again from 120ms on. PINGs 1–3 arrive
// before the first partition and 8–10 after it: all six are handled at 150ms, though a
// partition is in place by then. PING 4, in flight at 35ms, arrives at 40ms inside the
// partition and is dropped at 40ms; 5–7 are dropped as they are sent.
func TestPausedNodesInputsAreJudgedOnArrival(t *testing.T) {
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			plan := pingPlan{from: 1, to: 2, count: 10, every: 10 * ms}
			recs := pingRun(t, e, 2, plan, fixedDelay(10*ms), true,
				at(5*ms, sim.Pause, 2),
				sim.Action{At: 35 * ms, Op: sim.Partition, Groups: [][]algo.ID{{2}, {1}}},
				sim.Action{At: 65 * ms, Op: sim.Heal},
				sim.Action{At: 120 * ms, Op: sim.Partition, Groups: [][]algo.ID{{2}, {1}}},
				at(150*ms, sim.Resume, 2))
			var delivered []int
			for _, r := range recs {
				if r.Type == sim.RecDeliver {
					if r.At != 150*ms {
						t.Errorf("PING %d delivered at %v, want 150ms, on resume", r.Msg.Value, r.At)
					}
					delivered = append(delivered, int(r.Msg.Value))
				}
			}
			if want := []int{1, 2, 3, 8, 9, 10}; !slices.Equal(delivered, want) {
				t.Errorf("delivered %v, want %v: what got through before and after the partition", delivered, want)
			}
			var drops []string
			for _, r := range recs {
				if r.Type == sim.RecDrop || r.Type == sim.RecSend && r.Reason != network.Delivered {
					drops = append(drops, fmt.Sprintf("%s PING %d at %v: %s", r.Type, r.Msg.Value, r.At, r.Reason))
				}
			}
			want := []string{
				"drop PING 4 at 40ms: partition",
				"send PING 5 at 40ms: partition", "send PING 6 at 50ms: partition", "send PING 7 at 60ms: partition",
			}
			if !slices.Equal(drops, want) {
				t.Errorf("drops:\n%s\nwant:\n%s", strings.Join(drops, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// The two runs of issue 16, on Bully: 3 leads and heartbeats every 50ms; 2 is paused from 100ms
// to 300ms. Cut off from 105ms to 150ms, 2 loses the HEARTBEAT arriving at 110ms, then; cut off
// from 200ms on instead, it handles the HEARTBEATs that arrived at 110ms and 160ms at 300ms.
func TestPausedBullyFollowersHeartbeatsAreJudgedOnArrival(t *testing.T) {
	partition := func(d time.Duration) sim.Action {
		return sim.Action{At: d, Op: sim.Partition, Groups: [][]algo.ID{{2}, {1, 3}}}
	}
	heartbeats := func(recs []sim.Record) []string {
		var out []string
		for _, r := range recs {
			if (r.Type == sim.RecDeliver || r.Type == sim.RecDrop) && r.Msg.Kind == "HEARTBEAT" && r.Msg.To == 2 && r.At >= 100*ms {
				out = append(out, strings.TrimSpace(fmt.Sprintf("%s at %v %s", r.Type, r.At, r.Reason)))
			}
		}
		return out
	}
	for _, e := range engines {
		cfg := fixed(t, "bully", 3, 10*ms, e)
		cfg.RunFor = 320 * ms
		cfg.Actions = []sim.Action{at(100*ms, sim.Pause, 2), partition(105 * ms), {At: 150 * ms, Op: sim.Heal}, at(300*ms, sim.Resume, 2)}
		recs, _ := runTrace(t, cfg)
		want := []string{"drop at 110ms partition", "deliver at 300ms", "deliver at 300ms", "deliver at 300ms", "deliver at 310ms"}
		if got := heartbeats(recs); !slices.Equal(got, want) {
			t.Errorf("%s, partition 105–150ms: HEARTBEATs to 2 %q, want %q", e, got, want)
		}
		cfg.Actions = []sim.Action{at(100*ms, sim.Pause, 2), partition(200 * ms), at(300*ms, sim.Resume, 2)}
		recs, _ = runTrace(t, cfg)
		want = []string{"deliver at 300ms", "deliver at 300ms"}
		if got := heartbeats(recs); !slices.Equal(got, want) {
			t.Errorf("%s, partition from 200ms: HEARTBEATs to 2 %q, want %q", e, got, want)
		}
	}
}

// docs/model.md, Send: links are FIFO unless `fifo off` — under random delays a message never
// overtakes an earlier one on the same link; with FIFO off, some do.
func TestFIFOUnderRandomDelays(t *testing.T) {
	plan := pingPlan{from: 1, to: 2, count: 300, every: 1 * ms}
	delay := network.Delay{Min: 1 * ms, Max: 40 * ms}
	for _, e := range engines {
		recs := pingRun(t, e, 2, plan, delay, true)
		got := pings(recs, sim.RecDeliver)
		if len(got) != 300 || !slices.IsSorted(got) {
			t.Errorf("%s, fifo on: %d delivered, sorted=%v", e, len(got), slices.IsSorted(got))
		}
	}
	recs := pingRun(t, sim.Inline, 2, plan, delay, false)
	if got := pings(recs, sim.RecDeliver); slices.IsSorted(got) {
		t.Error("fifo off: no message overtook another over 300 random delays")
	}
}

// docs/model.md, Delay: a delay lowered mid-run must not let a later message overtake one already
// in flight on the same link.
func TestFIFOAcrossDelayChange(t *testing.T) {
	plan := pingPlan{from: 1, to: 2, count: 4, every: 10 * ms}
	lower := sim.Action{At: 15 * ms, Op: sim.SetDelay, Delay: fixedDelay(1 * ms)}
	recs := pingRun(t, sim.Inline, 2, plan, fixedDelay(100*ms), true, lower)
	// PING 1 (0ms) and 2 (10ms) are due at 100 and 110ms; PING 3 (20ms) would arrive at 21ms.
	if got := pings(recs, sim.RecDeliver); !slices.Equal(got, []int{1, 2, 3, 4}) {
		t.Errorf("delivered %v, want [1 2 3 4]", got)
	}
	if r := find(recs, sim.RecDeliver, 3); r == nil || r.At != 110*ms {
		t.Errorf("PING 3 delivered %+v, want at 110ms behind PING 2", r)
	}
	recs = pingRun(t, sim.Inline, 2, plan, fixedDelay(100*ms), false, lower)
	if r := find(recs, sim.RecDeliver, 3); r == nil || r.At != 21*ms {
		t.Errorf("fifo off: PING 3 delivered %+v, want at 21ms", r)
	}
}

// docs/model.md, Cut: `cut A->B` cuts one direction only; heal restores it.
func TestCutIsOneWay(t *testing.T) {
	cut := sim.Action{At: 0, Op: sim.Cut, Link: &network.Link{From: 1, To: 2}}
	heal := sim.Action{At: 25 * ms, Op: sim.Heal}
	there := pingRun(t, sim.Inline, 2, pingPlan{from: 1, to: 2, count: 5, every: 10 * ms}, fixedDelay(1*ms), true, cut, heal)
	back := pingRun(t, sim.Inline, 2, pingPlan{from: 2, to: 1, count: 5, every: 10 * ms}, fixedDelay(1*ms), true, cut, heal)
	var reasons []network.Reason
	for _, r := range there {
		if r.Type == sim.RecSend {
			reasons = append(reasons, r.Reason)
		}
	}
	if want := []network.Reason{network.Cut, network.Cut, network.Cut, 0, 0}; !slices.Equal(reasons, want) {
		t.Errorf("1->2 cut until 25ms: send fates %v, want %v", reasons, want)
	}
	if got := pings(back, sim.RecDeliver); !slices.Equal(got, []int{1, 2, 3, 4, 5}) {
		t.Errorf("2->1 is not cut: delivered %v", got)
	}
}

// docs/model.md, Partition: links between groups are cut both ways, nodes not named form one more
// group, and a message already in flight across the new partition is dropped on arrival.
func TestPartitionDropsInFlight(t *testing.T) {
	part := sim.Action{At: 5 * ms, Op: sim.Partition, Groups: [][]algo.ID{{1}}}
	heal := sim.Action{At: 45 * ms, Op: sim.Heal}
	recs := pingRun(t, sim.Inline, 3, pingPlan{from: 1, to: 2, count: 6, every: 10 * ms}, fixedDelay(8*ms), true, part, heal)
	d := find(recs, sim.RecDrop, 1)
	if d == nil || d.Reason != network.Partition || d.At != 8*ms {
		t.Errorf("PING 1, in flight at the partition: %+v, want dropped at 8ms (partition)", d)
	}
	var atSend []int
	for _, r := range recs {
		if r.Type == sim.RecSend && r.Reason == network.Partition {
			atSend = append(atSend, int(r.Msg.Value))
		}
	}
	if !slices.Equal(atSend, []int{2, 3, 4, 5}) {
		t.Errorf("dropped at send by the partition: %v, want [2 3 4 5]", atSend)
	}
	if got := pings(recs, sim.RecDeliver); !slices.Equal(got, []int{6}) {
		t.Errorf("delivered %v, want [6] after the heal", got)
	}
	// Inside a group, links stay open: 2 and 3 are both unnamed.
	recs = pingRun(t, sim.Inline, 3, pingPlan{from: 2, to: 3, count: 3, every: 10 * ms}, fixedDelay(8*ms), true, part)
	if got := pings(recs, sim.RecDeliver); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("2->3 inside the unnamed group: delivered %v", got)
	}
}

// docs/model.md, Drop: a loss probability drops at send with reason loss; per link it overrides.
func TestLoss(t *testing.T) {
	all := sim.Action{At: 0, Op: sim.SetDrop, Drop: 100}
	recs := pingRun(t, sim.Inline, 2, pingPlan{from: 1, to: 2, count: 10, every: ms}, fixedDelay(ms), true, all)
	for _, r := range recs {
		if r.Type == sim.RecSend && r.Reason != network.Loss {
			t.Fatalf("drop 100%%: %+v was not lost", r)
		}
	}
	other := sim.Action{At: 0, Op: sim.SetDrop, Link: &network.Link{From: 2, To: 1}, Drop: 100}
	recs = pingRun(t, sim.Inline, 2, pingPlan{from: 1, to: 2, count: 10, every: ms}, fixedDelay(ms), true, other)
	if got := len(pings(recs, sim.RecDeliver)); got != 10 {
		t.Errorf("drop 2->1 100%% lost messages on 1->2: %d of 10 delivered", got)
	}
}

// docs/model.md, Boot: actions at 0ms take effect before boot — a node crashed at 0 never starts,
// a node paused at 0 boots when it resumes.
func TestTimeZeroActionsPrecedeBoot(t *testing.T) {
	cfg := fixed(t, "bully", 3, 5*ms, sim.Inline)
	cfg.Actions = []sim.Action{at(0, sim.Crash, 3), at(0, sim.Pause, 2), at(100*ms, sim.Resume, 2)}
	cfg.RunFor = 200 * ms
	recs, _ := runTrace(t, cfg)
	boots := map[algo.ID]time.Duration{}
	for _, r := range recs {
		if r.Type == sim.RecBoot {
			boots[r.Node] = r.At
		}
	}
	if _, ok := boots[3]; ok {
		t.Error("node 3, crashed at 0ms, booted")
	}
	if boots[2] != 100*ms {
		t.Errorf("node 2, paused at 0ms, booted at %v, want at its resume (100ms)", boots[2])
	}
	if recs[0].Type != sim.RecFault || recs[0].Action.Op != sim.Crash {
		t.Errorf("first record %+v, want the crash", recs[0])
	}
}

// A fault that cannot apply (crash a crashed node, elect a crashed one, resume a running one,
// heal what is not cut) changes nothing and says why.
func TestNoOpFaultsSayWhy(t *testing.T) {
	cfg := fixed(t, "bully", 3, 5*ms, sim.Inline)
	cfg.Actions = []sim.Action{at(10*ms, sim.Crash, 3), at(20*ms, sim.Crash, 3), at(30*ms, sim.Elect, 3),
		at(40*ms, sim.Resume, 1), at(50*ms, sim.Recover, 1), {At: 60 * ms, Op: sim.Heal},
		{At: 70 * ms, Op: sim.Heal, Link: &network.Link{From: 1, To: 2}},
		{At: 80 * ms, Op: sim.Partition, Groups: [][]algo.ID{{1}, {2, 3}}},
		{At: 90 * ms, Op: sim.Heal, Link: &network.Link{From: 1, To: 2}}}
	cfg.RunFor = 100 * ms
	recs, _ := runTrace(t, cfg)
	want := map[time.Duration]string{
		20 * ms: "node 3 is already crashed",
		30 * ms: "node 3 is crashed and cannot elect",
		40 * ms: "node 1 is not paused",
		50 * ms: "node 1 is not crashed",
		60 * ms: "no partition and no cut link: nothing to heal",
		70 * ms: "the link 1->2 is not cut: nothing to heal",
		90 * ms: "the link 1->2 is not cut: nothing to heal (the partition is what blocks it: heal without a link ends it)",
	}
	for _, r := range recs {
		if r.Type == sim.RecFault {
			if w, ok := want[r.At]; ok {
				if r.Note != w {
					t.Errorf("at %v: note %q, want %q", r.At, r.Note, w)
				}
				delete(want, r.At)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("missing fault records: %v", want)
	}
}

// A run whose virtual time stops passing ends, and says so, instead of hanging.
func TestStalledRunEnds(t *testing.T) {
	cfg := sim.DefaultConfig(looperInfo(), 2)
	cfg.Network.Delay = fixedDelay(0)
	cfg.Engine = sim.Inline
	cfg.StallSteps = 10_000
	sum := run(t, cfg)
	if !strings.Contains(sum.Halted, "10000 steps went by without virtual time passing") || sum.End != 0 || sum.Steps != 10_001 {
		t.Errorf("halted %q at %v after %d steps", sum.Halted, sum.End, sum.Steps)
	}
	cfg.StallSteps = 0 // the default, for a run that is not stuck
	cfg.Algorithm = lookup(t, "bully")
	if sum := run(t, cfg); sum.Halted != "" || sum.End != cfg.RunFor {
		t.Errorf("a healthy run halted: %q at %v", sum.Halted, sum.End)
	}
}

// A run that would schedule more events than memory holds ends early and says why, instead of
// running out of memory: Bully among 500 nodes puts 124,750 ELECTIONs in flight at once.
func TestOverfullRunEnds(t *testing.T) {
	cfg := fixed(t, "bully", 500, 5*ms, sim.Inline)
	cfg.RunFor = 100 * ms
	cfg.MaxScheduled = 100_000
	sum := run(t, cfg)
	if !strings.Contains(sum.Halted, "more than 100000 events") || sum.End != 0 {
		t.Errorf("halted %q at %v", sum.Halted, sum.End)
	}
}

// A node crashed and recovered at 0ms boots once: the recovery starts it, and the boot it was
// due is skipped. (Regression: it used to start twice, with the first incarnation's timers.)
func TestCrashRecoverAtZeroBootsOnce(t *testing.T) {
	cfg := fixed(t, "bully", 3, 10*ms, sim.Inline)
	cfg.Actions = []sim.Action{at(0, sim.Crash, 3), at(0, sim.Recover, 3)}
	cfg.RunFor = 300 * ms
	recs, sum := runTrace(t, cfg)
	starts := 0
	for _, r := range recs {
		if r.Node == 3 && (r.Type == sim.RecBoot || r.Type == sim.RecState && r.Old == sim.Crashed && r.New != sim.Crashed) {
			starts++
		}
	}
	base := fixed(t, "bully", 3, 10*ms, sim.Inline)
	base.RunFor = cfg.RunFor
	plain := run(t, base)
	if starts != 1 {
		t.Errorf("node 3 started %d times", starts)
	}
	// Started twice, it would heartbeat twice as often: two heartbeat timers.
	if got, _, _ := sum.Count("HEARTBEAT"); got != mustCount(plain, "HEARTBEAT") {
		t.Errorf("HEARTBEAT sent %d times, want %d as without the faults", got, mustCount(plain, "HEARTBEAT"))
	}
}

// Held inputs come first on resume, before anything else due at that instant: a node paused
// from 0 and resumed just as a message reaches it boots first. (Regression: the message came
// first, to a node that had never booted.)
func TestResumeAtADeliveryBootsFirst(t *testing.T) {
	for _, name := range []string{"bully", "lowest-id", "ring"} {
		for _, e := range engines {
			cfg := fixed(t, name, 3, 10*ms, e)
			cfg.Actions = []sim.Action{at(0, sim.Pause, 2), at(10*ms, sim.Resume, 2), at(10*ms, sim.Elect, 2)}
			cfg.RunFor = 500 * ms
			recs, _ := runTrace(t, cfg)
			var order []sim.RecordType
			for _, r := range recs {
				if r.At == 10*ms && (r.Type == sim.RecBoot && r.Node == 2 || r.Type == sim.RecDeliver && r.Msg.To == 2) {
					order = append(order, r.Type)
				}
			}
			if len(order) == 0 || order[0] != sim.RecBoot {
				t.Errorf("%s/%s: at the resume, node 2 saw %v; want its boot first", name, e, order)
			}
		}
	}
}

// Agreement is judged at the end of a run: while it runs, no leader yet is no violation.
func TestSummaryMidRunReportsNoAgreementViolation(t *testing.T) {
	cfg := fixed(t, "bully", 3, 10*ms, sim.Inline)
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Step()
	sum := s.Summary()
	if len(sum.Violations) != 0 {
		t.Errorf("violations mid-run: %v", sum.Violations)
	}
	if p, _ := sum.Property(sim.Agreement); p.Holds {
		t.Error("agreement holds before anyone has a leader")
	}
}

// An error about parameters does not depend on map order.
func TestUnknownParamsErrorIsStable(t *testing.T) {
	cfg := fixed(t, "bully", 3, 10*ms, sim.Inline)
	cfg.Params = algo.Params{"zeta": {}, "alpha": {}, "mid": {}}
	for range 20 {
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), `"alpha"`) {
			t.Fatalf("Validate: %v, want the first unknown key in order, alpha", err)
		}
	}
}

func mustCount(sum sim.Summary, kind string) int64 {
	sent, _, _ := sum.Count(kind)
	return sent
}

// A cut drops what is in flight on the link when it arrives, like a partition: PING 1 is sent
// at 0, the link 1->2 is cut at 5ms, and PING 1 is lost at 8ms, reason cut.
func TestCutDropsInFlight(t *testing.T) {
	cut := sim.Action{At: 5 * ms, Op: sim.Cut, Link: &network.Link{From: 1, To: 2}}
	recs := pingRun(t, sim.Inline, 2, pingPlan{from: 1, to: 2, count: 1, every: 10 * ms}, fixedDelay(8*ms), true, cut)
	if d := find(recs, sim.RecDrop, 1); d == nil || d.Reason != network.Cut || d.At != 8*ms {
		t.Errorf("PING 1, in flight at the cut: %+v, want dropped at 8ms (cut)", d)
	}
	if got := pings(recs, sim.RecDeliver); len(got) != 0 {
		t.Errorf("delivered %v through a cut link", got)
	}
}

// A heal that ends something says what: the partition, each cut link.
func TestHealSaysWhatItEnds(t *testing.T) {
	cfg := fixed(t, "bully", 3, 5*ms, sim.Inline)
	cfg.Actions = []sim.Action{
		{At: 10 * ms, Op: sim.Cut, Link: &network.Link{From: 3, To: 1}},
		{At: 10 * ms, Op: sim.Cut, Link: &network.Link{From: 1, To: 2}},
		{At: 20 * ms, Op: sim.Heal},
		{At: 30 * ms, Op: sim.Partition, Groups: [][]algo.ID{{1}, {2, 3}}},
		{At: 40 * ms, Op: sim.Heal},
	}
	cfg.RunFor = 50 * ms
	recs, _ := runTrace(t, cfg)
	want := map[time.Duration]string{
		20 * ms: "the link 1->2 carries messages again; the link 3->1 carries messages again",
		40 * ms: "the partition ends",
	}
	for _, r := range recs {
		if r.Type == sim.RecFault && r.Action.Op == sim.Heal {
			if r.Note != want[r.At] {
				t.Errorf("heal at %v: note %q, want %q", r.At, r.Note, want[r.At])
			}
			delete(want, r.At)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing heals: %v", want)
	}
}

// A node that panics ends the run: the step it panicked in is not over — what it sent is still
// to go out — so a later Step or RunUntil panics saying the run cannot go on, rather than send
// the dead call's messages under the next node's name.
func TestRunGoesNoFurtherAfterANodePanics(t *testing.T) {
	for _, e := range engines {
		for _, bulk := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/RunUntil=%v", e, bulk), func(t *testing.T) {
				info := &algo.Info{Name: "panicker", Kinds: []string{"PING"},
					New: func(id algo.ID, c *algo.Cluster) algo.Node { return &panicker{id: id} }}
				cfg := sim.DefaultConfig(info, 3)
				cfg.Engine = e
				s, err := sim.New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				advance := func() {
					if bulk {
						s.RunUntil(time.Second)
					} else {
						s.Step()
					}
				}
				first := catch(advance)
				if first == nil || !strings.Contains(fmt.Sprint(first), "node 1 boots and panics") {
					t.Fatalf("the first step panicked with %v, want node 1's panic", first)
				}
				if again := catch(advance); again == nil || !strings.Contains(fmt.Sprint(again), "this run cannot go on") {
					t.Fatalf("the step after panicked with %v, want 'this run cannot go on'", again)
				}
			})
		}
	}
}

// panicker: node 1 sends node 3 a PING as it boots, then panics.
type panicker struct{ id algo.ID }

func (n *panicker) Start(env algo.Env) {
	if n.id == 1 {
		env.Send(3, algo.Message{Kind: "PING"})
		panic("node 1 boots and panics")
	}
}
func (n *panicker) Receive(env algo.Env, m algo.Message) {}
func (n *panicker) Timer(env algo.Env, name string)      {}
func (n *panicker) Elect(env algo.Env)                   {}
func (n *panicker) State() algo.State                    { return algo.State{} }
func (n *panicker) Clone() algo.Node                     { c := *n; return &c }
func (n *panicker) AppendState(b []byte, _ time.Duration) []byte {
	return fmt.Appendf(b, "%d;", n.id)
}

// catch runs f and returns what it panicked with, or nil.
func catch(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}
