package algo

import (
	"math"
	"time"
)

// ItaiRodeh is the election of A. Itai and M. Rodeh, "Symmetry breaking in distributed
// networks", Information and Computation 88(1), 1990 (first at FOCS 1981), on an anonymous
// unidirectional ring (the ring topology) whose size n every node knows. Anonymous: the nodes
// have no ids to compare — no deterministic algorithm can then elect (Angluin, 1980) — so they
// draw them at random, and try again until one is unique.
//
// In round 1 every node is active: it draws an id from 1..n and sends a TOKEN with it, its
// round, a hop count of 1 and a "unique" bit set, round the ring. A passive node passes every
// TOKEN on, counting the hop. An active node compares a TOKEN's (round, id) with its own: a
// higher one makes it passive, and it passes the TOKEN on; a lower one it swallows; an equal
// one — another node drew the same id — it passes on with the bit cleared. A TOKEN that has gone
// n hops is back at its sender: with the bit still set its id is unique and the highest, and its
// sender is elected; cleared, the id was drawn twice, and the nodes that drew it start round
// r+1 with fresh ids. The elected node sends ELECTED round the ring so that every node knows.
//
// The algorithm never reads a node's id: it has none. The engine still names nodes, and asks
// each which node it follows (State): so a node keeps the engine's name for itself (self), and
// the leader puts it in ELECTED for the others to report. Nothing the algorithm decides depends
// on it — a test runs it under relabelled ids and finds the same run.
//
// The rules are those of docs/algorithms.md (Itai–Rodeh), as Fokkink writes them
// (Distributed Algorithms, 2nd ed., §9.2); each method quotes the rule it implements. They
// assume no failures: a lost TOKEN stops the election.
type ItaiRodeh struct {
	self   ID  // the engine's name for this node: reported, copied into ELECTED, never compared
	next   ID  // my successor: the only node I send to
	n      int // the size of the ring, which every node knows
	status Status
	leader ID     // the engine's name of the leader I know of, for State only
	active bool   // I am still in the running
	round  uint32 // my round, while active
	rid    ID     // the id I drew this round
}

// The message kind of Itai–Rodeh, besides ELECTED (Ring's).
const KindToken = "TOKEN"

func itaiRodehInfo() *Info {
	return &Info{
		Name:       "itai-rodeh",
		Summary:    "Itai and Rodeh's anonymous ring election (1981): random ids, drawn again until one is unique",
		Kinds:      []string{KindToken, KindElected},
		Topologies: []string{UniRing},
		Winner:     AnyWinner,
		PhaseWord:  "round",
		New:        func(id ID, c *Cluster) Node { return NewItaiRodeh(id, c) },
		Guarantees: []Guarantee{{Property: "at-most-one-leader", Faults: "y---y--",
			Why: "a node that restarts fresh draws again in round 1 while the others have finished, and a lost TOKEN can leave a round without its ending"}},
		Theory: &Theory{
			Bound:       "expected, rounds one at a time (docs/algorithms.md)",
			Messages:    itaiRodehMessages,
			Expected:    true,
			Rounds:      itaiRodehRounds,
			RoundsBound: "≤ e/(e−1) ≈ 1.58",
		},
	}
}

// NewItaiRodeh returns node id of cluster c, not yet started. Of the cluster it reads only the
// size and its successor.
func NewItaiRodeh(id ID, c *Cluster) *ItaiRodeh {
	return &ItaiRodeh{self: id, next: c.Succ(id), n: len(c.Ring)}
}

var _ Node = (*ItaiRodeh)(nil)

// State reports the node's status and the leader it knows of; Itai–Rodeh has no terms.
func (r *ItaiRodeh) State() State { return State{Status: r.status, Leader: r.leader} }

// Start: "Every node starts active in round 1: it draws an id from 1..n and sends
// TOKEN(id, round 1, hop 1, unique)."
func (r *ItaiRodeh) Start(env Env) {
	r.status, r.active = Candidate, true
	if r.n == 1 {
		r.status, r.leader = Leader, r.self
		if env.Tracing() {
			env.Note("the ring is me alone: I am elected")
		}
		return
	}
	r.draw(env, 1)
	if env.Tracing() {
		env.Note("booted: round 1 — I drew %d: TOKEN on to %d", r.rid, r.next)
	}
}

// draw starts round: a fresh id from 1..n, sent round in a TOKEN.
func (r *ItaiRodeh) draw(env Env, round uint32) {
	r.round = round
	r.rid = ID(1 + Draw(env, int64(r.n)))
	env.Send(r.next, Message{Kind: KindToken, Value: r.rid, Phase: r.round, Hop: 1, Flag: true})
}

// Elect does nothing: every node took part from its boot, and Itai–Rodeh never elects again.
func (r *ItaiRodeh) Elect(env Env) {
	if env.Tracing() {
		env.Note("asked to elect: Itai–Rodeh elects once, from boot, and every node took part then — nothing to do")
	}
}

// Timer: Itai–Rodeh sets none.
func (r *ItaiRodeh) Timer(Env, string) {}

// Receive handles TOKEN and ELECTED.
func (r *ItaiRodeh) Receive(env Env, m Message) {
	switch {
	case m.Kind == KindElected:
		r.onElected(env, m)
	case r.status == Leader:
		// The election is over: nothing to pass on.
	case !r.active:
		// "A passive node passes every TOKEN on, with the hop count one higher."
		m.Hop++
		env.Send(r.next, Message{Kind: KindToken, Value: m.Value, Phase: m.Phase, Hop: m.Hop, Flag: m.Flag})
		if env.Tracing() {
			env.Note("passive: TOKEN passed on to %d", r.next)
		}
	default:
		r.onToken(env, m.Value, m.Phase, m.Hop, m.Flag)
	}
}

// onToken: "An active node in round r with id i, on TOKEN(j, round s, hop h, bit b):
// h = n — my own TOKEN is back: b set, I am elected; b cleared, round r+1 with a fresh id.
// (s, j) = (r, i) — another drew my id: pass it on with b cleared.
// (s, j) > (r, i) — I become passive and pass it on.
// (s, j) < (r, i) — swallow it."
func (r *ItaiRodeh) onToken(env Env, j ID, s, h uint32, unique bool) {
	switch {
	case int(h) == r.n && unique:
		r.status, r.leader, r.active = Leader, r.self, false
		env.Send(r.next, Message{Kind: KindElected, Value: r.self, Hop: 1})
		if env.Tracing() {
			env.Note("my TOKEN came back after %d hops, still unique: I am elected — ELECTED on to %d", h, r.next)
		}
	case int(h) == r.n:
		r.draw(env, r.round+1)
		if env.Tracing() {
			env.Note("my TOKEN came back, but another drew %d too: round %d — I drew %d", j, r.round, r.rid)
		}
	case s == r.round && j == r.rid:
		env.Send(r.next, Message{Kind: KindToken, Value: j, Phase: s, Hop: h + 1, Flag: false})
		if env.Tracing() {
			env.Note("TOKEN(%d) of round %d: I drew %d too — passed on, not unique", j, s, j)
		}
	case s > r.round || (s == r.round && j > r.rid):
		r.active, r.status = false, Follower
		env.Send(r.next, Message{Kind: KindToken, Value: j, Phase: s, Hop: h + 1, Flag: unique})
		if env.Tracing() {
			env.Note("TOKEN(%d) of round %d beats my %d of round %d: I become passive, and pass it on", j, s, r.rid, r.round)
		}
	default:
		if env.Tracing() {
			env.Note("TOKEN(%d) of round %d is below my %d of round %d: swallowed", j, s, r.rid, r.round)
		}
	}
}

// onElected: "On ELECTED: the sender of the unique TOKEN leads; pass it on until it has gone
// round (n hops)." The leader's name in it is only reported.
func (r *ItaiRodeh) onElected(env Env, m Message) {
	if r.status == Leader || int(m.Hop) >= r.n {
		if env.Tracing() {
			env.Note("ELECTED came back round: every node knows")
		}
		return
	}
	r.status, r.leader, r.active = Follower, m.Value, false
	env.Send(r.next, Message{Kind: KindElected, Value: m.Value, Hop: m.Hop + 1})
	if env.Tracing() {
		env.Note("ELECTED: %d leads; passed on to %d", m.Value, r.next)
	}
}

// Clone returns a copy of the node: it holds no references.
func (r *ItaiRodeh) Clone() Node { c := *r; return &c }

// AppendState writes everything the node keeps but its successor and the ring's size, which
// follow from its name.
func (r *ItaiRodeh) AppendState(b []byte, _ time.Duration) []byte {
	b = appendID(b, r.self)
	b = appendNodeState(b, r.State())
	b = appendBool(b, r.active)
	b = appendUint(b, uint64(r.round))
	return appendID(b, r.rid)
}

// --- The expected cost, for bench (docs/algorithms.md, Itai–Rodeh: "What it costs")

// irTies returns, for m active nodes drawing ids from 1..n, the probability that the highest id
// is drawn by exactly j of them, for j = 1..min(m, cap) (index j-1): C(m, j) Σ_v (1/n)^j
// ((v−1)/n)^(m−j). powers[k] is Σ_{u<n} (u/n)^k for the small k a few active nodes need.
func irTies(m, n, cap int, powers []float64) []float64 {
	p := make([]float64, min(m, cap))
	lgm, _ := math.Lgamma(float64(m + 1))
	for j := 1; j <= len(p); j++ {
		lgj, _ := math.Lgamma(float64(j + 1))
		lgmj, _ := math.Lgamma(float64(m - j + 1))
		logC := lgm - lgj - lgmj - float64(j)*math.Log(float64(n))
		if m-j < len(powers) {
			p[j-1] = math.Exp(logC) * powers[m-j]
			continue
		}
		sum := 0.0
		for v := 2; v <= n; v++ {
			sum += math.Exp(logC + float64(m-j)*math.Log(float64(v-1)/float64(n)))
		}
		p[j-1] = sum
	}
	return p
}

// irPowers returns Σ_{u<n} (u/n)^k for k = 0..k-1 (0^0 = 1).
func irPowers(n, k int) []float64 {
	s := make([]float64, k)
	for u := 0; u < n; u++ {
		x, p := float64(u)/float64(n), 1.0
		for i := range s {
			s[i] += p
			p *= x
		}
	}
	return s
}

// irRoundCost is the expected number of TOKEN hops in a round that m active nodes, at random
// places among n, start: each TOKEN goes to the next active node with a higher id — k active
// nodes on, n/m hops each on average — or all the way round: Σ_v (n/m)·E[min(K_v, m)] over the
// m ids v drawn.
func irRoundCost(m, n int) float64 {
	total := 0.0
	for v := 1; v <= n; v++ {
		q := float64(n-v) / float64(n) // a later node's id beats v
		if q == 0 {
			total += float64(m)
		} else {
			total += (1 - math.Pow(1-q, float64(m))) / q
		}
	}
	return total // m · (1/n)Σ_v (n/m)·E[min(K_v, m)]
}

// irExpect returns the expected rounds and TOKEN messages from a round m active nodes start,
// ties beyond a few nodes being too unlikely to count.
func irExpect(m, n int, memo map[int][2]float64, powers []float64) (rounds, msgs float64) {
	if v, ok := memo[m]; ok {
		return v[0], v[1]
	}
	ties := irTies(m, n, 24, powers)
	// E(m) = 1 + Σ_j P(j) E(j) for j ≥ 2, E(m) on both sides when every node drew alike.
	self := 0.0
	rounds, msgs = 1, irRoundCost(m, n)
	for j := 2; j <= len(ties); j++ {
		if j == m {
			self = ties[j-1]
			continue
		}
		r, c := irExpect(j, n, memo, powers)
		rounds += ties[j-1] * r
		msgs += ties[j-1] * c
	}
	rounds, msgs = rounds/(1-self), msgs/(1-self)
	memo[m] = [2]float64{rounds, msgs}
	return rounds, msgs
}

// itaiRodehRounds is the expected number of rounds among n nodes.
func itaiRodehRounds(n int) float64 {
	r, _ := irExpect(n, n, map[int][2]float64{}, irPowers(n, 24))
	return r
}

// itaiRodehMessages is the expected number of messages among n nodes: TOKENs, then n ELECTED.
func itaiRodehMessages(n int) float64 {
	_, m := irExpect(n, n, map[int][2]float64{}, irPowers(n, 24))
	return m + float64(n)
}
