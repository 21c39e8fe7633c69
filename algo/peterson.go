package algo

import (
	"fmt"
	"time"
)

// Peterson is the election of G. L. Peterson, "An O(n log n) unidirectional algorithm for the
// circular extrema problem", ACM TOPLAS 4(4), 1982 (found at the same time by D. Dolev, M. Klawe
// and M. Rodeh), on a unidirectional ring (the ring topology): O(n log n) messages although
// messages go one way only.
//
// Each node starts active, with a temporary id: its own. In each phase an active node sends its
// temporary id to its successor (ONE) and passes on the one it receives from the active node
// before it (TWO). So each active node learns the temporary ids of its two active predecessors.
// It stays active only if the nearer one is a local maximum — higher than its own and than the
// farther one — and then takes that id as its temporary id; otherwise it becomes a relay, which
// only passes messages on. At least half the active nodes drop out in every phase, and the
// highest id is never lost: it moves on to the active node after it. When a node's own ONE comes
// back to it, it is the only active node left and its temporary id is the highest; it sends
// ELECTED with it round the ring, and the node whose id that is leads.
//
// The paper assumes reliable FIFO links and no failures: a lost message or a crashed relay stops
// the election, and nothing starts it again (docs/algorithms.md, Peterson). The rules are those
// of docs/algorithms.md; each method quotes the rule it implements.
type Peterson struct {
	id     ID
	next   ID   // my successor: the only node I send to
	alone  bool // the ring is this node alone
	status Status
	leader ID
	relay  bool   // I have dropped out: I only pass messages on
	phase  uint32 // the phase I am in, while active (from 1)
	tid    ID     // my temporary id
	ntid   ID     // the temporary id of my active predecessor, this phase; 0 until its ONE came
}

// The message kinds of Peterson, besides ELECTED (Ring's).
const (
	KindOne = "ONE"
	KindTwo = "TWO"
)

func petersonInfo() *Info {
	return &Info{
		Name:       "peterson",
		Summary:    "Peterson's unidirectional ring election (1982): active nodes compare with two active predecessors, O(n log n) messages",
		Kinds:      []string{KindOne, KindTwo, KindElected},
		Topologies: []string{UniRing},
		Winner:     Highest,
		New:        func(id ID, c *Cluster) Node { return NewPeterson(id, c) },
		Guarantees: []Guarantee{{Property: "at-most-one-leader", Faults: "y---y--",
			Why: "the highest id moves from node to node; a node that restarts fresh after the election may find its own ONE coming back and announce itself"}},
		Theory: &Theory{
			Bound:    "2n⌊log₂ n⌋ + 2n",
			Messages: func(n int) float64 { return float64(2*n*floorLog2(n) + 2*n) },
		},
	}
}

// NewPeterson returns node id of cluster c, not yet started.
func NewPeterson(id ID, c *Cluster) *Peterson {
	return &Peterson{id: id, next: c.Succ(id), alone: len(c.Ring) == 1}
}

var _ Node = (*Peterson)(nil)

// State reports the node's status and the leader it knows of; Peterson has no terms.
func (p *Peterson) State() State { return State{Status: p.status, Leader: p.leader} }

// Start: "Every node starts active, with tid = me, in phase 1: it sends ONE(tid)."
func (p *Peterson) Start(env Env) {
	p.status, p.tid, p.phase = Candidate, p.id, 1
	if p.alone {
		p.status, p.leader = Leader, p.id
		if env.Tracing() {
			env.Note("I am the only node: I am elected")
		}
		return
	}
	env.Send(p.next, Message{Kind: KindOne, Value: p.tid, Phase: p.phase})
	if env.Tracing() {
		env.Note("booted: active in phase 1 — ONE(%d) to %d", p.tid, p.next)
	}
}

// Elect does nothing: every node took part from its boot, and Peterson never elects again.
func (p *Peterson) Elect(env Env) {
	if env.Tracing() {
		env.Note("asked to elect: Peterson elects once, from boot, and every node took part then — nothing to do")
	}
}

// Timer: Peterson sets none.
func (p *Peterson) Timer(Env, string) {}

// Receive handles ONE, TWO and ELECTED. "A relay passes every ONE and TWO on unchanged."
func (p *Peterson) Receive(env Env, m Message) {
	switch {
	case m.Kind == KindElected:
		p.onElected(env, m.Value)
	case p.relay || p.status == Leader:
		if p.status == Leader {
			return // the election is over: nothing to pass on
		}
		env.Send(p.next, Message{Kind: m.Kind, Value: m.Value, Phase: m.Phase})
		if env.Tracing() {
			env.Note("relay: %s passed on to %d", m.Label(), p.next)
		}
	case m.Kind == KindOne:
		p.onOne(env, m.Value)
	case m.Kind == KindTwo:
		p.onTwo(env, m.Value)
	}
}

// onOne: "An active node that receives ONE(v): if v = tid, my own ONE came round — I am the
// only active node left and tid is the highest id: send ELECTED(tid). Else ntid = v; send
// TWO(v)."
func (p *Peterson) onOne(env Env, v ID) {
	if v == p.tid {
		p.announce(env)
		return
	}
	p.ntid = v
	env.Send(p.next, Message{Kind: KindTwo, Value: v, Phase: p.phase})
	if env.Tracing() {
		env.Note("ONE(%d): my active predecessor's tid is %d — TWO(%d) on to %d", v, v, v, p.next)
	}
}

// onTwo: "An active node that receives TWO(w): if ntid > tid and ntid > w, tid = ntid and the
// next phase begins: send ONE(tid). Else become a relay."
func (p *Peterson) onTwo(env Env, w ID) {
	if p.ntid > p.tid && p.ntid > w {
		old := p.tid
		p.tid, p.ntid = p.ntid, 0
		p.phase++
		env.Send(p.next, Message{Kind: KindOne, Value: p.tid, Phase: p.phase})
		if env.Tracing() {
			env.Note("TWO(%d): %d beats my tid %d and %d: I stay active with tid %d — phase %d, ONE(%d)", w, p.tid, old, w, p.tid, p.phase, p.tid)
		}
		return
	}
	p.relay, p.status = true, Follower
	if env.Tracing() {
		env.Note("TWO(%d): %d is not higher than both my tid %d and %d — I become a relay", w, p.ntid, p.tid, w)
	}
}

// announce: "send ELECTED(tid) round the ring."
func (p *Peterson) announce(env Env) {
	p.leader = p.tid
	p.status = Follower
	if p.tid == p.id {
		p.status = Leader
	}
	env.Send(p.next, Message{Kind: KindElected, Value: p.tid})
	if env.Tracing() {
		env.Note("my ONE(%d) came all the way round: I am the last active node and %d is the highest id — ELECTED(%d) to %d", p.tid, p.tid, p.tid, p.next)
	}
}

// onElected: "On ELECTED(j): j leads (I lead if j = me); pass it on, until it is back where it
// started — the node whose tid it is, which knows already."
func (p *Peterson) onElected(env Env, j ID) {
	if !p.relay && p.tid == j && p.leader == j {
		if env.Tracing() {
			env.Note("ELECTED(%d) came back round: every node knows", j)
		}
		return
	}
	p.leader = j
	p.status = Follower
	if j == p.id {
		p.status = Leader
	}
	env.Send(p.next, Message{Kind: KindElected, Value: j})
	if env.Tracing() {
		who := fmt.Sprintf("%d leads", j)
		if j == p.id {
			who = "that is me: I lead"
		}
		env.Note("ELECTED(%d): %s; passed on to %d", j, who, p.next)
	}
}

// Clone returns a copy of the node: it holds no references.
func (p *Peterson) Clone() Node { c := *p; return &c }

// AppendState writes everything the node keeps but its successor, which follows from its id.
func (p *Peterson) AppendState(b []byte, _ time.Duration) []byte {
	b = appendID(b, p.id)
	b = appendNodeState(b, p.State())
	b = appendBool(b, p.relay)
	b = appendUint(b, uint64(p.phase))
	b = appendID(b, p.tid)
	return appendID(b, p.ntid)
}
