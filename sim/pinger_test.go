package sim_test

import (
	"fmt"
	"time"

	"electsim/algo"
)

// pinger is a test algorithm: node `from` sends PING(1), PING(2), ... to node `to` every
// `every`, `count` times, starting at boot; every node sets a "tick" timer at `tick` after
// boot if tick > 0. It never changes status, so the trace shows the network alone.
type pinger struct {
	id    algo.ID
	p     pingPlan
	sent  int
	ticks int
}

type pingPlan struct {
	from, to algo.ID
	count    int
	every    time.Duration
	tick     time.Duration
}

func pingerInfo(p pingPlan) *algo.Info {
	return &algo.Info{
		Name:  "pinger",
		Kinds: []string{"PING"},
		New:   func(id algo.ID, c *algo.Cluster) algo.Node { return &pinger{id: id, p: p} },
	}
}

func (n *pinger) Start(env algo.Env) {
	if n.id == n.p.from && n.p.count > 0 {
		n.ping(env)
	}
	if n.p.tick > 0 {
		env.SetTimer("tick", n.p.tick)
	}
}

func (n *pinger) ping(env algo.Env) {
	n.sent++
	env.Send(n.p.to, algo.Message{Kind: "PING", Value: algo.ID(n.sent)})
	if n.sent < n.p.count {
		env.SetTimer("ping", n.p.every)
	}
}

func (n *pinger) Receive(env algo.Env, m algo.Message) {}

func (n *pinger) Timer(env algo.Env, name string) {
	switch name {
	case "ping":
		n.ping(env)
	case "tick":
		n.ticks++
		if env.Tracing() {
			env.Note("tick %d", n.ticks)
		}
	}
}

func (n *pinger) Elect(env algo.Env) {}
func (n *pinger) State() algo.State  { return algo.State{} }
func (n *pinger) Clone() algo.Node   { c := *n; return &c }
func (n *pinger) AppendState(b []byte, _ time.Duration) []byte {
	return fmt.Appendf(b, "%d %d %d;", n.id, n.sent, n.ticks)
}

// claimer is a test algorithm with terms: at boot, node id claims leadership of term
// claims[id] (if it has one). It lets the tests break one-leader-per-term on purpose.
type claimer struct {
	id     algo.ID
	claims map[algo.ID]uint64
	st     algo.State
}

func claimerInfo(claims map[algo.ID]uint64) *algo.Info {
	return &algo.Info{
		Name:  "claimer",
		Kinds: []string{},
		Terms: true,
		New:   func(id algo.ID, c *algo.Cluster) algo.Node { return &claimer{id: id, claims: claims} },
	}
}

func (n *claimer) Start(env algo.Env) {
	if t, ok := n.claims[n.id]; ok {
		n.st = algo.State{Status: algo.Leader, Leader: n.id, Term: t}
	}
}
func (n *claimer) Receive(env algo.Env, m algo.Message) {}
func (n *claimer) Timer(env algo.Env, name string)      {}
func (n *claimer) Elect(env algo.Env) {
	if n.st.Status == algo.Leader {
		n.st.Term++ // a leader that moves on to the next term, and leads it too
	}
}
func (n *claimer) State() algo.State { return n.st }
func (n *claimer) Clone() algo.Node  { c := *n; return &c } // claims is the test's, read only
func (n *claimer) AppendState(b []byte, _ time.Duration) []byte {
	return fmt.Appendf(b, "%d %v;", n.id, n.st)
}

// looper is a broken algorithm: node 1 sends itself a message with no delay, for ever.
type looper struct{ id algo.ID }

func looperInfo() *algo.Info {
	return &algo.Info{Name: "looper", Kinds: []string{"LOOP"},
		New: func(id algo.ID, c *algo.Cluster) algo.Node { return &looper{id: id} }}
}

func (n *looper) Start(env algo.Env) {
	if n.id == 1 {
		env.Send(1, algo.Message{Kind: "LOOP"})
	}
}
func (n *looper) Receive(env algo.Env, m algo.Message) { env.Send(1, algo.Message{Kind: "LOOP"}) }
func (n *looper) Timer(env algo.Env, name string)      {}
func (n *looper) Elect(env algo.Env)                   {}
func (n *looper) State() algo.State                    { return algo.State{} }
func (n *looper) Clone() algo.Node                     { c := *n; return &c }
func (n *looper) AppendState(b []byte, _ time.Duration) []byte {
	return fmt.Appendf(b, "%d;", n.id)
}
