package sim

import (
	"maps"
	"math/rand/v2"
	"slices"
	"time"
	"unsafe"

	"electsim/algo"
)

// Clone returns an independent copy of the run as it stands between two steps, on the same
// engine: the copy and the original, each stepped on, give exactly the trace and summary the
// original alone would have given — byte for byte — and neither changes the other. Everything
// that changes as a run goes is copied: the clock and step count, the event queue (messages in
// flight, timers, actions to come), what paused nodes hold, every node's state, timers, random
// source and stable storage, the network's partitions, cuts, per-link settings, FIFO
// bookkeeping and random source, the monitors and metrics, the actions scheduled so far. What
// the run was made from and nobody changes — its Config, the cluster, the algorithm's timing —
// is shared.
//
// A copy is how the TUI keeps checkpoints to step back to, and how an explorer tries one branch
// of a run after another. On the goroutine engine a copy has goroutines of its own, each started
// when its node is first handed an input in the copy: a copy kept as a checkpoint costs memory,
// not goroutines, and one stepped a little starts a few. Close a copy that is not run to its
// end, as any run. The copy of a run that has ended has ended too.
//
// Clone panics if a node panicked in an earlier step (the run cannot go on; see Step).
func (s *Sim) Clone() *Sim {
	if s.busy {
		panic("sim: a node panicked in an earlier step; this run cannot go on")
	}
	c := &Sim{
		// What the run was made from, never changed: shared.
		cfg: s.cfg, cluster: s.cluster, edges: s.edges,

		// Values.
		crashes: s.crashes, now: s.now, steps: s.steps, done: s.done, tracing: s.tracing,
		instant: s.instant, inputs: s.inputs, inputsAt: s.inputsAt, stepAfter: s.stepAfter, halted: s.halted, elected: s.elected, sent: s.sent, phases: s.phases, cur: s.cur, curLog: s.curLog,
		until: s.until, stopped: s.stopped, memory: s.memory,
		haltAction: s.haltAction, // never changed once set

		// Copies.
		netRand:    s.netRand.clone(),
		epochs:     slices.Clone(s.epochs),
		clocks:     slices.Clone(s.clocks),
		actions:    slices.Clone(s.actions), // an Action is never changed once scheduled
		mid:        slices.Clone(s.mid),
		q:          s.q.clone(),
		logs:       s.logs.clone(),
		timerNames: slices.Clone(s.timerNames),
		timerSet:   cloneTimerSet(s.timerSet),
		metrics:    s.metrics.clone(),
		chooser:    s.chooser.clone(),

		// What a node's call in progress fills, empty between steps: room of their own.
		outbox:   make([]outgoing, 0, cap(s.outbox)),
		timerbox: make([]timerPush, 0, cap(s.timerbox)),
	}
	c.net = s.net.Clone(&c.netRand.r)
	c.nodes = make([]nodeRec, len(s.nodes))
	for i := range s.nodes {
		n, cn := &s.nodes[i], &c.nodes[i]
		*cn = *n // its state as reported, flags and timers
		cn.env = nodeEnv{s: c, n: cn}
		if n.node != nil {
			cn.node = n.node.Clone()
		}
	}
	if s.side != nil {
		c.side = make([]nodeSide, len(s.side))
		for i := range s.side {
			side, cside := &s.side[i], &c.side[i]
			// What the goroutine engine hands a node's goroutine is the copy's own, made
			// when its goroutines start; what the node keeps is copied.
			cside.more = slices.Clone(side.more)
			cside.held = slices.Clone(side.held) // slab indices: the copied queue's are the same
			cside.rng = side.rng.clone()
			cside.pinned = side.pinned
			cside.disk = maps.Clone(side.disk)
		}
	}
	if s.prefetcher.states != nil {
		c.prefetcher.states = make([]unsafe.Pointer, len(c.nodes))
		for i := range c.nodes {
			c.newState(&c.nodes[i])
		}
	}
	c.monitor = s.monitor.clone(c)
	if s.cfg.Engine == Goroutine {
		c.handback = make(chan struct{})
		c.holder = c.handback
	}
	return c
}

// pcgRand is a random source a copy of the run can copy: the *rand.Rand handed out, and the PCG
// it draws from, whose state is two numbers.
type pcgRand struct {
	r   rand.Rand
	pcg rand.PCG
}

func newPCGRand(seed, stream uint64) *pcgRand {
	p := &pcgRand{pcg: *rand.NewPCG(seed, stream)}
	p.r = *rand.New(&p.pcg)
	return p
}

// clone returns a source that draws what p would draw next; nil for nil.
func (p *pcgRand) clone() *pcgRand {
	if p == nil {
		return nil
	}
	c := &pcgRand{pcg: p.pcg}
	c.r = *rand.New(&c.pcg)
	return c
}

// clone returns a copy of the queue: the same events under the same slab indices, in lanes
// and a heap of the same shape. The spare lane blocks are not copied: the copy makes its own.
func (q *queue) clone() queue {
	c := queue{heap: slices.Clone(q.heap), used: q.used, free: slices.Clone(q.free), seq: q.seq, n: q.n,
		slabBytes: q.slabBytes, blockBytes: q.blockBytes} // the copy's blocks are the same sizes
	c.slab = make([][]event, len(q.slab))
	for k, b := range q.slab {
		c.slab[k] = make([]event, len(b))
		copy(c.slab[k], b)
	}
	for i := range q.lanes {
		c.lanes[i] = q.lanes[i].clone()
	}
	return c
}

// clone returns a copy of the lane with blocks of its own, of the same sizes.
func (l *lane) clone() lane {
	c := *l
	c.first, c.last = nil, nil
	var prev *keyBlock
	for b := l.first; b != nil; b = b.next {
		nb := &keyBlock{keys: slices.Clone(b.keys)}
		if prev == nil {
			c.first = nb
		} else {
			prev.next = nb
		}
		prev = nb
		if b == l.last {
			c.last = nb
			break
		}
	}
	return c
}

func (m *metrics) clone() metrics {
	c := *m
	c.kinds = slices.Clone(m.kinds)
	c.sent, c.delivered, c.dropped = slices.Clone(m.sent), slices.Clone(m.delivered), slices.Clone(m.dropped)
	return c
}

// clone returns a copy of the monitor for the copy s of its run. The roles are read only once
// the run is made: shared.
func (m *monitor) clone(s *Sim) monitor {
	c := *m
	c.s = s
	c.watchers = make([]watcher, len(m.watchers))
	c.nodeWatchers = nil
	for i, w := range m.watchers {
		c.watchers[i] = watcher{property: w.property, judge: w.judge.Clone()}
		if nw, ok := c.watchers[i].judge.(algo.NodeWatcher); ok {
			c.nodeWatchers = append(c.nodeWatchers, nodeWatcher{w.property, nw})
		}
	}
	if m.split != nil {
		v := *m.split
		v.Nodes = slices.Clone(v.Nodes)
		c.split = &v
	}
	c.termLeader = maps.Clone(m.termLeader)
	c.belief = slices.Clone(m.belief)
	c.recoveries = slices.Clone(m.recoveries)
	c.groups = slices.Clone(m.groups)
	for i, g := range c.groups {
		c.groups[i].Joining = slices.Clone(g.Joining)
		c.groups[i].Groups = slices.Clone(g.Groups)
		for j := range g.Groups {
			c.groups[i].Groups[j].Members = slices.Clone(g.Groups[j].Members)
		}
	}
	c.violations = slices.Clone(m.violations)
	for i := range c.violations {
		c.violations[i].Nodes = slices.Clone(c.violations[i].Nodes)
	}
	return c
}

// cloneTimerSet returns a deep copy of when each node set each timer; nil for nil.
func cloneTimerSet(t [][]time.Duration) [][]time.Duration {
	if t == nil {
		return nil
	}
	c := make([][]time.Duration, len(t))
	for i, set := range t {
		c[i] = slices.Clone(set)
	}
	return c
}
