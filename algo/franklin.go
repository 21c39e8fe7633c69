package algo

import (
	"slices"
	"time"
)

// Franklin is the election of W. R. Franklin, "On an improved algorithm for decentralized
// extrema finding in circular configurations of processors", Communications of the ACM 25(5),
// 1982, on a bidirectional ring (the bi-ring topology): O(n log n) messages, in rounds where
// every active node compares itself with its nearest active neighbour on each side.
//
// Every node starts active. In each phase an active node sends its id both ways and waits for
// the ids of the nearest active node on each side (the nodes between, passive, pass messages on).
// If one of them is higher, it becomes passive; if it is higher than both, it stays active for
// the next phase. Of two neighbouring active nodes at most one stays, so each phase at least
// halves them; the highest id always stays. A node whose own id comes back to it is the only
// active node left: it is elected, and sends ELECTED round the ring.
//
// A node may hear the next phase's id from one side before this phase's from the other (its
// neighbour there has moved on): it keeps it for the next phase. The paper assumes reliable FIFO
// links and no failures (docs/algorithms.md, Franklin). The rules are those of
// docs/algorithms.md; each method quotes the rule it implements.
type Franklin struct {
	id          ID
	left, right ID   // my neighbours: right is my successor in the ring order
	alone       bool // the ring is this node alone
	status      Status
	leader      ID
	passive     bool      // I have lost: I only pass messages on
	phase       uint32    // the phase I am in, while active (from 1)
	heard       []ID      // the ids of this phase heard so far (0, 1 or 2)
	early       []Message // ELECTIONs of the next phase, heard before this one's were both in
}

func franklinInfo() *Info {
	return &Info{
		Name:       "franklin",
		Summary:    "Franklin's bidirectional ring election (1982): each active node compares with its nearest active neighbours, O(n log n) messages",
		Kinds:      []string{KindElection, KindElected},
		Topologies: []string{BiRing},
		Winner:     Highest,
		New:        func(id ID, c *Cluster) Node { return NewFranklin(id, c) },
		Guarantees: []Guarantee{{Property: "at-most-one-leader", Faults: "yyyyyyy",
			Why: "the highest id never becomes passive, so no other id passes it to come back round to its owner"}},
		Theory: &Theory{
			Bound:    "2n(⌈log₂ n⌉ + 1) + n",
			Messages: func(n int) float64 { return float64(2*n*(ceilLog2(n)+1) + n) },
		},
	}
}

// NewFranklin returns node id of cluster c, not yet started.
func NewFranklin(id ID, c *Cluster) *Franklin {
	return &Franklin{id: id, left: c.Pred(id), right: c.Succ(id), alone: len(c.Ring) == 1}
}

var _ Node = (*Franklin)(nil)

// State reports the node's status and the leader it knows of; Franklin has no terms.
func (f *Franklin) State() State { return State{Status: f.status, Leader: f.leader} }

// Start: "Every node starts active in phase 1: it sends ELECTION(me) both ways."
func (f *Franklin) Start(env Env) {
	f.status, f.phase = Candidate, 1
	if f.alone {
		f.status, f.leader = Leader, f.id
		if env.Tracing() {
			env.Note("I am the only node: I am elected")
		}
		return
	}
	f.sendBothWays(env)
	if env.Tracing() {
		env.Note("booted: active in phase 1 — ELECTION(%d) to %d and %d", f.id, f.left, f.right)
	}
}

func (f *Franklin) sendBothWays(env Env) {
	m := Message{Kind: KindElection, Value: f.id, Phase: f.phase}
	env.Send(f.left, m)
	env.Send(f.right, m)
}

// Elect does nothing: every node took part from its boot, and Franklin never elects again.
func (f *Franklin) Elect(env Env) {
	if env.Tracing() {
		env.Note("asked to elect: Franklin elects once, from boot, and every node took part then — nothing to do")
	}
}

// Timer: Franklin sets none.
func (f *Franklin) Timer(Env, string) {}

// Receive handles ELECTION and ELECTED.
func (f *Franklin) Receive(env Env, m Message) {
	switch {
	case m.Kind == KindElected:
		f.onElected(env, m.Value)
	case f.status == Leader:
		// The election is over: nothing to pass on.
		if env.Tracing() {
			env.Note("ELECTION(%d) of phase %d: I am elected already, the election is over — nothing to pass on", m.Value, m.Phase)
		}
	case f.passive:
		f.passOn(env, m)
	default:
		f.onElection(env, m)
	}
}

// passOn: "A passive node passes every ELECTION on, to its other neighbour."
func (f *Franklin) passOn(env Env, m Message) {
	to := f.left
	if m.From == f.left {
		to = f.right
	}
	env.Send(to, Message{Kind: KindElection, Value: m.Value, Phase: m.Phase})
	if env.Tracing() {
		env.Note("passive: %s passed on to %d", m.Label(), to)
	}
}

// onElection: "An active node that receives its own id is the only active node left: it is
// elected, and sends ELECTED(me) round the ring. Otherwise, once it has the ids of this phase
// from both sides: if either is higher than mine, I become passive; else the next phase begins,
// and I send ELECTION(me) both ways again."
func (f *Franklin) onElection(env Env, m Message) {
	v, phase := m.Value, m.Phase
	if v == f.id {
		f.status, f.leader = Leader, f.id
		env.Send(f.right, Message{Kind: KindElected, Value: f.id})
		if env.Tracing() {
			env.Note("my own ELECTION(%d) came round: I am the only active node left, so I am elected — ELECTED(%d) to %d", v, v, f.right)
		}
		return
	}
	switch phase {
	case f.phase:
		f.heard = append(f.heard, v)
	case f.phase + 1:
		f.early = append(f.early, m)
		if env.Tracing() {
			env.Note("ELECTION(%d) of phase %d, ahead of mine: kept for the next phase", v, phase)
		}
		return
	default:
		if env.Tracing() {
			env.Note("ELECTION(%d) of phase %d, while I am in phase %d: dropped", v, phase, f.phase)
		}
		return
	}
	if len(f.heard) < 2 {
		if env.Tracing() {
			env.Note("ELECTION(%d) of phase %d: one side heard, waiting for the other", v, phase)
		}
		return
	}
	if higher := slices.Max(f.heard); higher > f.id {
		f.passive, f.status = true, Follower
		if env.Tracing() {
			env.Note("ELECTION(%d): %d is higher than me — I become passive", v, higher)
		}
		// What came early was meant for the active node I was: it goes on to the next one.
		for _, e := range f.early {
			f.passOn(env, e)
		}
		f.heard, f.early = nil, nil
		return
	}
	f.phase++
	f.heard = f.heard[:0]
	for _, e := range f.early {
		f.heard = append(f.heard, e.Value)
	}
	f.early = nil
	f.sendBothWays(env)
	if env.Tracing() {
		env.Note("ELECTION(%d): I am higher than both active neighbours — phase %d, ELECTION(%d) both ways", v, f.phase, f.id)
	}
}

// onElected: "On ELECTED(j), j ≠ me: j leads; pass it on to my successor. When it comes back to
// j, every node knows."
func (f *Franklin) onElected(env Env, j ID) {
	if j == f.id {
		if env.Tracing() {
			env.Note("ELECTED(%d) came back round: every node knows", j)
		}
		return
	}
	f.status, f.leader = Follower, j
	env.Send(f.right, Message{Kind: KindElected, Value: j})
	if env.Tracing() {
		env.Note("ELECTED(%d): %d leads; passed on to %d", j, j, f.right)
	}
}

// Clone returns a copy of the node that shares nothing with it.
func (f *Franklin) Clone() Node {
	c := *f
	c.heard, c.early = slices.Clone(f.heard), slices.Clone(f.early)
	return &c
}

// AppendState writes everything the node keeps but its neighbours, which follow from its id.
// The ids heard are written in order of value: which side one came from does not matter.
func (f *Franklin) AppendState(b []byte, _ time.Duration) []byte {
	b = appendID(b, f.id)
	b = appendNodeState(b, f.State())
	b = appendBool(b, f.passive)
	b = appendUint(b, uint64(f.phase))
	heard := slices.Clone(f.heard)
	slices.Sort(heard)
	b = appendUint(b, uint64(len(heard)))
	for _, id := range heard {
		b = appendID(b, id)
	}
	// Which side an early ELECTION came from matters: a node that turns passive passes it
	// on away from it. Written in the order they came, which FIFO links fix.
	b = appendUint(b, uint64(len(f.early)))
	for _, m := range f.early {
		b = m.AppendTo(b)
	}
	return b
}
