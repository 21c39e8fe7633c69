package algo

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// LowestID is the simplest leader election there is, and the one many real systems use: every
// node broadcasts a HEARTBEAT every `heartbeat`, keeps a view of the nodes it has heard from
// within `timeout`, and takes the lowest id in its view as leader. There are no election
// messages at all.
//
// It is safe under crashes and recoveries while every delay stays below `timeout`: a node
// drops a crashed leader from its view only after `timeout`, and a recovering node listens for
// `timeout` before it chooses, by which time every live node has heard it. A partition splits
// it by design: each side elects its own lowest id.
//
// The rules are those of docs/algorithms.md (Lowest-ID); each method quotes the rule it
// implements.
type LowestID struct {
	id        ID
	all       []ID // every node, ascending
	cfg       *lowestIDConfig
	st        State
	listening bool            // just booted: still hearing who is there
	heard     []time.Duration // by place in all: when each node was last heard from, notHeard if not since it left my view
}

// notHeard marks a node that is not in my view: not heard from since boot, or dropped from it.
const notHeard = time.Duration(-1)

// Timer names of LowestID (it also uses heartbeat).
const timerListen = "listen"

type lowestIDConfig struct {
	heartbeat, timeout time.Duration
}

func lowestIDInfo() *Info {
	return &Info{
		Name:    "lowest-id",
		Summary: "every node heartbeats; the lowest id heard from within timeout leads — no election messages",
		Kinds:   []string{KindHeartbeat},
		Routine: []string{KindHeartbeat},
		Params: []Param{
			{Key: "heartbeat", Kind: DurationParam, Default: "50ms",
				Help: "every node sends HEARTBEAT to every other node at this interval"},
			{Key: "timeout", Kind: DurationParam, Default: "150ms",
				Help: "a node leaves my view after this long without a HEARTBEAT; a booting node listens this long before choosing"},
		},
		Recovers: true,
		Winner:   Lowest,
		Guarantees: []Guarantee{{Property: "at-most-one-leader", Faults: "yyynnn-",
			Why: "a node that stops hearing the lower ids — cut off, slow, paused — leads while they do"}},
		New: func(id ID, c *Cluster) Node { return NewLowestID(id, c) },
		Warnings: func(c *Cluster) []string {
			cfg := newLowestIDConfig(c)
			if cfg.timeout <= cfg.heartbeat+c.MaxDelay {
				return []string{fmt.Sprintf("timeout %s is not more than heartbeat %s + the max delay %s: nodes will drop live nodes from their view, and more than one may lead",
					FormatDuration(cfg.timeout), FormatDuration(cfg.heartbeat), FormatDuration(c.MaxDelay))}
			}
			return nil
		},
	}
}

func newLowestIDConfig(c *Cluster) *lowestIDConfig {
	return sharedConfig(c, "lowest-id", makeLowestIDConfig)
}

func makeLowestIDConfig(c *Cluster) *lowestIDConfig {
	return &lowestIDConfig{
		heartbeat: c.Params.Duration("heartbeat", 50*time.Millisecond),
		timeout:   c.Params.Duration("timeout", 150*time.Millisecond),
	}
}

// NewLowestID returns node id of cluster c, not yet started.
func NewLowestID(id ID, c *Cluster) *LowestID {
	if c.Index(id) < 0 {
		panic(fmt.Sprintf("algo: node %d is not in the cluster", id))
	}
	return &LowestID{id: id, all: c.Sorted, cfg: newLowestIDConfig(c)}
}

var _ Node = (*LowestID)(nil)

// State reports the node's status, the leader it has chosen (0 while listening) and term 0.
func (l *LowestID) State() State { return l.st }

// Start: "For timeout after boot a node is a Candidate (it is still listening)." It heartbeats
// from the first moment, so that the others hear it.
func (l *LowestID) Start(env Env) {
	l.st = State{Status: Candidate}
	l.listening = true
	l.heard = make([]time.Duration, len(l.all))
	for i := range l.heard {
		l.heard[i] = notHeard
	}
	l.heartbeat(env)
	env.SetTimer(timerListen, l.cfg.timeout)
	if env.Tracing() {
		env.Note("booted: I listen for %s before I choose a leader", FormatDuration(l.cfg.timeout))
	}
}

// Elect has no election to start: the node looks at its view again now.
func (l *LowestID) Elect(env Env) {
	if l.listening {
		if env.Tracing() {
			env.Note("asked to elect: lowest-id has no elections, and I am still listening")
		}
		return
	}
	before := l.st
	l.choose(env, "asked to elect: lowest-id has no elections, I look at my view again")
	if l.st == before && env.Tracing() {
		env.Note("asked to elect: lowest-id has no elections; my view still says %d leads", l.st.Leader)
	}
}

// heartbeat: "Every node sends HEARTBEAT to every other node each heartbeat."
func (l *LowestID) heartbeat(env Env) {
	for _, j := range l.all {
		if j != l.id {
			env.Send(j, Message{Kind: KindHeartbeat})
		}
	}
	env.SetTimer(timerHeartbeat, l.cfg.heartbeat)
}

// Receive: a HEARTBEAT puts its sender in my view. A sender lower than my leader changes who
// leads at once; other changes to the view show at the next heartbeat.
func (l *LowestID) Receive(env Env, m Message) {
	if m.Kind != KindHeartbeat {
		return
	}
	if i, ok := slices.BinarySearch(l.all, m.From); ok {
		l.heard[i] = env.Now()
	}
	if !l.listening && m.From < l.st.Leader {
		l.choose(env, fmt.Sprintf("HEARTBEAT from %d, lower than my leader %d", m.From, l.st.Leader))
	}
}

// Timer handles the heartbeat and the end of listening.
func (l *LowestID) Timer(env Env, name string) {
	switch name {
	case timerHeartbeat:
		l.heartbeat(env)
		if !l.listening {
			l.choose(env, "")
		}
	case timerListen:
		l.listening = false
		l.choose(env, fmt.Sprintf("listened for %s", FormatDuration(l.cfg.timeout)))
	}
}

// choose: "A node's view is itself plus every node heard from within timeout. [...] its leader
// is the lowest id in its view, and it is Leader iff that is itself."
func (l *LowestID) choose(env Env, why string) {
	now := env.Now()
	lowest := l.id
	view := 1 // me
	var dropped []ID
	for i, t := range l.heard {
		j := l.all[i]
		switch {
		case t == notHeard || j == l.id:
		case now-t > l.cfg.timeout:
			l.heard[i] = notHeard
			dropped = append(dropped, j)
		default:
			view++
			lowest = min(lowest, j)
		}
	}
	st := State{Status: Follower, Leader: lowest}
	if lowest == l.id {
		st.Status = Leader
	}
	if st == l.st {
		return
	}
	l.st = st
	if env.Tracing() {
		var reasons []string
		if why != "" {
			reasons = append(reasons, why)
		}
		if len(dropped) > 0 {
			reasons = append(reasons, fmt.Sprintf("no HEARTBEAT from %s for %s", AndList(dropped), FormatDuration(l.cfg.timeout)))
		}
		who := fmt.Sprintf("%d leads", lowest)
		if lowest == l.id {
			who = "I lead"
		}
		env.Note("%s: %d is the lowest id in my view of %d nodes → %s",
			strings.Join(reasons, "; "), lowest, view, who)
	}
}

// --- Copying and fingerprinting a node (Node.Clone, Node.AppendState): checkpoints, exploration

// Clone returns a copy of the node with a view of its own; the list of ids and the timing are
// shared.
func (l *LowestID) Clone() Node {
	c := *l
	c.heard = slices.Clone(l.heard)
	return &c
}

// AppendState writes what the node reports, whether it is still listening, and its view: for
// each node, how long ago it was last heard — or -1 for one not in the view, or heard longer
// ago than timeout, which the node drops from its view when it next looks.
func (l *LowestID) AppendState(b []byte, now time.Duration) []byte {
	b = appendID(b, l.id)
	b = appendNodeState(b, l.st)
	b = appendBool(b, l.listening)
	b = appendUint(b, uint64(len(l.heard)))
	for _, t := range l.heard {
		b = appendRecent(b, t, now, l.cfg.timeout) // notHeard is never, written as -1 too
	}
	return b
}
