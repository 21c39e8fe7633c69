package algo

import (
	"fmt"
	"math"
	"time"
)

// HS is the election of D. S. Hirschberg and J. B. Sinclair, "Decentralized extrema-finding in
// circular configurations of processors", Communications of the ACM 23(11), 1980, on a
// bidirectional ring (the bi-ring topology): the highest id wins, with O(n log n) messages where
// Chang and Roberts may need O(n²).
//
// Every node starts as a candidate and works in phases 0, 1, 2, …. In phase k it sends its id
// both ways round the ring in a PROBE that is to go 2^k hops out and come back as a REPLY. A
// node a probe passes swallows it if its own id is higher; else it passes it on, or, at the last
// of the 2^k hops, turns it back. A candidate whose two probes both come back is the highest
// within 2^k hops on each side, and goes on to phase k+1; one whose probe was swallowed has lost,
// and only relays from then on. A probe that comes back to its sender from the far side has gone
// all the way round: its sender is the highest, and is elected. It then sends ELECTED round the
// ring so that every node knows.
//
// The paper assumes no failures: a lost probe or a crashed relay stops the election, and nothing
// starts it again (see docs/algorithms.md, Hirschberg–Sinclair, for what each fault does). The
// rules are those of docs/algorithms.md; each method quotes the rule it implements.
type HS struct {
	id          ID
	left, right ID     // my neighbours: right is my successor in the ring order, left my predecessor
	alone       bool   // the ring is this node alone
	status      Status // candidate while in the running, follower once it has lost or heard ELECTED
	leader      ID
	phase       uint32 // the phase I am in, while a candidate
	replies     int    // the REPLYs of this phase back so far: 0, 1 or 2
}

// The message kinds of HS, besides ELECTED (Ring's).
const (
	KindProbe = "PROBE"
	KindReply = "REPLY"
)

func hsInfo() *Info {
	return &Info{
		Name:       "hs",
		Summary:    "Hirschberg and Sinclair's ring election (1980): probes 2^k hops out and back, O(n log n) messages",
		Kinds:      []string{KindProbe, KindReply, KindElected},
		Topologies: []string{BiRing},
		Winner:     Highest,
		New:        func(id ID, c *Cluster) Node { return NewHS(id, c) },
		Guarantees: []Guarantee{{Property: "at-most-one-leader", Faults: "yyyyyyy",
			Why: "only the highest id can see its probe come all the way round: every other is swallowed by it, or lost"}},
		Theory: &Theory{
			Bound:     "8n(1 + ⌈log₂ n⌉) + n",
			Messages:  func(n int) float64 { return float64(8*n*(1+ceilLog2(n)) + n) },
			WorstIDs:  hsWorstIDs,
			WorstName: "bit-reversed ids (a bad case, not the worst)",
		},
	}
}

// NewHS returns node id of cluster c, not yet started.
func NewHS(id ID, c *Cluster) *HS {
	return &HS{id: id, left: c.Pred(id), right: c.Succ(id), alone: len(c.Ring) == 1}
}

var _ Node = (*HS)(nil)

// State reports the node's status and the leader it knows of; HS has no terms.
func (h *HS) State() State { return State{Status: h.status, Leader: h.leader} }

// Start: "Every process starts as a candidate in phase 0: it sends PROBE(me, 0, 1) to both
// neighbours."
func (h *HS) Start(env Env) {
	h.status = Candidate
	if h.alone {
		h.elected(env, "I am the only node")
		return
	}
	h.probe(env)
	if env.Tracing() {
		env.Note("booted: phase 0 — PROBE(%d) one hop each way, to %d and %d", h.id, h.left, h.right)
	}
}

// probe sends PROBE(me, phase, hop 1) both ways.
func (h *HS) probe(env Env) {
	h.replies = 0
	m := Message{Kind: KindProbe, Value: h.id, Phase: h.phase, Hop: 1}
	env.Send(h.left, m)
	env.Send(h.right, m)
}

// Elect does nothing: every node took part from its boot, and HS never elects again.
func (h *HS) Elect(env Env) {
	if env.Tracing() {
		env.Note("asked to elect: HS elects once, from boot, and every node took part then — nothing to do")
	}
}

// Timer: HS sets none.
func (h *HS) Timer(Env, string) {}

// Receive handles PROBE, REPLY and ELECTED.
func (h *HS) Receive(env Env, m Message) {
	switch m.Kind {
	case KindProbe:
		h.onProbe(env, m)
	case KindReply:
		h.onReply(env, m)
	case KindElected:
		h.onElected(env, m)
	}
}

// onward is the neighbour a message from from goes on to: the other one. (On a ring of two
// they are the same node.)
func (h *HS) onward(from ID) ID {
	if from == h.left {
		return h.right
	}
	return h.left
}

// onProbe: "On PROBE(j, k, d): if j = me, I am elected. If j > me and d < 2^k, pass
// PROBE(j, k, d+1) on; if j > me and d = 2^k, send REPLY(j, k) back. If j < me, swallow it."
func (h *HS) onProbe(env Env, m Message) {
	j, k, d := m.Value, m.Phase, m.Hop
	switch {
	case j == h.id:
		if h.status == Leader { // my other probe, round the other way: I am elected already
			if env.Tracing() {
				env.Note("my PROBE(%d) of phase %d came round the other way too: I am elected already", j, k)
			}
			return
		}
		h.elected(env, fmt.Sprintf("my PROBE(%d) of phase %d came all the way round", j, k))
	case j < h.id:
		if env.Tracing() {
			env.Note("PROBE(%d) < me (%d): swallowed", j, h.id)
		}
	case d < 1<<k:
		h.loses(env, j)
		to := h.onward(m.From)
		env.Send(to, Message{Kind: KindProbe, Value: j, Phase: k, Hop: d + 1})
		if env.Tracing() {
			env.Note("PROBE(%d) > me (%d), hop %d of %d: passed on to %d", j, h.id, d, 1<<k, to)
		}
	default:
		h.loses(env, j)
		env.Send(m.From, Message{Kind: KindReply, Value: j, Phase: k})
		if env.Tracing() {
			env.Note("PROBE(%d) > me (%d), its last hop (%d): REPLY back to %d", j, h.id, d, m.From)
		}
	}
}

// loses: a candidate that sees a higher id go by has lost — "it relays from now on" — and is a
// follower that knows no leader yet.
func (h *HS) loses(env Env, j ID) {
	if h.status == Candidate {
		h.status = Follower
		if env.Tracing() {
			env.Note("%d is higher than me: I am out of the running, and relay", j)
		}
	}
}

// onReply: "On REPLY(j, k): if j ≠ me, pass it on. If j = me and both REPLYs of phase k are
// back, go to phase k+1: send PROBE(me, k+1, 1) both ways."
func (h *HS) onReply(env Env, m Message) {
	j, k := m.Value, m.Phase
	if j != h.id {
		to := h.onward(m.From)
		env.Send(to, Message{Kind: KindReply, Value: j, Phase: k})
		if env.Tracing() {
			env.Note("REPLY(%d): not mine, passed on to %d", j, to)
		}
		return
	}
	if h.status != Candidate || k != h.phase {
		if env.Tracing() {
			env.Note("REPLY(%d) of phase %d: I am out of the running already — dropped", j, k)
		}
		return
	}
	h.replies++
	if h.replies < 2 {
		if env.Tracing() {
			env.Note("REPLY(%d) of phase %d: one side back, waiting for the other", j, k)
		}
		return
	}
	h.phase++
	h.probe(env)
	if env.Tracing() {
		env.Note("both REPLYs of phase %d back: phase %d — PROBE(%d) %d hops each way", k, h.phase, h.id, 1<<h.phase)
	}
}

// elected: "I am the leader: send ELECTED(me) to my successor."
func (h *HS) elected(env Env, why string) {
	h.status, h.leader = Leader, h.id
	if h.alone {
		if env.Tracing() {
			env.Note("%s: I am elected", why)
		}
		return
	}
	env.Send(h.right, Message{Kind: KindElected, Value: h.id})
	if env.Tracing() {
		env.Note("%s: I am elected — ELECTED(%d) round the ring, to %d", why, h.id, h.right)
	}
}

// onElected: "On ELECTED(j), j ≠ me: j leads; pass it on to my successor. When it comes back
// to j, every node knows."
func (h *HS) onElected(env Env, m Message) {
	j := m.Value
	if j == h.id {
		if env.Tracing() {
			env.Note("ELECTED(%d) came back round: every node knows", j)
		}
		return
	}
	h.status, h.leader = Follower, j
	env.Send(h.right, Message{Kind: KindElected, Value: j})
	if env.Tracing() {
		env.Note("ELECTED(%d): %d leads; passed on to %d", j, j, h.right)
	}
}

// Clone returns a copy of the node: it holds no references.
func (h *HS) Clone() Node { c := *h; return &c }

// AppendState writes the node's status, leader, phase and how many REPLYs are back. Its
// neighbours follow from its id.
func (h *HS) AppendState(b []byte, _ time.Duration) []byte {
	b = appendID(b, h.id)
	b = appendNodeState(b, h.State())
	b = appendUint(b, uint64(h.phase))
	return appendUint(b, uint64(h.replies))
}

// ceilLog2 is ⌈log₂ n⌉ for n ≥ 1.
func ceilLog2(n int) int {
	k := 0
	for 1<<k < n {
		k++
	}
	return k
}

// floorLog2 is ⌊log₂ n⌋ for n ≥ 1.
func floorLog2(n int) int { return int(math.Log2(float64(n)) + 1e-9) }

// hsWorstIDs arranges 1..n in bit-reversed order round the ring: the node at position p gets
// the rank of p with its bits reversed, so that half the candidates survive phase 0, a quarter
// phase 1, and so on — nearly the most that can (n/(2^k+1) after phase k). It is a bad case,
// not the worst, and its bench row says so: the worst orders of 7, 8 and 9 nodes cost 85, 97
// and 143 messages where it costs 78, 96 and 135 (docs/algorithms.md gives the brute force's
// counts for 3 to 9 nodes); no arrangement that is the worst for every n is known.
func hsWorstIDs(n int) []ID {
	bits := ceilLog2(n)
	ids := make([]ID, 0, n)
	rank := make([]int, 0, n)
	for i := 0; len(rank) < n; i++ {
		r := 0
		for b := 0; b < bits; b++ {
			if i&(1<<b) != 0 {
				r |= 1 << (bits - 1 - b)
			}
		}
		if r < n {
			rank = append(rank, r)
		}
	}
	for _, r := range rank {
		ids = append(ids, ID(r+1))
	}
	return ids
}
