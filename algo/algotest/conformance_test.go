package algotest_test

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/algo/algotest"
)

// tally is a test algorithm with a state of the kinds real ones keep — a slice changed in place,
// a map, a time — and a switch for each way of getting Clone or AppendState wrong. A node counts
// the messages it gets from each node and answers every second one with an ECHO, whose log part
// (algo.Message.Log, made afresh for each) carries how many it has got in all; every 50ms it
// pings the lowest node if it has heard nothing for 100ms; it leads once it has counted five.
type tally struct {
	id     algo.ID
	ids    []algo.ID // the cluster's, shared
	counts []int     // by place in ids
	seen   map[algo.ID]bool
	heard  time.Duration // when it last got a message
	got    uint64        // messages got in all
	copied bool          // made by Clone with the bug logLies: its log parts say one more
	bug    bug
}

type bug uint8

const (
	none         bug = iota
	shallow          // Clone shares counts
	sameNode         // Clone returns the node itself
	forgetful        // AppendState writes the total count, not each one
	mapOrder         // AppendState writes seen in the map's order
	absolute         // AppendState writes heard as is, not relative to now
	overwrites       // AppendState writes over what it was handed
	forgetsHeard     // AppendState leaves heard out
	logLies          // a copy's ECHOs carry a log part that holds one more than the node's
)

func tallyInfo(b bug) *algo.Info {
	return &algo.Info{Name: "tally", Kinds: []string{"PING", "ECHO"},
		New: func(id algo.ID, c *algo.Cluster) algo.Node {
			return &tally{id: id, ids: c.Sorted, bug: b}
		}}
}

func (n *tally) Start(env algo.Env) {
	n.counts = make([]int, len(n.ids))
	n.seen = map[algo.ID]bool{}
	n.heard = env.Now()
	env.SetTimer("tick", 50*time.Millisecond)
}

func (n *tally) Receive(env algo.Env, m algo.Message) {
	i := 0
	for n.ids[i] != m.From {
		i++
	}
	n.counts[i]++
	n.seen[m.From] = true
	n.heard = env.Now()
	n.got++
	if n.counts[i]%2 == 0 {
		l := &algo.LogPart{Index: n.got}
		if n.copied {
			l.Index++
		}
		env.Send(m.From, algo.Message{Kind: "ECHO", Value: algo.ID(n.counts[i]), Log: l})
	}
}

func (n *tally) Timer(env algo.Env, name string) {
	if env.Now()-n.heard > 100*time.Millisecond {
		env.Send(n.ids[0], algo.Message{Kind: "PING"})
	}
	env.SetTimer("tick", 50*time.Millisecond)
}

func (n *tally) Elect(env algo.Env) {}

func (n *tally) State() algo.State {
	total := 0
	for _, c := range n.counts {
		total += c
	}
	if total >= 5 {
		return algo.State{Status: algo.Leader, Leader: n.id}
	}
	return algo.State{}
}

func (n *tally) Clone() algo.Node {
	switch n.bug {
	case sameNode:
		return n
	case shallow:
		c := *n
		c.seen = map[algo.ID]bool{}
		for k, v := range n.seen {
			c.seen[k] = v
		}
		return &c
	}
	c := *n
	c.copied = n.bug == logLies
	c.counts = append([]int(nil), n.counts...)
	c.seen = map[algo.ID]bool{}
	for k, v := range n.seen {
		c.seen[k] = v
	}
	return &c
}

func (n *tally) AppendState(b []byte, now time.Duration) []byte {
	if n.bug == overwrites {
		b = b[:0]
	}
	b = binary.AppendUvarint(b, n.got)
	if n.bug == forgetful {
		b = binary.AppendUvarint(b, uint64(n.State().Status))
	} else {
		for _, c := range n.counts {
			b = binary.AppendUvarint(b, uint64(c))
		}
	}
	for _, id := range n.ids { // in id order, or else in the map's
		if n.seen[id] {
			b = binary.AppendVarint(b, int64(id))
		}
	}
	if n.bug == mapOrder {
		for id := range n.seen {
			b = binary.AppendVarint(b, int64(id))
		}
	}
	switch n.bug {
	case forgetsHeard:
	case absolute:
		b = binary.AppendVarint(b, int64(n.heard))
	default:
		// All Timer asks is whether heard is more than 100ms ago.
		b = binary.AppendVarint(b, int64(min(now-n.heard, 101*time.Millisecond)))
	}
	return b
}

// find runs walks of Check with fixed seeds until one fails, and returns its error, or nil
// after runs walks.
func find(info *algo.Info, runs int) error {
	for seed := range uint64(runs) {
		rng := rand.New(rand.NewPCG(seed, 1))
		if err := algotest.Check(info, nil, func(n int) int { return rng.IntN(n) }); err != nil {
			return err
		}
	}
	return nil
}

// Check catches each way of getting Clone or AppendState wrong, saying which; a correct
// algorithm passes. A copy's log parts are its own, and equal ones are alike: a copy that sends
// the same ECHO, with a log part of its own that holds the same, acts alike; one whose log part
// holds something else does not.
func TestCheckCatchesBrokenContracts(t *testing.T) {
	for _, c := range []struct {
		bug  bug
		want string // in the error; "" for none
	}{
		{none, ""},
		{absolute, "keeps a time that is not relative to now"},
		{shallow, "Clone is not deep"},
		{sameNode, "Clone is not deep"},
		{forgetful, "AppendState leaves out something that matters"},
		{forgetsHeard, "AppendState leaves out something that matters"},
		{mapOrder, "AppendState is not deterministic"},
		{overwrites, "AppendState changed the bytes it was handed"},
		{logLies, "Clone does not copy everything"},
	} {
		err := find(tallyInfo(c.bug), 200)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("bug %d: a conforming algorithm fails: %v", c.bug, err)
		case c.want != "" && err == nil:
			t.Errorf("bug %d: 200 walks found nothing wrong, want %q", c.bug, c.want)
		case c.want != "" && !strings.Contains(err.Error(), c.want):
			t.Errorf("bug %d: error %v\nwant one saying %q", c.bug, err, c.want)
		}
	}
}

// The rapid wrapper passes a conforming algorithm.
func TestConformanceOfTally(t *testing.T) {
	algotest.Conformance(t, tallyInfo(none), nil)
}

// Env records sends with their ends, timers armed and cancelled, and a Clone of it shares
// nothing: not the storage, not the timers, not the random source's state.
func TestEnv(t *testing.T) {
	e := algotest.NewEnv(3, 9)
	e.Time = 10 * time.Millisecond
	e.Send(5, algo.Message{Kind: "A"})
	e.SetTimer("x", 20*time.Millisecond)
	e.SetTimer("y", time.Millisecond)
	e.CancelTimer("y")
	e.Store("k", 4)
	if got, want := e.Effects(), "send A 3→5\nset x 20ms\nset y 1ms\ncancel y\n"; got != want {
		t.Errorf("Effects() = %q, want %q", got, want)
	}
	if len(e.Pending) != 1 || e.Pending["x"] != 30*time.Millisecond {
		t.Errorf("Pending = %v, want x at 30ms", e.Pending)
	}
	c := e.Clone()
	// Each draws what the other draws: a shared source would give the clone the second.
	want := e.Rand().Uint64()
	if got := c.Rand().Uint64(); got != want {
		t.Errorf("the clone's random source drew %d, the original's %d", got, want)
	}
	c.Store("k", 5)
	c.SetTimer("z", time.Second)
	c.Clear()
	if v, _ := e.Load("k"); v != 4 || len(e.Pending) != 1 || len(e.Sends) != 1 {
		t.Errorf("changing the clone changed the original: k=%d pending %v sends %v", v, e.Pending, e.Sends)
	}
}
