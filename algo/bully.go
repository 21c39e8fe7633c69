package algo

import (
	"fmt"
	"time"
)

// Bully is the bully algorithm of H. Garcia-Molina, "Elections in a Distributed Computing
// System", IEEE Transactions on Computers C-31(1), 1982: the live node with the highest id
// becomes the coordinator (the leader). It relies on timeouts, so it is correct only while the
// network delivers within known bounds and crashed nodes stay crashed.
//
// The rules are those of docs/algorithms.md (Bully); each method quotes the rule it implements.
type Bully struct {
	id     ID
	all    []ID // every node, ascending
	higher []ID // the nodes with a higher id than mine, ascending
	cfg    *bullyConfig
	st     State
}

// The message kinds of Bully besides ELECTION and HEARTBEAT, which Ring sends too (common.go).
const (
	KindOK          = "OK"
	KindCoordinator = "COORDINATOR"
)

// timerCoordinator is Bully's wait for COORDINATOR after an OK (its other timers are in
// common.go).
const timerCoordinator = "coordinator"

type bullyConfig struct {
	heartbeat, timeout, answer, coordinator time.Duration
}

// Bully's own parameters, with their defaults (docs/algorithms.md).
var (
	paramAnswerTimeout = Param{Key: "answer-timeout", Kind: DurationParam, Default: "50ms",
		Help: "wait this long for an answer to an election message; must exceed 2× the max delay"}
	paramCoordinatorTimeout = Param{Key: "coordinator-timeout", Kind: DurationParam, Default: "150ms",
		Help: "after an OK, wait this long for COORDINATOR, else start again"}
)

func bullyInfo() *Info {
	return &Info{
		Name:     "bully",
		Summary:  "Garcia-Molina's bully election (1982): the highest live id wins",
		Kinds:    []string{KindElection, KindOK, KindCoordinator, KindHeartbeat},
		Routine:  []string{KindHeartbeat},
		Params:   []Param{paramHeartbeat, paramTimeout, paramAnswerTimeout, paramCoordinatorTimeout},
		Recovers: true,
		Winner:   Highest,
		Guarantees: []Guarantee{{Property: "at-most-one-leader", Faults: "yynnnnn",
			Why: "a node that hears nothing from the higher ids — recovered, cut off, slow, paused — declares itself while they lead"}},
		New: func(id ID, c *Cluster) Node {
			return NewBully(id, c)
		},
		Warnings: func(c *Cluster) []string {
			cfg := newBullyConfig(c)
			return timingWarnings(c, cfg.heartbeat, cfg.timeout, cfg.answer, "OK")
		},
	}
}

func newBullyConfig(c *Cluster) *bullyConfig {
	return sharedConfig(c, "bully", makeBullyConfig)
}

func makeBullyConfig(c *Cluster) *bullyConfig {
	p := c.Params
	return &bullyConfig{
		heartbeat:   p.Duration("heartbeat", 50*time.Millisecond),
		timeout:     p.Duration("timeout", 150*time.Millisecond),
		answer:      p.Duration("answer-timeout", 50*time.Millisecond),
		coordinator: p.Duration("coordinator-timeout", 150*time.Millisecond),
	}
}

// NewBully returns node id of cluster c, not yet started.
func NewBully(id ID, c *Cluster) *Bully {
	i := c.Index(id)
	if i < 0 {
		panic(fmt.Sprintf("algo: node %d is not in the cluster", id))
	}
	return &Bully{id: id, all: c.Sorted, higher: c.Sorted[i+1:], cfg: newBullyConfig(c)}
}

var _ Node = (*Bully)(nil)

// State reports the node's status, the coordinator it follows (0 if none) and term 0.
func (b *Bully) State() State { return b.st }

// Start: "Boot / recover: start an election."
func (b *Bully) Start(env Env) {
	b.startElection(env, "booted")
}

// Elect: "`elect`: start an election."
func (b *Bully) Elect(env Env) {
	b.startElection(env, "asked to elect")
}

// startElection: "Status Candidate. If no node has a higher id, become leader. Otherwise send
// ELECTION to every higher id and set answer-timeout."
func (b *Bully) startElection(env Env, why string) {
	env.CancelTimer(timerCoordinator)
	env.CancelTimer(timerSuspect)
	env.CancelTimer(timerHeartbeat)
	b.st = State{Status: Candidate}
	if len(b.higher) == 0 {
		b.becomeLeader(env, why+": no node has a higher id → I am the coordinator")
		return
	}
	for _, h := range b.higher {
		env.Send(h, Message{Kind: KindElection})
	}
	env.SetTimer(timerAnswer, b.cfg.answer)
	if env.Tracing() {
		env.Note("%s: election — ELECTION to the %s, waiting %s for an OK",
			why, countIDs(len(b.higher), "higher id"), FormatDuration(b.cfg.answer))
	}
}

// becomeLeader: "Status Leader, leader = me; send COORDINATOR to every other node; send
// HEARTBEAT to every other node every heartbeat."
func (b *Bully) becomeLeader(env Env, why string) {
	env.CancelTimer(timerAnswer)
	env.CancelTimer(timerCoordinator)
	env.CancelTimer(timerSuspect)
	b.st = State{Status: Leader, Leader: b.id}
	b.sendAll(env, KindCoordinator)
	env.SetTimer(timerHeartbeat, b.cfg.heartbeat)
	if env.Tracing() {
		env.Note("%s", why)
	}
}

// follow makes k my coordinator and resets my patience with it.
func (b *Bully) follow(env Env, k ID, why string) {
	env.SetTimer(timerSuspect, b.cfg.timeout)
	if b.st.Status == Follower && b.st.Leader == k {
		if why != KindHeartbeat && env.Tracing() {
			env.Note("%s from %d: already my coordinator", why, k)
		}
		return // a routine heartbeat from my coordinator
	}
	env.CancelTimer(timerAnswer)
	env.CancelTimer(timerCoordinator)
	env.CancelTimer(timerHeartbeat)
	wasLeader := b.st.Status == Leader
	b.st = State{Status: Follower, Leader: k}
	if env.Tracing() {
		if wasLeader {
			env.Note("%s from %d, higher than me: I step down and follow %d", why, k, k)
		} else {
			env.Note("%s from %d: %d is my coordinator", why, k, k)
		}
	}
}

func (b *Bully) sendAll(env Env, kind string) {
	for _, j := range b.all {
		if j != b.id {
			env.Send(j, Message{Kind: kind})
		}
	}
}

// Receive handles ELECTION, OK, COORDINATOR and HEARTBEAT.
func (b *Bully) Receive(env Env, m Message) {
	switch m.Kind {
	case KindElection:
		b.onElection(env, m.From)
	case KindOK:
		b.onOK(env, m.From)
	case KindCoordinator, KindHeartbeat:
		b.onLeader(env, m.Kind, m.From)
	}
}

// onElection: "On ELECTION from lower j: send OK to j. If I am Leader, also send COORDINATOR to
// j. Otherwise, if I am not a Candidate, start an election."
func (b *Bully) onElection(env Env, j ID) {
	if j > b.id {
		return // only lower nodes send me ELECTION; a higher one never asks me
	}
	env.Send(j, Message{Kind: KindOK})
	switch b.st.Status {
	case Leader:
		env.Send(j, Message{Kind: KindCoordinator})
		if env.Tracing() {
			env.Note("ELECTION from lower %d: OK, and COORDINATOR because I lead", j)
		}
	case Candidate:
		if env.Tracing() {
			env.Note("ELECTION from lower %d: OK (I am already electing)", j)
		}
	default:
		b.startElection(env, fmt.Sprintf("ELECTION from lower %d: OK, and I take over", j))
	}
}

// onOK: "On OK: cancel the answer timer; stay Candidate; set coordinator-timeout."
func (b *Bully) onOK(env Env, k ID) {
	if b.st.Status != Candidate {
		if env.Tracing() {
			env.Note("OK from %d arrives after my election ended: ignored", k)
		}
		return
	}
	env.CancelTimer(timerAnswer)
	env.SetTimer(timerCoordinator, b.cfg.coordinator)
	if env.Tracing() {
		env.Note("OK from %d: a higher node is alive; waiting %s for its COORDINATOR",
			k, FormatDuration(b.cfg.coordinator))
	}
}

// onLeader: "On COORDINATOR or HEARTBEAT from k:
//   - k > me: follow k if I have no leader, or k ≥ my leader. A Leader that hears of a higher
//     leader steps down and follows it.
//   - k < me: if I am Leader, send COORDINATOR to k (it will step down). Else, if I am not a
//     Candidate and have no leader above me, start an election."
func (b *Bully) onLeader(env Env, kind string, k ID) {
	switch {
	case k > b.id:
		if b.st.Leader == 0 || k >= b.st.Leader {
			b.follow(env, k, kind)
		} else if env.Tracing() {
			env.Note("%s from %d: ignored, I follow %d, which is higher", kind, k, b.st.Leader)
		}
	case k < b.id:
		if b.st.Status == Leader {
			env.Send(k, Message{Kind: KindCoordinator})
			if env.Tracing() {
				env.Note("%s from lower %d: I lead, so I tell it with COORDINATOR", kind, k)
			}
		} else if b.st.Status != Candidate && b.st.Leader < b.id {
			b.startElection(env, fmt.Sprintf("%s from lower %d", kind, k))
		} else if env.Tracing() {
			env.Note("%s from lower %d: ignored, I am electing or follow a higher node", kind, k)
		}
	}
}

// Timer handles the four timers of Bully.
func (b *Bully) Timer(env Env, name string) {
	switch name {
	case timerAnswer:
		// "Answer timer fires: become leader."
		if b.st.Status == Candidate {
			b.becomeLeader(env, fmt.Sprintf("no OK within %s → I am the coordinator", FormatDuration(b.cfg.answer)))
		}
	case timerCoordinator:
		// "Coordinator timer fires: start an election."
		if b.st.Status == Candidate {
			b.startElection(env, fmt.Sprintf("no COORDINATOR within %s of an OK", FormatDuration(b.cfg.coordinator)))
		}
	case timerHeartbeat:
		// "send HEARTBEAT to every other node every heartbeat."
		if b.st.Status == Leader {
			b.sendAll(env, KindHeartbeat)
			env.SetTimer(timerHeartbeat, b.cfg.heartbeat)
		}
	case timerSuspect:
		// "Suspicion timer fires (Follower, no HEARTBEAT from the leader for timeout): start an
		// election."
		if b.st.Status == Follower {
			b.startElection(env, fmt.Sprintf("no HEARTBEAT from %d for %s → I suspect it", b.st.Leader, FormatDuration(b.cfg.timeout)))
		}
	}
}

// countIDs writes "1 higher id" or "4 higher ids".
func countIDs(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// --- Copying and fingerprinting a node (Node.Clone, Node.AppendState): checkpoints, exploration

// Clone returns a copy of the node. Its lists of ids and its timing are the cluster's, shared.
func (b *Bully) Clone() Node {
	c := *b
	return &c
}

// AppendState writes the node's id and what it reports: a Bully node keeps nothing else — no
// times, no rounds. Its lists of ids follow from its id.
func (b *Bully) AppendState(buf []byte, now time.Duration) []byte {
	buf = appendID(buf, b.id)
	return appendNodeState(buf, b.st)
}
