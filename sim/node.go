package sim

import (
	"time"

	"electsim/algo"
)

// nodeRec is the engine's record of one node: what nearly every step of the node touches, and
// nothing else (the rest is in nodeSide). Its first cache line holds the node and its state; its
// timers fill the next two (TestNodeRecordLayout; docs/performance.md says why).
type nodeRec struct {
	node   algo.Node  // nil until it boots, and while crashed
	env    nodeEnv    // the Env it is handed
	last   algo.State // the state it last reported (zero while down)
	idx    int32
	down   bool // crashed
	paused bool
	_      [2]byte
	timers [inlineTimers]timerSlot // its timers; slot i is the run's i-th timer name
}

// nodeSide is the rest of the engine's record of a node, in Sim.side: what the goroutine engine
// hands a node's goroutine, first, then what few steps touch.
type nodeSide struct {
	// goroutine engine: a signal on inbox says job is ready. With baton set, the node carries
	// on with the run afterwards (before and record finish the step it was handed); without, it
	// signals replyTo, the goroutine that called it.
	inbox   chan struct{}
	job     job
	record  int // the index of the step's record in Sim.records, or -1
	baton   bool
	before  Status
	replyTo chan struct{}

	more []timerSlot // its timers beyond inlineTimers, if the algorithm has more
	held []int32     // slab indices of inputs that arrived while paused, in order
	rng  *pcgRand    // made on first use
	// pinned are the points its next draws take (Config.Draws); shared with copies, never
	// written, only resliced
	pinned []DrawPoint
	disk   map[string]uint64 // the node's stable storage: a crash does not touch it
}

// inlineTimers is how many timers a node keeps in its record, next to the rest of it: every
// algorithm here uses at most four. Further ones live in a slice.
const inlineTimers = 4

// timer returns n's timer slot i: the slot of the run's i-th timer name.
func (s *Sim) timer(n *nodeRec, i int32) *timerSlot {
	if i < inlineTimers {
		return &n.timers[i]
	}
	return s.moreTimer(n, i)
}

// moreTimer is timer for the slots beyond the record's own.
func (s *Sim) moreTimer(n *nodeRec, i int32) *timerSlot {
	side := s.sideOf(n.idx)
	for int(i-inlineTimers) >= len(side.more) {
		side.more = append(side.more, timerSlot{})
	}
	return &side.more[i-inlineTimers]
}

// sideOf returns the rest of node i's record, making room for every node's on first use: on the
// inline engine a run among many nodes may never need any.
func (s *Sim) sideOf(i int32) *nodeSide {
	if s.side == nil {
		s.side = make([]nodeSide, len(s.nodes))
	}
	return &s.side[i]
}

// nodeID returns n's id.
func (s *Sim) nodeID(n *nodeRec) algo.ID { return s.idOf(n.idx) }

// timerSlot is one timer of a node. Resetting a timer to a later deadline — what a follower
// does on every heartbeat — does not queue a new event: the queued one, when it comes up early,
// re-queues itself at the deadline with the ordinal the reset gave it, so events run in exactly
// the order they would if every reset were queued.
type timerSlot struct {
	deadline time.Duration
	ord      uint64 // the queue ordinal given when it was last set
	queuedAt time.Duration
	gen      uint32 // generation of the queued event; older ones are stale
	armed    bool
	queued   bool // an event for this slot is in the queue, due at queuedAt
}

// status is the node's status as the run sees it.
func (n *nodeRec) status() Status {
	switch {
	case n.down:
		return Crashed
	case n.paused:
		return Paused
	}
	return Status(n.last.Status)
}

// node returns the record of node id, which must be in the cluster.
func (s *Sim) node(id algo.ID) *nodeRec { return &s.nodes[s.cluster.Index(id)] }

// idOf returns the id of node index i.
func (s *Sim) idOf(i int32) algo.ID { return s.cluster.ID(int(i)) }
