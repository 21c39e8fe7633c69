package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
	"unsafe"

	"electsim/algo"
	"electsim/network"
)

type nodeEnv struct {
	s *Sim
	n *nodeRec
}

var _ algo.Env = (*nodeEnv)(nil)

// Now is the node's own clock (clock.go): the true time unless a clock action set its rate.
func (e *nodeEnv) Now() time.Duration { return e.s.localNow(e.n.idx) }

// Send puts m in the outbox, with the ordinal of its place among the run's events: the engine
// sends it when the node's call returns (flush). Sending from the node's call itself would run
// the network and the queue on the node's goroutine, on top of the algorithm's frames.
func (e *nodeEnv) Send(to algo.ID, m algo.Message) {
	s := e.s
	ti := int32(s.cluster.Index(to))
	if ti < 0 {
		s.badSend(e.n, to, &m)
		return
	}
	if len(s.outbox) == cap(s.outbox) {
		s.growOutbox()
	}
	s.outbox = s.outbox[:len(s.outbox)+1]
	o := &s.outbox[len(s.outbox)-1]
	// Field by field: a composite literal is built on the stack first, and the stack of a
	// node's goroutine is to stay within its first 2KB.
	o.ord, o.value, o.term, o.to, o.flag = s.q.next(classRuntime), m.Value, m.Term, ti, m.Flag
	o.phase, o.hop, o.log = m.Phase, m.Hop, m.Log
	o.kind = s.metrics.kindOf(m.Kind)
}

// badSend stops the run: n sent m to to, an id that is not in the cluster — a bug of the
// algorithm's, reported like a send along no edge (offEdge). The message goes nowhere.
//
//go:noinline
func (s *Sim) badSend(n *nodeRec, to algo.ID, m *algo.Message) {
	if s.halted == "" {
		from := s.nodeID(n)
		out := *m
		out.From, out.To = from, to
		s.halted = fmt.Sprintf("node %d sent %s to node %d, but no node of the cluster has id %d: %s sends only to the ids in Cluster.Ring",
			from, out.Label(), to, to, s.cfg.Algorithm.Name)
	}
}

// growOutbox makes room in the outbox, out of line: Send stays small on a node's stack.
//
//go:noinline
func (s *Sim) growOutbox() {
	s.outbox = slices.Grow(s.outbox, max(16, cap(s.outbox)))
}

// outgoing is a message a node sent during the call in progress: no pointers, so that keeping
// it costs the garbage collector nothing.
type outgoing struct {
	ord   uint64 // its ordinal, taken when it was sent
	value algo.ID
	term  uint64
	to    int32  // the receiver's index
	kind  uint16 // index in the run's kind table
	flag  bool
	phase uint32
	hop   uint32
	log   *algo.LogPart
}

// flush sends what n sent during its call, in order, with the ordinals taken then: the run is
// the same as if each had been sent at once.
func (s *Sim) flush(n *nodeRec) {
	for _, t := range s.timerbox {
		s.q.pushOrd(t.at, t.ord, event{kind: evTimer, node: n.idx, gen: t.gen, which: t.slot})
	}
	s.timerbox = s.timerbox[:0]
	for i := range s.outbox {
		s.send(n, &s.outbox[i])
	}
	s.outbox = s.outbox[:0]
}

// send hands n's message o to the network, and queues its delivery with the ordinal the node's
// Send took, unless the network drops it at once. flush calls it after n's call.
func (s *Sim) send(n *nodeRec, o *outgoing) {
	from, to := s.idOf(n.idx), s.idOf(o.to)
	s.metrics.sent[o.kind]++
	s.sent++
	s.phases = max(s.phases, o.phase)
	if s.sent >= s.memory.next {
		s.checkMemory()
	}
	if s.monitor.watchers != nil {
		s.monitor.sent(s.outMessage(from, to, o))
	}
	if s.edges != nil && !s.edges.HasEdge(from, to) {
		s.offEdge(from, to, o)
		return
	}
	if s.chooser != nil && s.net.Blocked(from, to) == network.Delivered && s.choose(n.idx, o.to) {
		s.metrics.dropped[o.kind]++ // lost by an explorer's choice, as a drop of 100% on the link
		if s.tracing {
			s.traceMsg(RecSend, s.outMessage(from, to, o), 0, network.Loss)
		}
		return
	}
	at, reason := s.net.Send(s.now, from, to)
	if reason != network.Delivered {
		s.metrics.dropped[o.kind]++
		if s.tracing {
			s.traceMsg(RecSend, s.outMessage(from, to, o), 0, reason)
		}
		return
	}
	e := s.q.add(at, o.ord, o.to)
	// Field by field: a composite literal is built aside and copied.
	e.kind, e.flag, e.msgKind, e.from, e.epoch = evDeliver, o.flag, o.kind, n.idx, s.crashes
	e.gen, e.which, e.value, e.term = flightCode(at-s.now), s.logs.put(o.log)<<1, o.value, o.term
	e.phase, e.hop = o.phase, o.hop
	if s.tracing {
		s.traceMsg(RecSend, s.outMessage(from, to, o), at, network.Delivered)
	}
}

// offEdge stops the run: from sent o to a node it has no edge to. The message goes nowhere.
//
//go:noinline
func (s *Sim) offEdge(from, to algo.ID, o *outgoing) {
	if s.halted == "" {
		s.halted = fmt.Sprintf("node %d sent %s to node %d, but the %s topology has no edge %d→%d: %s sends only to a node's neighbours",
			from, s.outMessage(from, to, o).Label(), to, s.edges.Name(), from, to, s.cfg.Algorithm.Name)
	}
}

// outMessage rebuilds the message o that from sent to.
func (s *Sim) outMessage(from, to algo.ID, o *outgoing) algo.Message {
	return algo.Message{Kind: s.metrics.kinds[o.kind], From: from, To: to, Value: o.value, Term: o.term, Flag: o.flag, Phase: o.phase, Hop: o.hop, Log: o.log}
}

// SetTimer arms the node's timer name to fire after the given time, replacing it if armed. The
// slot is updated at once — a CancelTimer or another SetTimer in the same call sees it — and the
// event, when one is needed, is queued when the call returns (flush), with the ordinal taken now.
func (e *nodeEnv) SetTimer(name string, after time.Duration) {
	n, q := e.n, &e.s.q
	i := e.s.timerIndex(name)
	ts := e.s.timer(n, i)
	ts.armed = true
	ts.deadline = e.s.now + e.s.localSpan(n.idx, max(after, 0)) // on the node's own clock
	ts.ord = q.next(classRuntime)
	if e.s.timerSet != nil {
		e.s.noteTimerSet(n.idx, i)
	}
	if ts.queued && ts.queuedAt <= ts.deadline {
		return // the queued event comes up first and re-queues itself at the deadline
	}
	ts.gen++
	ts.queued, ts.queuedAt = true, ts.deadline
	// Queued when the call returns (flush), like a send: the queue is not the node's business
	// on its own stack. Its place in the order is its ordinal, taken now.
	s := e.s
	if len(s.timerbox) == cap(s.timerbox) {
		s.growTimerbox()
	}
	s.timerbox = append(s.timerbox, timerPush{at: ts.deadline, ord: ts.ord, slot: i, gen: ts.gen})
}

// timerPush is a timer event to queue when the node's call returns.
type timerPush struct {
	at   time.Duration
	ord  uint64
	slot int32
	gen  uint32
}

// growTimerbox makes room in the timer box, out of line; see growOutbox.
//
//go:noinline
func (s *Sim) growTimerbox() {
	s.timerbox = slices.Grow(s.timerbox, max(16, cap(s.timerbox)))
}

func (e *nodeEnv) CancelTimer(name string) {
	for i, known := range e.s.timerNames {
		if sameString(known, name) {
			e.s.timer(e.n, int32(i)).armed = false
			return
		}
	}
}

func (e *nodeEnv) Rand() *rand.Rand {
	side := e.s.sideOf(e.n.idx)
	if side.rng == nil {
		side.rng = newPCGRand(e.s.cfg.Seed, streamNode^uint64(e.s.nodeID(e.n))*0x9e3779b97f4a7c15)
	}
	return &side.rng.r
}

func (e *nodeEnv) Tracing() bool { return e.s.tracing }

func (e *nodeEnv) Store(key string, v uint64) {
	side := e.s.sideOf(e.n.idx)
	if side.disk == nil {
		side.disk = map[string]uint64{}
	}
	side.disk[key] = v
}

func (e *nodeEnv) Load(key string) (uint64, bool) {
	v, ok := e.s.sideOf(e.n.idx).disk[key]
	return v, ok
}

func (e *nodeEnv) Note(format string, args ...any) {
	if e.s.tracing {
		e.s.notes = append(e.s.notes, fmt.Sprintf(format, args...))
	}
}

// timerIndex returns the index of the timer name among the run's timer names, adding it if new:
// every node keeps its timer of that name in the slot of that index.
func (s *Sim) timerIndex(name string) int32 {
	for i, known := range s.timerNames {
		if sameString(known, name) {
			return int32(i)
		}
	}
	s.timerNames = append(s.timerNames, name)
	return int32(len(s.timerNames) - 1)
}

// sameString reports whether a == b, comparing where they point first: the kinds and timer
// names an algorithm passes are its constants, the very strings in the run's tables.
func sameString(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}
