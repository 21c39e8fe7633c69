package sim_test

import (
	"slices"
	"testing"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// one-leader-per-term: two nodes leading the same term is caught, with both nodes; leaders of
// different terms are not a violation of it.
func TestOneLeaderPerTermCatchesTwoLeadersOfATerm(t *testing.T) {
	cfg := sim.DefaultConfig(claimerInfo(map[algo.ID]uint64{1: 7, 3: 7, 2: 8}), 4)
	cfg.RunFor = 10 * ms
	sum := run(t, cfg)
	var got []sim.Violation
	for _, v := range sum.Violations {
		if v.Property == sim.OneLeaderPerTerm {
			got = append(got, v)
		}
	}
	if len(got) != 1 || !slices.Equal(got[0].Nodes, []algo.ID{1, 3}) || got[0].From != 0 {
		t.Fatalf("one-leader-per-term violations %v, want nodes 1 and 3 at 0ms", got)
	}
	if p, _ := sum.Property(sim.OneLeaderPerTerm); !p.Applies || p.Holds {
		t.Errorf("property %+v, want applies and violated", p)
	}
	// Three leaders at once is also an at-most-one-leader violation, open until the end, naming
	// all three.
	if p, _ := sum.Property(sim.AtMostOneLeader); p.Holds {
		t.Error("three simultaneous leaders not caught by at-most-one-leader")
	}
	if i := slices.IndexFunc(sum.Violations, func(v sim.Violation) bool { return v.Property == sim.AtMostOneLeader }); i < 0 ||
		!slices.Equal(sum.Violations[i].Nodes, []algo.ID{1, 2, 3}) {
		t.Errorf("at-most-one-leader violations %v, want nodes 1, 2 and 3", sum.Violations)
	}

	// A leader that moves on to a term another node leads already breaks it too.
	cfg = sim.DefaultConfig(claimerInfo(map[algo.ID]uint64{1: 7, 2: 8}), 4)
	cfg.Actions = []sim.Action{{At: 5 * ms, Op: sim.Elect, Nodes: []algo.ID{1}}}
	cfg.RunFor = 10 * ms
	sum = run(t, cfg)
	if i := slices.IndexFunc(sum.Violations, func(v sim.Violation) bool { return v.Property == sim.OneLeaderPerTerm }); i < 0 ||
		!slices.Equal(sum.Violations[i].Nodes, []algo.ID{1, 2}) || sum.Violations[i].From != 5*ms {
		t.Errorf("one-leader-per-term violations %v, want nodes 1 and 2 at 5ms (1 moved on to term 8)", sum.Violations)
	}

	cfg = sim.DefaultConfig(claimerInfo(map[algo.ID]uint64{1: 7}), 4)
	cfg.RunFor = 10 * ms
	sum = run(t, cfg)
	for _, p := range sum.Properties {
		if p.Name != sim.Agreement && !p.Holds {
			t.Errorf("a single leader of term 7: %s reported violated", p.Name)
		}
	}
}

// one-leader-per-term does not apply to algorithms without terms.
func TestOneLeaderPerTermNeedsTerms(t *testing.T) {
	cfg := fixed(t, "bully", 3, 5*ms, sim.Inline)
	cfg.RunFor = 100 * ms
	sum := run(t, cfg)
	if p, _ := sum.Property(sim.OneLeaderPerTerm); p.Applies {
		t.Error("one-leader-per-term applies to bully, which has no terms")
	}
}

// agreement: at the end every live node names the same live leader; a partitioned Bully
// cluster does not, and the violation says who names whom.
func TestAgreementCatchesAPartition(t *testing.T) {
	cfg := fixed(t, "bully", 5, 5*ms, sim.Inline)
	cfg.Actions = []sim.Action{{At: 100 * ms, Op: sim.Partition, Groups: [][]algo.ID{{1, 2}, {3, 4, 5}}}}
	cfg.RunFor = 1 * 1000 * ms
	sum := run(t, cfg)
	if sum.Leader != 0 {
		t.Errorf("final leader %d across a partition", sum.Leader)
	}
	var agreement *sim.Violation
	for i, v := range sum.Violations {
		if v.Property == sim.Agreement {
			agreement = &sum.Violations[i]
		}
	}
	if agreement == nil {
		t.Fatalf("no agreement violation in %v", sum.Violations)
	}
	if !slices.Equal(agreement.Nodes, []algo.ID{2, 5}) || agreement.Detail != "nodes 1, 2 name 2; nodes 3, 4, 5 name 5" {
		t.Errorf("agreement violation %v", agreement)
	}
	if p, _ := sum.Property(sim.AtMostOneLeader); p.Holds {
		t.Error("two leaders across the partition not caught by at-most-one-leader")
	}
}

// Metrics: time to the first agreed leader, leaderless time and recovery after a leader crash.
func TestLeaderMetrics(t *testing.T) {
	cfg := fixed(t, "bully", 3, 10*ms, sim.Inline)
	cfg.Actions = []sim.Action{at(300*ms, sim.Crash, 3)}
	cfg.RunFor = 1000 * ms
	sum := run(t, cfg)
	// Node 3 leads at boot; 1 and 2 follow when its COORDINATOR arrives (one delay).
	if sum.FirstLeader != 10*ms {
		t.Errorf("first leader at %v, want 10ms", sum.FirstLeader)
	}
	// After the crash at 300ms: the last heartbeat arrived at 260ms, suspicion at 410ms, node 2
	// wins at 460ms (answer-timeout) and node 1 follows at 470ms.
	if len(sum.Recoveries) != 1 || sum.Recoveries[0] != 170*ms {
		t.Errorf("recoveries %v, want [170ms]", sum.Recoveries)
	}
	if sum.Leaderless != 10*ms+170*ms {
		t.Errorf("leaderless %v, want 180ms", sum.Leaderless)
	}
	if sum.Leader != 2 || sum.LeaderChanges != 2 {
		t.Errorf("leader %d after %d changes, want 2 after 2", sum.Leader, sum.LeaderChanges)
	}
}

// UntilLeader ends the run at the end of the first step after which every live node names one
// live leader — not in the middle of a step that agrees for a moment and then does not. Node 1
// claims leadership at boot, node 2 names nobody. Crashing 2 alone leaves 1 agreed: the run
// ends there, at 10ms. Crashing 2 and then 1 in one action agrees after the first and not after
// the second: the run goes on, to node 2's recovery at 500ms and beyond.
func TestUntilLeaderJudgesTheWholeStep(t *testing.T) {
	for _, c := range []struct {
		crash   []algo.ID
		endsAt0 bool // the run ends at the crash
	}{
		{[]algo.ID{2}, true},
		{[]algo.ID{2, 1}, false},
	} {
		cfg := sim.DefaultConfig(claimerInfo(map[algo.ID]uint64{1: 1}), 2)
		cfg.UntilLeader, cfg.RunFor = true, 1000*ms
		cfg.Actions = []sim.Action{at(10*ms, sim.Crash, c.crash...), at(500*ms, sim.Recover, 2)}
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.RunUntil(cfg.RunFor)
		switch {
		case c.endsAt0 && s.Now() != 10*ms:
			t.Errorf("crash %v: the run ended at %v, want at the crash, 10ms", c.crash, s.Now())
		case !c.endsAt0 && s.Now() < 500*ms:
			t.Errorf("crash %v: the run ended at %v, before the recovery at 500ms: a leader agreed for a moment within a step ended it", c.crash, s.Now())
		}
	}
}

// A split brain that lasts no time — 5 resumes believing it leads, and steps down at the same
// instant on hearing 1 — is said in words, not as an interval from 614ms to 614ms; a longer one
// is an interval, and the other properties' violations, events at one time, are a time.
func TestViolationOfNoDurationSaysSo(t *testing.T) {
	cfg := sim.DefaultConfig(lookup(t, "lowest-id"), 5)
	cfg.Seed = 14
	cfg.RunFor = 2 * time.Second
	cfg.Actions = []sim.Action{at(500*ms, sim.Pause, 5), at(614*ms, sim.Resume, 5)}
	sum := run(t, cfg)
	i := slices.IndexFunc(sum.Violations, func(v sim.Violation) bool { return v.Property == sim.AtMostOneLeader })
	if i < 0 || sum.Violations[i].From != 614*ms || sum.Violations[i].To != 614*ms {
		t.Fatalf("violations %v, want at-most-one-leader from 614ms to 614ms", sum.Violations)
	}
	for _, tt := range []struct {
		v    sim.Violation
		want string
	}{
		{sum.Violations[i], "at-most-one-leader for an instant at 614ms: nodes 1 5"},
		{sim.Violation{Property: sim.AtMostOneLeader, From: 1200 * ms, To: 1210 * ms, Nodes: []algo.ID{3, 4}},
			"at-most-one-leader 1200ms–1210ms: nodes 3 4"},
		{sim.Violation{Property: sim.OneLeaderPerTerm, From: 300 * ms, To: 300 * ms, Nodes: []algo.ID{2, 3}, Detail: "both leaders of term 4"},
			"one-leader-per-term 300ms: nodes 2 3 (both leaders of term 4)"},
	} {
		if got := tt.v.String(); got != tt.want {
			t.Errorf("%#v: %q, want %q", tt.v, got, tt.want)
		}
	}
}

// Among many nodes a summary names the first ten of a list and says how many there are: the
// agreement of 20,000 nodes that name no leader is one line, not twenty thousand ids.
func TestLongNodeListsAreCut(t *testing.T) {
	cfg := fixed(t, "bully", 25, 10*ms, sim.Inline)
	cfg.RunFor = 1 * ms
	sum := run(t, cfg)
	i := slices.IndexFunc(sum.Violations, func(v sim.Violation) bool { return v.Property == sim.Agreement })
	if i < 0 {
		t.Fatalf("violations %v, want agreement", sum.Violations)
	}
	want := "nodes 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 … (24 in all) name no leader; node 25 names 25"
	if d := sum.Violations[i].Detail; d != want {
		t.Errorf("agreement: %q, want %q", d, want)
	}
	v := sim.Violation{Property: sim.AtMostOneLeader, From: ms, To: 2 * ms}
	for id := range algo.ID(12) {
		v.Nodes = append(v.Nodes, id+1)
	}
	if got, want := v.String(), "at-most-one-leader 1ms–2ms: nodes 1 2 3 4 5 6 7 8 9 10 … (12 in all)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
