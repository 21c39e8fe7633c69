package algo_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"electsim/algo"
	"electsim/algo/algotest"
	"electsim/network"
	"electsim/scenarios"
	"electsim/sim"
	"electsim/sim/check"
	"electsim/sim/explore"
)

const ms = time.Millisecond

// Paxos keeps what it declares: copies and encodings, both engines alike, every fault class
// survived, its rows of the matrix, a leader every node names (algotest.Algorithm).
func TestPaxosConforms(t *testing.T) {
	algotest.Algorithm(t, paxos(t), 10)
}

func paxos(t testing.TB) *algo.Info {
	t.Helper()
	info, err := algo.Lookup("paxos")
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// An election nobody contests, 5 nodes, every message 10ms, node 1 asked to stand at 0ms:
// n−1 PREPAREs and n−1 PROMISEs, leader at 20ms (two promises and its own are 3 of 5); then at
// 20ms and every 100ms an ACCEPT to each of the n−1 others, each answered, and once a write is
// chosen a CHOSEN to each — 8 slots, so 8 rounds of CHOSEN, and 10 of ACCEPT in a second.
func TestPaxosUncontestedElectionCounts(t *testing.T) {
	cfg := sim.DefaultConfig(paxos(t), 5)
	cfg.Network.Delay = network.Delay{Min: 10 * ms, Max: 10 * ms}
	cfg.RunFor, cfg.Engine = time.Second, sim.Inline
	cfg.Actions = []sim.Action{{At: 0, Op: sim.Elect, Nodes: []algo.ID{1}}}
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum := s.Run()
	want := map[string]int64{algo.KindPrepare: 4, algo.KindPromise: 4, algo.KindNack: 0,
		algo.KindPaxosAccept: 40, algo.KindAccepted: 40, algo.KindChosen: 32}
	for kind, n := range want {
		if sent, _, _ := sum.Count(kind); sent != n {
			t.Errorf("%s sent %d, want %d", kind, sent, n)
		}
	}
	if sum.Leader != 1 || sum.FirstLeader != 30*ms {
		t.Errorf("leader %d agreed at %s, want 1 at 30ms", sum.Leader, sum.FirstLeader)
	}
}

// deafProposer is Paxos whose proposer ignores the proposals PROMISEs carry — a test-only broken
// variant: a new leader that does not learn what may have been chosen before its ballot.
type deafProposer struct{ *algo.Paxos }

func (d deafProposer) Receive(env algo.Env, m algo.Message) {
	if m.Kind == algo.KindPromise {
		m.Log = nil
	}
	d.Paxos.Receive(env, m)
}

func (d deafProposer) Clone() algo.Node { return deafProposer{d.Paxos.Clone().(*algo.Paxos)} }

func deafPaxos(t testing.TB) *algo.Info {
	info := *paxos(t)
	info.New = func(id algo.ID, c *algo.Cluster) algo.Node { return deafProposer{algo.NewPaxos(id, c)} }
	return &info
}

// consensus-safety catches a real violation. With proposers that ignore what PROMISEs carry, one
// fault is enough, on 3 nodes, every message 10ms: the explorer finds the shortest schedule, 24
// steps — the link from 3 to 1 cut at boot, 3 leads ballot 3 and gets 301 chosen by 2 and
// itself; 1, hearing nothing from 3, stands with ballot 4, and 2's promise carries 301, which
// 1 ignores: it proposes its own 101, and 2 accepts it — a second value chosen for slot 1. The
// random checker finds one too. Paxos itself holds within the same bounds.
func TestConsensusSafetyCatchesADeafProposer(t *testing.T) {
	opts := explore.Options{Faults: check.Partition, Budget: 1, Property: algo.PropConsensusSafety,
		Delays: []time.Duration{10 * ms}, MaxTerm: 6, TermBound: true, Depth: 200}
	opts.Base = sim.DefaultConfig(deafPaxos(t), 3)
	opts.Base.Params = algo.Params{"slots": {Count: 1}}
	x, err := explore.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	res := x.Run(nil)
	cx := res.Counterexample
	if cx == nil {
		t.Fatalf("the deaf proposer holds consensus-safety: %+v", res)
	}
	want := "consensus-safety 360ms: nodes 1 2 3 (slot 1: 301 was chosen in ballot 3 (accepted by 2 and 3), and now 101 in ballot 4 (accepted by 1 and 2))"
	if cx.Violation.String() != want || cx.Steps != 24 || len(cx.Faults) != 1 || cx.Faults[0].String() != "cut 3->1" {
		t.Errorf("%s after %d steps, faults %v; want %s after 24, cut 3->1", cx.Violation, cx.Steps, cx.Faults, want)
	}
	if res.Generated != 1632 || res.Distinct != 1226 {
		t.Errorf("%d states generated, %d distinct; want 1,632 and 1,226", res.Generated, res.Distinct)
	}
	// Replayed as a run, it breaks the property the same way.
	rs, err := sim.New(cx.Config)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := brokenIn(rs.Run(), algo.PropConsensusSafety); !ok || v.Detail != cx.Violation.Detail {
		t.Errorf("the replay: %v, want %s", v, cx.Violation)
	}

	opts.Base.Algorithm = paxos(t)
	x, err = explore.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if res := x.Run(nil); res.Counterexample != nil || !res.Exhausted {
		t.Errorf("Paxos itself within the same bounds: %+v", res)
	}

	base := sim.DefaultConfig(deafPaxos(t), 3)
	base.Engine = sim.Inline
	c, err := check.New(check.Options{Base: base, Faults: check.Partition, Property: algo.PropConsensusSafety, Runs: 300, StopAfter: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res := c.Run(nil); res.Failed == 0 {
		t.Errorf("300 random partitions: the deaf proposer held consensus-safety")
	}
}

func brokenIn(sum sim.Summary, property string) (sim.Violation, bool) {
	for _, v := range sum.Violations {
		if v.Property == property {
			return v, true
		}
	}
	return sim.Violation{}, false
}

// chosenSpy judges, from the messages alone, whether any value was chosen: an ACCEPT of ballot b
// says its sender's acceptor took its entries in b; an ACCEPTED of b up to slot k says its
// sender took the entries of b up to k. A slot taken by a majority in one ballot is chosen:
// the spy reports it. It is independent of Paxos' own monitor, which judges the acceptors.
type chosenSpy struct {
	majority int
	takers   map[[2]uint64][]algo.ID // (ballot, slot) → who took it
	slots    map[uint64][]uint64     // ballot → the slots its ACCEPTs carried
	chosen   bool
}

func (s *chosenSpy) Sent(m algo.Message) (bool, []algo.ID, string) {
	take := func(b, slot uint64, who algo.ID) {
		k := [2]uint64{b, slot}
		if !slices.Contains(s.takers[k], who) {
			s.takers[k] = append(s.takers[k], who)
		}
	}
	switch {
	case m.Kind == algo.KindPaxosAccept && m.Log != nil:
		for _, e := range m.Log.Entries {
			s.slots[m.Term] = append(s.slots[m.Term], e.Index)
			take(m.Term, e.Index, m.From)
		}
	case m.Kind == algo.KindAccepted && m.Log != nil:
		for _, slot := range s.slots[m.Term] {
			if slot <= m.Log.Index {
				take(m.Term, slot, m.From)
			}
		}
	}
	for k, who := range s.takers {
		if len(who) >= s.majority && !s.chosen {
			s.chosen = true
			return true, who, fmt.Sprintf("slot %d chosen in ballot %d", k[1], k[0])
		}
	}
	return false, nil, ""
}

func (s *chosenSpy) Clone() algo.Watcher         { panic("the spy is not copied") }
func (s *chosenSpy) AppendState(b []byte) []byte { panic("the spy is not fingerprinted") }
func newChosenSpy(c *algo.Cluster) algo.Watcher {
	return &chosenSpy{majority: len(c.Sorted)/2 + 1, takers: map[[2]uint64][]algo.ID{}, slots: map[uint64][]uint64{}}
}

// The duelling proposers' scenarios say "nothing chosen" and "a value chosen" with the CHOSEN
// messages a leader sends when it learns a value is chosen. A spy that judges from the ACCEPTs
// and ACCEPTEDs alone agrees: in paxos-duel-no-backoff no value is chosen in the whole run; in
// paxos-duel-backoff one is, at 340ms.
func TestPaxosDuelChoosesNothingWithoutBackoff(t *testing.T) {
	for _, tt := range []struct {
		name   string
		chosen string // the spy's verdict, "" for none
	}{
		{"paxos-duel-no-backoff", ""},
		{"paxos-duel-backoff", "nothing-chosen 330ms: nodes 1 2 (slot 1 chosen in ballot 2)"},
	} {
		sc, err := scenarios.LoadBundled(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		cfg := sc.Config()
		info := *cfg.Algorithm
		info.Monitors = append(slices.Clone(info.Monitors), algo.Monitor{Property: "nothing-chosen", Watch: newChosenSpy})
		cfg.Algorithm, cfg.Engine = &info, sim.Inline
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sum, results := scenarios.Play(s, sc.Expects, nil)
		for _, r := range results {
			if !r.OK {
				t.Errorf("%s: %s failed: %s", tt.name, r.Expectation, r.Detail)
			}
		}
		v, ok := brokenIn(sum, "nothing-chosen")
		if got := ""; ok {
			got = v.String()
			if got != tt.chosen {
				t.Errorf("%s: the spy says %q, want %q", tt.name, got, tt.chosen)
			}
		} else if tt.chosen != "" {
			t.Errorf("%s: the spy saw nothing chosen, want %q", tt.name, tt.chosen)
		}
	}
}

// The leader cut off in paxos-partitioned-leader keeps proposing and gets nothing chosen: from
// the partition to the heal it sends ACCEPTs every 100ms and not one CHOSEN.
func TestPaxosCutOffLeaderChoosesNothing(t *testing.T) {
	sc, err := scenarios.LoadBundled("paxos-partitioned-leader")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.Engine, cfg.Trace = sim.Inline, true
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	accepts, chosen := 0, 0
	for {
		st, ok := s.Step()
		if !ok {
			break
		}
		for _, r := range st.Records {
			if r.Type != sim.RecSend || r.Msg.From != 5 || r.At < 700*ms || r.At >= 2000*ms {
				continue
			}
			switch r.Msg.Kind {
			case algo.KindPaxosAccept:
				accepts++
			case algo.KindChosen:
				chosen++
			}
		}
	}
	if accepts != 13*4 || chosen != 0 {
		t.Errorf("node 5 cut off sent %d ACCEPTs and %d CHOSENs; want 52 (13 rounds to 4 nodes) and none", accepts, chosen)
	}
}
