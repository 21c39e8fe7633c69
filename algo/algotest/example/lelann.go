package example

import (
	"encoding/binary"
	"time"

	"electsim/algo"
)

// LeLann is G. Le Lann's election, "Distributed systems — towards a formal approach", IFIP
// Congress 1977, on a unidirectional ring: every node sends its id round the ring, and every
// node passes every id on, so that each sees them all; the node whose id comes back after the
// highest it has seen is its own is elected. It assumes nothing fails.
type LeLann struct {
	id, next ID
	status   algo.Status
	best     ID // the highest id I have seen, mine included
	leader   ID
}

// ID is algo.ID, shortened.
type ID = algo.ID

// KindToken is the one message kind: TOKEN(j) carries node j's id round the ring.
const KindToken = "TOKEN"

// Info is the algorithm's entry in the registry: what it is called, what it sends, where it
// runs, what it promises, what it costs.
func Info() *algo.Info {
	return &algo.Info{
		Name:       "lelann",
		Summary:    "Le Lann's ring election (1977): every id goes all the way round",
		Kinds:      []string{KindToken},
		Topologies: []string{algo.UniRing},
		Winner:     algo.Highest,
		New:        func(id ID, c *algo.Cluster) algo.Node { return &LeLann{id: id, next: c.Succ(id)} },
		Guarantees: []algo.Guarantee{{Property: "at-most-one-leader", Faults: "yyn-yy-",
			Why: "a node that restarts forgets the ids it saw, and may see its own come back as the highest"}},
		Theory: &algo.Theory{Bound: "n²", Messages: func(n int) float64 { return float64(n * n) }},
	}
}

// Start: "send TOKEN(me) to my successor."
func (l *LeLann) Start(env algo.Env) {
	l.status, l.best = algo.Candidate, l.id
	if l.next == l.id { // alone on the ring
		l.status, l.leader = algo.Leader, l.id
		return
	}
	env.Send(l.next, algo.Message{Kind: KindToken, Value: l.id})
}

// Receive: "on TOKEN(j): if j = me, it has been all the way round — I lead if I am the highest
// I have seen, else the highest I have seen leads. Else remember j if it is higher, and pass it
// on."
func (l *LeLann) Receive(env algo.Env, m algo.Message) {
	j := m.Value
	if j == l.id {
		l.leader = l.best
		l.status = algo.Follower
		if l.best == l.id {
			l.status = algo.Leader
		}
		if env.Tracing() {
			env.Note("TOKEN(%d) came back: %d is the highest id", j, l.best)
		}
		return
	}
	l.best = max(l.best, j)
	env.Send(l.next, algo.Message{Kind: KindToken, Value: j})
}

// Timer, Elect: Le Lann sets no timers and elects once, from boot.
func (l *LeLann) Timer(algo.Env, string) {}
func (l *LeLann) Elect(algo.Env)         {}

// State reports the node's status and the leader it knows of.
func (l *LeLann) State() algo.State { return algo.State{Status: l.status, Leader: l.leader} }

// Clone returns a copy: LeLann holds no references.
func (l *LeLann) Clone() algo.Node { c := *l; return &c }

// AppendState writes everything that can change what the node does: its id, status, the
// highest id seen and its leader. Its successor follows from its id.
func (l *LeLann) AppendState(b []byte, _ time.Duration) []byte {
	b = append(b, byte(l.status))
	for _, id := range []ID{l.id, l.best, l.leader} {
		b = binary.AppendVarint(b, int64(id))
	}
	return b
}
