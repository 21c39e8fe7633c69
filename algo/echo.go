package algo

import (
	"slices"
	"time"
)

// Echo is the echo algorithm with extinction of W. Fokkink, Distributed Algorithms: An
// Intuitive Approach, MIT Press 2013, §9.3 (after E. J. H. Chang's echo algorithm, 1982), on
// any connected undirected graph: every node starts a wave tagged with its id, a node takes
// part only in the highest wave it has seen, and the lower ones die out; the highest wave
// comes back to its initiator, who is elected. At most N waves of 2|E| messages each: O(N·E).
//
// A wave is an echo: its initiator sends WAVE(me) to every neighbour; a node that joins a wave
// takes the sender as its parent and sends the wave on to every other neighbour; once it has
// heard the wave from every neighbour it echoes it to its parent. A node that hears a higher
// wave drops the one it was in and joins the higher; a lower wave it drops (extinction). When
// the initiator has heard its wave from every neighbour, the wave has covered the graph: it is
// elected, and sends ELECTED down the tree the wave built, each node to its children.
//
// Fokkink assumes no failures: a crash or a lost message stops the highest wave, and nothing
// starts another (docs/algorithms.md, Echo). The rules are those of docs/algorithms.md; each
// method quotes the rule it implements.
type Echo struct {
	id       ID
	nbrs     []ID // my neighbours
	caw      ID   // the currently active wave: the highest initiator I have heard of
	parent   ID   // where the active wave came from; 0 for my own
	received int  // the messages of the active wave heard so far
	children []ID // the neighbours that echoed the active wave to me: the wave's tree below me
	status   Status
	leader   ID
}

// The message kinds of Echo, besides ELECTED (Ring's). A WAVE carries its initiator's id; an
// echo to a parent is a WAVE with its flag set.
const KindWave = "WAVE"

func echoInfo() *Info {
	return &Info{
		Name:       "echo",
		Summary:    "Echo with extinction (Fokkink §9.3): every node starts a wave, the highest completes, O(N·E) messages",
		Kinds:      []string{KindWave, KindElected},
		Topologies: []string{Random + ":3", Complete, BiRing},
		Winner:     Highest,
		New:        func(id ID, c *Cluster) Node { return NewEcho(id, c) },
		Guarantees: []Guarantee{{Property: "at-most-one-leader", Faults: "yyyyyyy",
			Why: "only a wave that came back from every neighbour elects, and the highest wave's nodes swallow every lower one"}},
		Theory: &Theory{
			Bound:      "N·2|E| + N−1 ≤ N·N(N−1) + N−1",
			Messages:   func(n int) float64 { return float64(n)*float64(n)*float64(n-1) + float64(n-1) },
			OnGraph:    func(c *Cluster) int64 { return int64(len(c.Ring))*c.Topology.Arcs() + int64(len(c.Ring)-1) },
			GraphBound: "N·2|E| + N−1",
			Varies:     true,
		},
	}
}

// NewEcho returns node id of cluster c, not yet started.
func NewEcho(id ID, c *Cluster) *Echo {
	return &Echo{id: id, nbrs: c.Topology.Neighbours(id)}
}

var _ Node = (*Echo)(nil)

// State reports the node's status and the leader it knows of.
func (e *Echo) State() State { return State{Status: e.status, Leader: e.leader} }

// Start: "Every node initiates: caw := me; send WAVE(me) to every neighbour."
func (e *Echo) Start(env Env) {
	e.status, e.caw, e.parent, e.received, e.children = Candidate, e.id, 0, 0, nil
	if len(e.nbrs) == 0 {
		e.elected(env)
		return
	}
	for _, to := range e.nbrs {
		env.Send(to, Message{Kind: KindWave, Value: e.id})
	}
	if env.Tracing() {
		env.Note("booted: my wave WAVE(%d) to my %d neighbours", e.id, len(e.nbrs))
	}
}

// Receive handles WAVE and ELECTED.
func (e *Echo) Receive(env Env, m Message) {
	switch m.Kind {
	case KindWave:
		e.onWave(env, m)
	case KindElected:
		e.onElected(env, m)
	}
}

// onWave: "On WAVE(q) from r: if q < caw, drop it. If q > caw: caw := q, parent := r, forget
// the old wave, and send WAVE(q) to every neighbour but r. Then, q = caw: count it (an echo
// makes r my child); once it has come from every neighbour, echo it to my parent — or, if the
// wave is mine, I am elected."
func (e *Echo) onWave(env Env, m Message) {
	q, r := m.Value, m.From
	switch {
	case q < e.caw:
		if env.Tracing() {
			env.Note("WAVE(%d) < the wave I am in (%d): it dies out here", q, e.caw)
		}
		return
	case q > e.caw:
		e.caw, e.parent, e.received, e.children = q, r, 0, nil
		e.status = Follower
		for _, to := range e.nbrs {
			if to != r {
				env.Send(to, Message{Kind: KindWave, Value: q})
			}
		}
		if env.Tracing() {
			env.Note("WAVE(%d) > the wave I was in: I join it, %d my parent, and pass it to my other neighbours", q, r)
		}
	}
	e.received++
	if m.Flag {
		e.children = append(e.children, r)
	}
	if e.received < len(e.nbrs) {
		return
	}
	if e.caw == e.id {
		e.elected(env)
		return
	}
	env.Send(e.parent, Message{Kind: KindWave, Value: e.caw, Flag: true})
	if env.Tracing() {
		env.Note("WAVE(%d) heard from all %d neighbours: echoed to my parent %d", e.caw, len(e.nbrs), e.parent)
	}
}

// elected: "My wave came back from every neighbour: I am the leader; ELECTED(me) to my
// children."
func (e *Echo) elected(env Env) {
	e.status, e.leader = Leader, e.id
	for _, to := range e.children {
		env.Send(to, Message{Kind: KindElected, Value: e.id})
	}
	if env.Tracing() {
		env.Note("my wave came back from every neighbour: I am elected — ELECTED(%d) down the wave's tree", e.id)
	}
}

// onElected: "On ELECTED(j): j leads; pass it on to my children."
func (e *Echo) onElected(env Env, m Message) {
	e.status, e.leader = Follower, m.Value
	for _, to := range e.children {
		env.Send(to, Message{Kind: KindElected, Value: m.Value})
	}
	if env.Tracing() {
		env.Note("ELECTED(%d): %d leads; passed on to my %d children", m.Value, m.Value, len(e.children))
	}
}

// Elect does nothing: every node initiated at its boot, and echo elects once.
func (e *Echo) Elect(env Env) {
	if env.Tracing() {
		env.Note("asked to elect: echo elects once, from the waves started at boot — nothing to do")
	}
}

// Timer: echo sets none.
func (e *Echo) Timer(Env, string) {}

// Clone returns a copy of the node; its neighbours are shared, read-only.
func (e *Echo) Clone() Node {
	c := *e
	c.children = slices.Clone(e.children)
	return &c
}

// AppendState writes the node's status, leader, active wave, parent, count and children.
func (e *Echo) AppendState(b []byte, _ time.Duration) []byte {
	b = appendID(b, e.id)
	b = appendNodeState(b, e.State())
	b = appendID(b, e.caw)
	b = appendID(b, e.parent)
	b = appendUint(b, uint64(e.received))
	b = appendUint(b, uint64(len(e.children)))
	for _, c := range e.children {
		b = appendID(b, c)
	}
	return b
}
