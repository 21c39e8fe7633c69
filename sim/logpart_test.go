package sim_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// relay is a test algorithm whose messages carry a log (algo.Message.Log): node 1 starts a PASS
// with one entry; each node that receives it keeps the entries and, while they are fewer than
// six, passes them on to the next node round the ring with one more.
type relay struct {
	id  algo.ID
	c   *algo.Cluster
	log []algo.Entry
}

func (r *relay) Start(env algo.Env) {
	if r.id == r.c.Ring[0] {
		r.pass(env, &algo.LogPart{Entries: []algo.Entry{{Index: 1, Term: 1, Value: 10}}})
	}
}

func (r *relay) pass(env algo.Env, l *algo.LogPart) {
	ring := r.c.Ring
	env.Send(ring[(r.c.RingPos(r.id)+1)%len(ring)], algo.Message{Kind: "PASS", Log: l})
}

func (r *relay) Receive(env algo.Env, m algo.Message) {
	r.log = slices.Clone(m.Log.Entries)
	if len(r.log) >= 6 {
		return
	}
	n := uint64(len(r.log)) + 1
	next := append(slices.Clone(r.log), algo.Entry{Index: n, Term: n, By: r.id, Value: 10 * n})
	r.pass(env, &algo.LogPart{Index: n - 1, IndexTerm: n - 1, Commit: n / 2, Entries: next})
}

func (r *relay) Timer(algo.Env, string) {}
func (r *relay) Elect(algo.Env)         {}
func (r *relay) State() algo.State      { return algo.State{} }
func (r *relay) Clone() algo.Node {
	c := *r
	c.log = slices.Clone(r.log)
	return &c
}

func (r *relay) AppendState(b []byte, _ time.Duration) []byte {
	return (&algo.LogPart{Entries: r.log}).AppendTo(b)
}

func (r *relay) Log() ([]algo.Entry, uint64) { return r.log, 0 }

// shortLogs is a NodeWatcher: it judges that no node holds more than three entries, and names
// the node at the step it takes a fourth.
type shortLogs struct{ broken []algo.ID }

func (w *shortLogs) Sent(algo.Message) (bool, []algo.ID, string) { return false, nil, "" }
func (w *shortLogs) Clone() algo.Watcher                         { return &shortLogs{broken: slices.Clone(w.broken)} }
func (w *shortLogs) AppendState(b []byte) []byte                 { return append(b, byte(len(w.broken))) }

func (w *shortLogs) Stepped(id algo.ID, n algo.Node) (bool, []algo.ID, string) {
	entries, _ := n.(algo.LogHolder).Log()
	if len(entries) > 3 && !slices.Contains(w.broken, id) {
		w.broken = append(w.broken, id)
		return true, []algo.ID{id}, fmt.Sprintf("node %d holds %d entries", id, len(entries))
	}
	return false, nil, ""
}

func relayInfo() *algo.Info {
	return &algo.Info{Name: "relay", Kinds: []string{"PASS"},
		New: func(id algo.ID, c *algo.Cluster) algo.Node { return &relay{id: id, c: c} },
		Monitors: []algo.Monitor{{Property: "short-logs", Help: "no node holds more than three entries",
			Watch: func(*algo.Cluster) algo.Watcher { return &shortLogs{} }}}}
}

// TestLogPartsTravel: a message's log part reaches its receiver as it was sent, on both engines
// and in a copy of the run made while log parts are in flight; the trace shows it; a NodeWatcher
// judges the node at the step it takes its fourth entry.
func TestLogPartsTravel(t *testing.T) {
	var traces [][]byte
	for _, e := range engines {
		cfg := sim.DefaultConfig(relayInfo(), 3)
		cfg.Engine, cfg.RunFor = e, time.Second
		cfg.Network.Delay = network.Delay{Min: 10 * ms, Max: 10 * ms}
		recs, sum := runTrace(t, cfg)
		var got []string
		var trace bytes.Buffer
		for _, r := range recs {
			fmt.Fprintf(&trace, "%d %v %d %s\n", r.Step, r.At, r.Type, r.Msg)
			if r.Type == sim.RecDeliver {
				got = append(got, r.Msg.Log.String())
			}
		}
		traces = append(traces, trace.Bytes())
		want := []string{
			"[entries 1/t1=10]",
			"[at 1/t1, commit 1, entries 1/t1=10 2/t2.2=20]",
			"[at 2/t2, commit 1, entries 1/t1=10 2/t2.2=20 3/t3.3=30]",
			"[at 3/t3, commit 2, entries 1/t1=10 2/t2.2=20 3/t3.3=30 4/t4.1=40]",
			"[at 4/t4, commit 2, entries 1/t1=10 2/t2.2=20 3/t3.3=30 4/t4.1=40 5/t5.2=50]",
			"[at 5/t5, commit 3, entries 1/t1=10 2/t2.2=20 3/t3.3=30 4/t4.1=40 5/t5.2=50 6/t6.3=60]",
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: delivered log parts\n%q\nwant\n%q", e, got, want)
		}
		// The k-th delivery reaches node k mod 3 + 1, 10ms after the one before: node 2 takes its
		// fourth entry with the fourth, node 3 its fifth with the fifth, node 1 its sixth.
		want = []string{"short-logs 40ms: node 2 (node 2 holds 4 entries)",
			"short-logs 50ms: node 3 (node 3 holds 5 entries)", "short-logs 60ms: node 1 (node 1 holds 6 entries)"}
		if vs := shortLogViolations(sum); !slices.Equal(vs, want) {
			t.Fatalf("%s: violations %q, want %q", e, vs, want)
		}
	}
	if !bytes.Equal(traces[0], traces[1]) {
		t.Fatalf("the engines' traces differ:\n%s\n%s", traces[0], traces[1])
	}
}

// TestLogPartsInACopy: a copy made while a log part is in flight delivers it, and its state
// encodes the log parts in flight, so two runs that differ only there are told apart.
func TestLogPartsInACopy(t *testing.T) {
	for _, e := range engines {
		cfg := sim.DefaultConfig(relayInfo(), 3)
		cfg.Engine, cfg.RunFor = e, time.Second
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for s.Now() < 25*time.Millisecond {
			if _, ok := s.Step(); !ok {
				t.Fatal("the run ended early")
			}
		}
		c := s.Clone()
		a, b := shortLogViolations(s.Run()), shortLogViolations(c.Run())
		if !slices.Equal(a, b) || len(a) != 3 {
			t.Fatalf("%s: the run and its copy differ: %q / %q", e, a, b)
		}
		s.Close()
		c.Close()
	}
	// Two runs whose only difference is an entry's value in flight.
	state := func(v uint64) []byte {
		info := relayInfo()
		info.New = func(id algo.ID, c *algo.Cluster) algo.Node { return &relayFrom{relay{id: id, c: c}, v} }
		cfg := sim.DefaultConfig(info, 3)
		cfg.Engine = sim.Inline
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for s.Steps() < 3 { // the three boots: node 1's PASS is in flight
			s.Step()
		}
		return s.AppendState(nil)
	}
	if bytes.Equal(state(10), state(11)) {
		t.Fatal("runs that differ only in a log part in flight encode alike")
	}
}

func shortLogViolations(sum sim.Summary) []string {
	var vs []string
	for _, v := range sum.Violations {
		if v.Property == "short-logs" {
			vs = append(vs, v.String())
		}
	}
	return vs
}

// relayFrom is relay whose first entry holds value v.
type relayFrom struct {
	relay
	v uint64
}

func (r *relayFrom) Start(env algo.Env) {
	if r.id == r.c.Ring[0] {
		r.pass(env, &algo.LogPart{Entries: []algo.Entry{{Index: 1, Term: 1, Value: r.v}}})
	}
}

func (r *relayFrom) Clone() algo.Node {
	c := *r
	c.log = slices.Clone(r.log)
	return &c
}
