package sim_test

import (
	"encoding/binary"
	"fmt"
	"slices"
	"testing"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// namer is a test algorithm whose message kinds and timer names are made while it runs, not
// constants, as an algorithm is free to make them: node 1 sends node 2 a PING (declared) and an
// EXTRA (not declared), and sets six timers, t0 after 1ms … t5 after 6ms, cancelling t1 and t4.
// Node 2 notes every kind it receives; node 1 every timer that fires.
type namer struct {
	id    algo.ID
	got   *[]string
	fired *[]string
}

func namerInfo(got, fired *[]string) *algo.Info {
	return &algo.Info{Name: "namer", Kinds: []string{"PING"},
		New: func(id algo.ID, c *algo.Cluster) algo.Node { return &namer{id: id, got: got, fired: fired} }}
}

// made returns s as a string of its own, not the constant it was written as.
func made(s string) string { return string([]byte(s)) }

func (n *namer) Start(env algo.Env) {
	if n.id != 1 {
		return
	}
	env.Send(2, algo.Message{Kind: made("PING"), Value: 1})
	env.Send(2, algo.Message{Kind: made("EXTRA"), Value: 2})
	env.Send(2, algo.Message{Kind: made("PING"), Value: 3})
	for i := range 6 {
		env.SetTimer(fmt.Sprintf("t%d", i), time.Duration(i+1)*time.Millisecond)
	}
	env.CancelTimer(made("t1"))
	env.CancelTimer(made("t4"))
}
func (n *namer) Receive(env algo.Env, m algo.Message) {
	*n.got = append(*n.got, fmt.Sprintf("%s(%d)", m.Kind, m.Value))
}
func (n *namer) Timer(env algo.Env, name string) { *n.fired = append(*n.fired, name) }
func (n *namer) Elect(env algo.Env)              {}
func (n *namer) State() algo.State               { return algo.State{} }
func (n *namer) Clone() algo.Node                { c := *n; return &c } // what it records is the test's
func (n *namer) AppendState(b []byte, _ time.Duration) []byte {
	return binary.AppendVarint(b, int64(n.id))
}

// Kinds and timer names are matched by what they say, not where they are kept; a kind the
// algorithm did not declare is counted under its own name; a node's timers beyond the four its
// record keeps fire and cancel each on its own — on both engines.
func TestNamesMadeAtRunTime(t *testing.T) {
	for _, e := range []sim.Engine{sim.Inline, sim.Goroutine} {
		var got, fired []string
		cfg := sim.DefaultConfig(namerInfo(&got, &fired), 2)
		cfg.Engine, cfg.Network.Delay, cfg.RunFor = e, fixedDelay(10*ms), 100*ms
		recs, sum := runTrace(t, cfg)
		if want := []string{"PING(1)", "EXTRA(2)", "PING(3)"}; !slices.Equal(got, want) {
			t.Errorf("%s: node 2 received %v, want %v", e, got, want)
		}
		if want := []string{"t0", "t2", "t3", "t5"}; !slices.Equal(fired, want) {
			t.Errorf("%s: timers fired %v, want %v (t1 and t4 cancelled)", e, fired, want)
		}
		counts := map[string]int64{}
		for i, k := range sum.Kinds {
			counts[k] = sum.Sent[i]
		}
		if counts["PING"] != 2 || counts["EXTRA"] != 1 || len(sum.Kinds) != 2 {
			t.Errorf("%s: kinds %v sent %v, want PING 2 and EXTRA 1", e, sum.Kinds, sum.Sent)
		}
		var traced []string
		for _, r := range recs {
			if r.Type == sim.RecDeliver {
				traced = append(traced, r.Msg.Kind)
			}
		}
		if want := []string{"PING", "EXTRA", "PING"}; !slices.Equal(traced, want) {
			t.Errorf("%s: traced deliveries %v, want %v", e, traced, want)
		}
	}
}

// Step reports a break as such, and only the break.
func TestStepReportsBreaks(t *testing.T) {
	cfg := sim.DefaultConfig(lookup(t, "bully"), 3)
	// Other actions, a say among them, are no breaks.
	cfg.Actions = []sim.Action{{At: 20 * ms, Op: sim.Crash, Nodes: []algo.ID{1}}, {At: 30 * ms, Op: sim.Break},
		{At: 40 * ms, Op: sim.Say, Text: "and now?"}, {At: 50 * ms, Op: sim.Recover, Nodes: []algo.ID{1}}}
	cfg.RunFor = 100 * ms
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var breaks []time.Duration
	for {
		r, ok := s.Step()
		if !ok {
			break
		}
		if r.Break {
			breaks = append(breaks, r.At)
		}
	}
	if !slices.Equal(breaks, []time.Duration{30 * ms}) {
		t.Errorf("steps reported as breaks at %v, want just the one at 30ms", breaks)
	}
}
