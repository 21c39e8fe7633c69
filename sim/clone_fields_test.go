package sim

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/network"
)

// How Clone treats a field of the run's state.
type treatment uint8

const (
	copied treatment = iota + 1 // the copy has its own: nothing reachable from it is shared
	value                       // copied as it is: its type holds no references
	shared                      // read only once the run is made: the copy shares it
	fresh                       // not copied: the copy makes its own, or has none yet
	byAlgo                      // a node's state: copied by the algorithm's Clone (see algotest)
)

// cloneFields says, for every field of every type a run owns, how Clone treats it. A field
// added to one of these types without a line here fails TestCloneDecidesEveryField: decide, in
// Clone and here.
var cloneFields = map[reflect.Type]map[string]treatment{
	reflect.TypeFor[Sim](): {
		"cfg": shared, "cluster": shared, "edges": shared,
		"net": copied, "netRand": copied, "nodes": copied, "side": copied, "crashes": value, "epochs": copied, "clocks": copied,
		"actions": copied, "mid": copied, "q": copied, "now": value, "steps": value, "done": value, "tracing": value,
		"instant": value, "inputs": value, "inputsAt": value, "stepAfter": value, "halted": value, "elected": value, "sent": value, "phases": value,
		"prefetcher": copied, // the states' addresses, the copy's own nodes'
		"cur":        value,
		"curLog":     shared, // a log part is never changed once sent
		"logs":       copied,
		"records":    fresh, "outbox": fresh, "timerbox": fresh, "notes": fresh, // a step's, empty between steps
		"timerNames": copied, "timerSet": copied, "metrics": copied, "monitor": copied, "chooser": copied,
		"handback": fresh, "holder": fresh, "wg": fresh, // the copy's goroutines', when they start
		"until": value, "stopped": value, "memory": value,
		"haltAction": shared,               // never changed once set
		"panicked":   fresh, "busy": fresh, // Clone refuses a run a node panicked in
	},
	reflect.TypeFor[nodeRec](): {
		"node": byAlgo, "env": fresh, "last": value, "idx": value, "down": value, "paused": value, "_": value,
		"timers": value,
	},
	reflect.TypeFor[nodeEnv](): {"s": fresh, "n": fresh}, // pointing at the copy
	reflect.TypeFor[nodeSide](): {
		// What the goroutine engine hands a node's goroutine: the copy starts the node's goroutine
		// when it first hands it an input.
		"inbox": fresh, "job": fresh, "record": fresh, "baton": fresh, "before": fresh, "replyTo": fresh,
		"more": copied, "held": copied, "rng": copied, "disk": copied,
		"pinned": shared, // only resliced, never written
	},
	reflect.TypeFor[pcgRand](): {"r": copied, "pcg": value},
	reflect.TypeFor[queue](): {
		"heap": copied, "lanes": copied, "slab": copied, "used": value, "free": copied, "seq": value, "n": value,
		"slabBytes": value, "blockBytes": value, // the copy's blocks are of the same sizes
		"spare": fresh, // empty blocks kept for reuse: the copy makes its own
	},
	reflect.TypeFor[lane](): {
		"frontAt": value, "backAt": value, "frontOrd": value, "backOrd": value, "n": value, "head": value,
		"tail": value, "first": copied, "last": copied,
	},
	reflect.TypeFor[keyBlock](): {"next": copied, "keys": copied},
	// The slice of the log parts in flight is the copy's own; the log parts it points to are
	// shared: a log part is never changed once sent.
	reflect.TypeFor[logParts]():   {"parts": shared, "free": copied},
	reflect.TypeFor[prefetcher](): {"states": copied, "lines": fresh, "sink": fresh},
	reflect.TypeFor[metrics](): {
		"kinds": copied, "sent": copied, "delivered": copied, "dropped": copied, "elections": value,
		"leaderChanges": value,
	},
	reflect.TypeFor[monitor](): {
		"s": fresh, "role": shared, "watchers": copied, "nodeWatchers": copied, "leaders": value, "split": copied, "splitTotal": value,
		"termLeader": copied, "live": value, "belief": copied, "agreed": value, "firstAgreed": value,
		"leaderless": value, "leaderlessFrom": value, "leaderCrashedAt": value, "recoveries": copied,
		"violations": copied, "groups": copied,
	},
	reflect.TypeFor[watcher](): {"property": value, "judge": copied},
	reflect.TypeFor[Action](): {"At": value, "After": value, "Op": value, "Delay": value, "Drop": value, "Text": value, "Leader": value, "Rate": value,
		"Nodes": shared, "Groups": shared, "Link": shared}, // an action is never changed once scheduled
	reflect.TypeFor[Violation](): {"Property": value, "From": value, "To": value, "Detail": value, "Nodes": copied},
	reflect.TypeFor[GroupsAt]():  {"At": value, "Before": value, "Groups": copied, "Joining": copied},
	reflect.TypeFor[Group]():     {"Coordinator": value, "Number": value, "Members": copied, "Led": value},
}

// Every field of the types a run owns has a decision; and a field copied as a value holds no
// references, which the copy would share.
func TestCloneDecidesEveryField(t *testing.T) {
	for typ, fields := range cloneFields {
		for i := range typ.NumField() {
			f := typ.Field(i)
			tr, ok := fields[f.Name]
			switch {
			case !ok:
				t.Errorf("%s.%s: Clone has no decision on it: decide in Clone and in cloneFields", typ.Name(), f.Name)
			case tr == value && hasRefs(f.Type):
				t.Errorf("%s.%s is copied as a value, but its type %s holds references the copy would share", typ.Name(), f.Name, f.Type)
			}
		}
		if typ.NumField() != len(fields) {
			t.Errorf("%s has %d fields, cloneFields decides on %d: remove the ones gone", typ.Name(), typ.NumField(), len(fields))
		}
	}
}

// hasRefs reports whether a value of type t refers to memory a copy of it would share.
func hasRefs(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Chan, reflect.Func, reflect.Interface, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return hasRefs(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasRefs(t.Field(i).Type) {
				return true
			}
		}
	}
	return false // strings are never changed in place
}

// A copy of a run in the middle of everything — a split brain under way and one over, a
// leader's crash recovered from, a paused node holding inputs, cuts, per-link delays and losses,
// actions scheduled, more timers than a node's record keeps inline — shares no memory with the
// original beyond what cloneFields calls shared: every slice, map, pointer and channel reached
// from a field it calls copied is the copy's own.
func TestCloneSharesNothing(t *testing.T) {
	for _, name := range append(algo.Names(), "timers") {
		for _, e := range []Engine{Goroutine, Inline} {
			s := busyRun(t, name, e)
			c := s.Clone()
			var found []string
			aliases(&found, "Sim", reflect.ValueOf(s).Elem(), reflect.ValueOf(c).Elem(), 0)
			for _, f := range found {
				t.Errorf("%s/%s: %s", name, e, f)
			}
			c.Close()
			s.Close()
		}
	}
}

// busyRun returns a run of algorithm name (or "timers", sixTimers) stopped where its state is
// as full as it gets.
func busyRun(t *testing.T, name string, e Engine) *Sim {
	t.Helper()
	info := &algo.Info{Name: "timers", Kinds: []string{"PING"}, New: func(id algo.ID, _ *algo.Cluster) algo.Node { return &sixTimers{id: id} }}
	if name != "timers" {
		var err error
		if info, err = algo.Lookup(name); err != nil {
			t.Fatal(err)
		}
	}
	cfg := DefaultConfig(info, 6)
	cfg.Engine, cfg.Trace, cfg.RunFor = e, true, 3*time.Second
	cfg.Network = network.Config{Delay: network.Delay{Min: time.Millisecond, Max: 20 * time.Millisecond}, Drop: 0.02, FIFO: true}
	ms := time.Millisecond
	link := &network.Link{From: 1, To: 2}
	halves := [][]algo.ID{{1, 2, 3}, {4, 5, 6}}
	cfg.Actions = []Action{
		{At: 100 * ms, Op: Partition, Groups: halves},
		{At: 300 * ms, Op: Heal},
		{At: 350 * ms, Op: Crash, Nodes: []algo.ID{6}},
		{At: 700 * ms, Op: Partition, Groups: halves},
		{At: 720 * ms, Op: Recover, Nodes: []algo.ID{6}},
		{At: 750 * ms, Op: Cut, Link: link},
		{At: 760 * ms, Op: SetDelay, Link: link, Delay: network.Delay{Min: 30 * ms, Max: 50 * ms}},
		{At: 770 * ms, Op: SetDrop, Link: &network.Link{From: 2, To: 3}, Drop: 20},
		{At: 780 * ms, Op: Pause, Nodes: []algo.ID{2}},
	}
	if !info.Recovers {
		// An algorithm that elects once is quiet by 780ms: pause node 2 in its election.
		cfg.Actions[len(cfg.Actions)-1].At = 5 * ms
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(1100 * ms)
	if err := s.Schedule(Action{At: 1200 * ms, Op: Resume, Nodes: []algo.ID{2}}); err != nil {
		t.Fatal(err)
	}
	if s.side == nil || len(s.side[1].held) == 0 {
		t.Fatalf("%s: node 2 holds nothing: the run is not busy enough to show a shallow copy", name)
	}
	if name == "bully" && (s.monitor.split == nil || len(s.monitor.violations) == 0 || len(s.monitor.recoveries) == 0) {
		t.Fatalf("bully: split %v, violations %v, recoveries %v: want a split brain under way, one over and a recovery",
			s.monitor.split, s.monitor.violations, s.monitor.recoveries)
	}
	if name == "timers" && len(s.side[0].more) == 0 {
		t.Fatalf("timers: node 1 keeps no timers beyond its record's")
	}
	return s
}

// sixTimers is a test algorithm with more timers than a node's record keeps inline: t0 … t5,
// each firing every (k+1)×7ms; it pings node 2 at every beat of t5.
type sixTimers struct{ id algo.ID }

func (n *sixTimers) Start(env algo.Env) {
	for k := range 6 {
		env.SetTimer(fmt.Sprintf("t%d", k), time.Duration(k+1)*7*time.Millisecond)
	}
}
func (n *sixTimers) Receive(env algo.Env, m algo.Message) {}
func (n *sixTimers) Timer(env algo.Env, name string) {
	k := int(name[1] - '0')
	env.SetTimer(name, time.Duration(k+1)*7*time.Millisecond)
	if k == 5 {
		env.Send(2, algo.Message{Kind: "PING"})
	}
}
func (n *sixTimers) Elect(env algo.Env)                           {}
func (n *sixTimers) State() algo.State                            { return algo.State{} }
func (n *sixTimers) Clone() algo.Node                             { c := *n; return &c }
func (n *sixTimers) AppendState(b []byte, _ time.Duration) []byte { return b }

// aliases appends to found a description of each reference reached from a and b — the same
// field of an original and its copy, reached by path — that the two share, where cloneFields
// does not allow it.
func aliases(found *[]string, path string, a, b reflect.Value, depth int) {
	if depth > 12 {
		return
	}
	same := func() {
		*found = append(*found, fmt.Sprintf("%s is shared by the run and its copy", path))
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.UnsafePointer, reflect.Map, reflect.Chan:
		if a.IsNil() || b.IsNil() {
			return
		}
		if a.Pointer() == b.Pointer() {
			same()
			return
		}
		if a.Kind() == reflect.Pointer {
			aliases(found, path, a.Elem(), b.Elem(), depth+1)
		}
	case reflect.Slice:
		if a.Cap() > 0 && b.Cap() > 0 && a.Pointer() == b.Pointer() {
			same()
			return
		}
		for i := range min(a.Len(), b.Len(), 4) { // the first few elements: a slice's are alike
			aliases(found, fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i), depth+1)
		}
	case reflect.Array:
		for i := range a.Len() {
			aliases(found, fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i), depth+1)
		}
	case reflect.Interface:
		if !a.IsNil() && !b.IsNil() {
			aliases(found, path, a.Elem(), b.Elem(), depth+1)
		}
	case reflect.Struct:
		fields := cloneFields[a.Type()]
		for i := range a.NumField() {
			name := a.Type().Field(i).Name
			tr := fields[name]
			if fields != nil && tr != copied {
				if tr == byAlgo && !a.Field(i).IsNil() && a.Field(i).Elem().Kind() == reflect.Pointer &&
					a.Field(i).Elem().Pointer() == b.Field(i).Elem().Pointer() {
					*found = append(*found, fmt.Sprintf("%s.%s: the node is not copied", path, name))
				}
				continue
			}
			aliases(found, path+"."+name, a.Field(i), b.Field(i), depth+1)
		}
	}
}

// The alias check finds what it looks for: a copy that shares a node's held inputs, a lane's
// block, a monitor's beliefs or a node's state is reported.
func TestCloneSharesNothingCatchesSharing(t *testing.T) {
	s := busyRun(t, "bully", Inline)
	for _, c := range []struct {
		want  string
		spoil func(c *Sim)
	}{
		{"Sim.side[1].held", func(c *Sim) { c.side[1].held = s.side[1].held }},
		{"Sim.monitor.belief", func(c *Sim) { c.monitor.belief = s.monitor.belief }},
		{"Sim.q.lanes", func(c *Sim) {
			for i := range c.q.lanes {
				c.q.lanes[i].first = s.q.lanes[i].first
			}
		}},
		{"the node is not copied", func(c *Sim) { c.nodes[0].node = s.nodes[0].node }},
		{"Sim.net", func(c *Sim) { c.net = s.net }},
	} {
		cp := s.Clone()
		c.spoil(cp)
		var found []string
		aliases(&found, "Sim", reflect.ValueOf(s).Elem(), reflect.ValueOf(cp).Elem(), 0)
		if !slices.ContainsFunc(found, func(f string) bool { return strings.Contains(f, c.want) }) {
			t.Errorf("sharing %s: found %q", c.want, found)
		}
	}
}
