package sim_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// leaseRun is Lease on nodes 1..5 with a fixed delay of 10ms: 4 is the lock service, 5 the
// resource, 1–3 the candidates. All three ACQUIRE at 0; the lock service takes 1's first (the
// lowest sender at the same instant), so 1 holds token 1 from 20ms and writes every 50ms. At
// 260ms 1 freezes; its lease, last renewed at 210ms, runs out at the lock service at 520ms, and 2
// or 3 gets token 2. At 900ms 1 wakes, still believing it leads, and writes with token 1.
func leaseRun(t *testing.T, fencing bool) ([]sim.Record, sim.Summary) {
	t.Helper()
	cfg := fixed(t, "lease", 5, 10*ms, sim.Inline)
	cfg.Params = algo.Params{"fencing": {On: fencing}}
	cfg.Actions = []sim.Action{at(260*ms, sim.Pause, 1), at(900*ms, sim.Resume, 1)}
	cfg.RunFor = time.Second
	return runTrace(t, cfg)
}

func property(t *testing.T, sum sim.Summary, name string) sim.Property {
	t.Helper()
	p, ok := sum.Property(name)
	if !ok || !p.Applies {
		t.Fatalf("property %s does not apply to %s: %v", name, sum.Algorithm, sum.Properties)
	}
	return p
}

// Without fencing, the paused holder's write is accepted after the new holder's, and the
// no-stale-write monitor catches it — a real violation, not a constructed one.
func TestLeasePausedHolderWithoutFencing(t *testing.T) {
	recs, sum := leaseRun(t, false)
	if property(t, sum, algo.PropNoStaleWrite).Holds {
		t.Fatalf("no-stale-write holds, want it violated; %s", describeViolations(sum))
	}
	var stale []sim.Violation
	for _, v := range sum.Violations {
		if v.Property == algo.PropNoStaleWrite {
			stale = append(stale, v)
		}
	}
	// 1 wakes at 900ms and writes at once: its write timer fell due while it slept, before its
	// lease ran out by its clock, and fires first. The resource accepts at 910ms.
	if len(stale) != 1 || stale[0].From != 910*ms || !slices.Equal(stale[0].Nodes, []algo.ID{1, 5}) {
		t.Fatalf("stale writes %v, want one at 910ms by 1 at the resource 5", stale)
	}
	// Two believed they led while 1 slept — the lease alone cannot prevent that.
	if property(t, sum, sim.AtMostOneLeader).Holds {
		t.Fatalf("at-most-one-leader holds, want the paused holder and the new one to overlap")
	}
	// But never two holders of the same token.
	if !property(t, sum, sim.OneLeaderPerTerm).Holds {
		t.Fatalf("one-leader-per-term violated: %s", describeViolations(sum))
	}
	if _, _, rejected := sum.Count(algo.KindReject); rejected != 0 {
		t.Fatalf("%d REJECTs dropped", rejected)
	}
	if sent, _, _ := sum.Count(algo.KindReject); sent != 0 {
		t.Fatalf("%d REJECTs without fencing", sent)
	}
	if tokens := termLeaders(recs); len(tokens[1]) != 1 || tokens[1][0] != 1 || len(tokens[2]) != 1 {
		t.Fatalf("token holders %v, want 1 with token 1 and one other with token 2", tokens)
	}
}

// With fencing, the same write is rejected: the monitor sees no stale write.
func TestLeasePausedHolderWithFencing(t *testing.T) {
	recs, sum := leaseRun(t, true)
	if !property(t, sum, algo.PropNoStaleWrite).Holds {
		t.Fatalf("no-stale-write violated with fencing: %s", describeViolations(sum))
	}
	if sent, _, _ := sum.Count(algo.KindReject); sent != 1 {
		t.Fatalf("%d REJECTs, want 1", sent)
	}
	if property(t, sum, sim.AtMostOneLeader).Holds {
		t.Fatalf("at-most-one-leader holds: fencing protects the data, not the belief")
	}
	// 1 stops leading at 900ms, when it wakes and its expire timer fires — right after the
	// write timer that fell due first: a frozen node cannot know its lease ran out while it
	// slept, and the write is already on its way.
	var down time.Duration = -1
	for _, r := range recs {
		if r.Type == sim.RecState && r.Node == 1 && r.Old == sim.Leader {
			down = r.At
		}
	}
	if down != 900*ms {
		t.Fatalf("node 1 stopped leading at %v, want 900ms", down)
	}
}

// drawLeaseRun draws a lease run of 3 s on the inline engine: 3 to 7 nodes, a seed, FIFO or not.
func drawLeaseRun(t *rapid.T) (cfg sim.Config, n int) {
	n = rapid.IntRange(3, 7).Draw(t, "nodes")
	cfg = sim.DefaultConfig(lookup(t, "lease"), n)
	cfg.Seed = rapid.Uint64().Draw(t, "seed")
	cfg.RunFor = 3 * time.Second
	cfg.Network.FIFO = rapid.Bool().Draw(t, "fifo")
	cfg.Engine = sim.Inline
	return cfg, n
}

// Fencing holds over random schedules of every fault, pauses included, and a token is never
// held twice. The seed and schedule of a failure are printed.
func TestLeaseFencingRandomSchedules(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg, n := drawLeaseRun(t)
		cfg.Actions = genSchedule(t, cfg.IDs, cfg.RunFor)
		sum := run(t, cfg)
		for _, name := range []string{algo.PropNoStaleWrite, sim.OneLeaderPerTerm} {
			if p, _ := sum.Property(name); !p.Applies || !p.Holds {
				t.Fatalf("%s: %s\nseed %d, %d nodes, schedule:%s", name, describeViolations(sum), cfg.Seed, n, schedule(cfg.Actions))
			}
		}
	})
}

// Without pauses, a lease keeps at most one leader under every other fault: the holder's lease
// runs from when it asked, so it always runs out, by its own clock, before the lock service's
// copy — as long as the clock keeps running, at the true rate (no clock action: a holder's
// clock that runs slow breaks it, docs/algorithms.md on the lease and clocks). Also after the lock service crashes, since it then
// waits a whole TTL before granting again. Writes stay in token order only with fencing: a
// delay can hold an old holder's write back until after the next holder's (the matrix leaves
// that cell open).
func TestLeaseWithoutPausesAtMostOneLeader(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg, n := drawLeaseRun(t)
		fencing := rapid.Bool().Draw(t, "fencing")
		cfg.Params = algo.Params{"fencing": {On: fencing}}
		for _, a := range genSchedule(t, cfg.IDs, cfg.RunFor) {
			if a.Op != sim.Pause && a.Op != sim.Clock {
				cfg.Actions = append(cfg.Actions, a)
			}
		}
		sum := run(t, cfg)
		props := []string{sim.AtMostOneLeader}
		if fencing {
			props = append(props, algo.PropNoStaleWrite)
		}
		for _, name := range props {
			if p, _ := sum.Property(name); !p.Holds {
				t.Fatalf("%s: %s\nseed %d, %d nodes, params %v, schedule:%s",
					name, describeViolations(sum), cfg.Seed, n, cfg.Params, schedule(cfg.Actions))
			}
		}
	})
}

// The lock service that crashes and recovers forgets who held the lease; its grace period keeps
// it from granting a second lease while the first holder still believes it leads. 1 holds token
// 1 from 20ms, asked at 0ms, so it believes until 300ms at the latest (it cannot renew with the
// service down at 100ms... it can: the service is back at 40ms, and DENYs the renewal). The
// service, back at 40ms, grants nothing before 340ms; 2, asked to elect at 40ms, is DENYed.
func TestLeaseLockServiceRecoveryWaitsATTL(t *testing.T) {
	cfg := fixed(t, "lease", 5, 10*ms, sim.Inline)
	cfg.Actions = []sim.Action{at(30*ms, sim.Crash, 4), at(40*ms, sim.Recover, 4), at(40*ms, sim.Elect, 2)}
	cfg.RunFor = time.Second
	recs, sum := runTrace(t, cfg)
	if !property(t, sum, sim.AtMostOneLeader).Holds {
		t.Fatalf("two leaders after the lock service recovered: %s", describeViolations(sum))
	}
	var grants []string
	for _, r := range recs {
		if r.Type == sim.RecSend && r.Msg.Kind == algo.KindGrant {
			grants = append(grants, fmt.Sprintf("%v→%d token %d", r.At, r.Msg.To, r.Msg.Term))
		}
	}
	if len(grants) < 2 || grants[0] != "10ms→1 token 1" || grants[1] < "340ms" || !strings.HasSuffix(grants[1], "token 2") {
		t.Fatalf("grants %v: want token 1 at 10ms, then nothing before 340ms, then token 2", grants)
	}
}

// A DENY that answers an old request, overtaken by the GRANT of a newer one (links are not FIFO
// here), does not depose the holder: while its lease runs by its own clock nobody else can
// hold one. 1 asks at 100ms and 200ms (its answers are slowed), again at 320ms — granted, token
// 2, leading from 340ms — and the DENY of its 200ms request arrives at 410ms.
func TestLeaseStaleDenyDoesNotDepose(t *testing.T) {
	cfg := fixed(t, "lease", 4, 10*ms, sim.Inline)
	cfg.Network.FIFO = false
	link := &network.Link{From: 3, To: 1}
	cfg.Actions = []sim.Action{
		at(0, sim.Crash, 1), at(100*ms, sim.Recover, 1),
		{At: 105 * ms, Op: sim.SetDelay, Link: link, Delay: network.Delay{Min: 300 * ms, Max: 300 * ms}},
		{At: 111 * ms, Op: sim.SetDelay, Link: link, Delay: network.Delay{Min: 10 * ms, Max: 10 * ms}},
		at(111*ms, sim.Crash, 2),
	}
	cfg.RunFor = 700 * ms
	recs, sum := runTrace(t, cfg)
	var leadFrom, stopped time.Duration = -1, -1
	for _, r := range recs {
		if r.Type == sim.RecState && r.Node == 1 {
			switch {
			case r.New == sim.Leader && leadFrom < 0:
				leadFrom = r.At
			case r.Old == sim.Leader:
				stopped = r.At
			}
		}
	}
	if leadFrom != 340*ms || stopped >= 0 || sum.Leader != 1 {
		t.Fatalf("1 led from %v, stopped at %v, leader at the end %d: want 340ms, never, 1", leadFrom, stopped, sum.Leader)
	}
}

// A candidate that recovers numbers its requests on from its previous life (issue 16): on nodes
// 1..4 (3 the lock service), 1 asks at 0ms over a slow link and crashes at 20ms; the lock
// service grants that ACQUIRE at 40ms, until 340ms. 1 is back at 60ms — its new ACQUIRE lost —
// and the GRANT of the old one arrives at 80ms. Had the new ACQUIRE reused number 1, 1 would
// take that GRANT as its own and lead until 360ms by its clock; 2, granted at 341ms when the
// lock service's lease ran out, would lead beside it from 351ms.
func TestLeaseRecoveredCandidateIgnoresItsPreviousLifesGrant(t *testing.T) {
	for _, e := range []sim.Engine{sim.Inline, sim.Goroutine} {
		cfg := fixed(t, "lease", 4, 10*ms, e)
		cfg.RunFor = 800 * ms
		slow := fixedDelay(40 * ms)
		cfg.Actions = []sim.Action{
			at(0, sim.Crash, 2),
			{Op: sim.SetDelay, Link: &network.Link{From: 1, To: 3}, Delay: slow},
			{Op: sim.SetDelay, Link: &network.Link{From: 3, To: 1}, Delay: slow},
			at(20*ms, sim.Crash, 1),
			{At: 50 * ms, Op: sim.SetDrop, Link: &network.Link{From: 1, To: 3}, Drop: 100},
			at(60*ms, sim.Recover, 1),
			at(331*ms, sim.Recover, 2),
		}
		recs, sum := runTrace(t, cfg)
		if !property(t, sum, sim.AtMostOneLeader).Holds {
			t.Fatalf("%s engine: %s", e, describeViolations(sum))
		}
		for _, r := range recs {
			if r.Type == sim.RecState && r.Node == 1 && r.New == sim.Leader {
				t.Fatalf("%s engine: 1 leads at %v (%s), on a GRANT for its previous life's request", e, r.At, r.Note)
			}
		}
	}
}
