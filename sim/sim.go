package sim

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"electsim/algo"
	"electsim/network"
)

// Sim is one run in progress. It is not safe for concurrent use: one goroutine drives it.
type Sim struct {
	cfg     Config
	cluster *algo.Cluster
	net     *network.Network
	netRand *pcgRand  // the network's random source, kept so that Clone can copy it
	nodes   []nodeRec // ascending id
	ext     []nodeExt // by node index, as nodes; nil until needed (see x)
	crashes uint32    // crashes so far (fewer than 2^32 in any run): a delivery is stamped with the count when sent
	epochs  []uint32  // per node, the count of crashes just after its last (0: none): a delivery stamped before that was in flight to an incarnation that is gone, and is lost
	firstID algo.ID   // with contiguous ids (1..N, say), node i has id firstID+i: no table needed
	contig  bool
	byID    []int32           // id → index+1, when ids have gaps but are small enough for a table
	idMap   map[algo.ID]int32 // id → index+1, when ids have gaps and are not
	actions []Action
	q       queue
	now     time.Duration
	steps   int
	done    bool
	tracing bool
	instant int    // steps in a row at the virtual time now; see StallSteps
	halted  string // why the run ended before its end time, if it did
	elected bool   // with UntilLeader: a leader is agreed, so the run is over
	sent    int64  // messages sent so far, of every kind

	haltAction *Action // the action the run stopped at because it could not happen, if it did

	mem memory

	pfr prefetcher

	cur        event       // the current step's event: a copy, its queue slot is free again
	records    []Record    // the current step's
	outbox     []outgoing  // what the node in the call in progress has sent
	timerbox   []timerPush // the timers it has set that need an event queued
	timerNames []string    // the names of the timers nodes have set, in the order first set
	notes      []string    // notes of the node call in progress

	met metrics
	mon monitor

	// goroutine engine
	handback chan struct{} // the driving goroutine (the caller of Step or RunUntil) waits here
	holder   chan struct{} // the wake channel of the goroutine running the simulation now
	until    time.Duration // RunUntil's limit, for the goroutine holding the baton
	panicked any           // what a node's goroutine panicked with, if it did
	wg       sync.WaitGroup
	stopped  bool
	busy     bool // a Step or RunUntil is under way, or one panicked (see enter)
}

// nodeRec is the engine's record of one node: what nearly every step of the node touches, and
// nothing else — among 100,000 nodes each cache line of it a step touches is a fetch from
// memory. Its first line holds the node and its state; its timers fill the next two.
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

// nodeExt is the rest of the engine's record of a node, in Sim.ext: what the goroutine engine
// hands a node's goroutine, first, then what few steps touch.
type nodeExt struct {
	// goroutine engine: a signal on inbox says job is ready. With baton set, the node carries
	// on with the run afterwards (before and main finish the step it was handed); without, it
	// signals replyTo, the goroutine that called it.
	inbox   chan struct{}
	job     job
	main    int
	baton   bool
	before  Status
	replyTo chan struct{}

	more []timerSlot       // its timers beyond inlineTimers, if the algorithm has more
	held []int32           // slab indices of inputs that arrived while paused, in order
	rng  *pcgRand          // made on first use
	disk map[string]uint64 // the node's stable storage: a crash does not touch it
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
	x := s.x(n.idx)
	for int(i-inlineTimers) >= len(x.more) {
		x.more = append(x.more, timerSlot{})
	}
	return &x.more[i-inlineTimers]
}

// x returns the rest of node i's record, making room for every node's on first use: on the
// inline engine a run among many nodes may never need any.
func (s *Sim) x(i int32) *nodeExt {
	if s.ext == nil {
		s.ext = make([]nodeExt, len(s.nodes))
	}
	return &s.ext[i]
}

// nid returns n's id.
func (s *Sim) nid(n *nodeRec) algo.ID { return s.idOf(n.idx) }

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

// Random streams derived from the run's seed, in a fixed order: the network's, then one per node
// keyed by its id.
const (
	streamNetwork = 0x6e6574776f726b21
	streamNode    = 0x6e6f64652d2d2d21
)

// New prepares a run; nothing has happened yet (the first Step applies the time-0 actions and
// boots the nodes). Close it unless it is run to the end.
func New(cfg Config) (*Sim, error) {
	cluster, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	if cfg.StallSteps <= 0 {
		cfg.StallSteps = DefaultStallSteps
	}
	if cfg.MaxScheduled <= 0 {
		cfg.MaxScheduled = DefaultMaxScheduled
	}
	if cfg.MaxMemory <= 0 {
		cfg.MaxMemory = DefaultMaxMemory
	}
	netRand := newPCGRand(cfg.Seed, streamNetwork)
	net, err := network.New(cfg.Network, &netRand.r)
	if err != nil {
		return nil, err
	}
	net.Nodes(cluster.Sorted)
	s := &Sim{cfg: cfg, cluster: cluster, net: net, netRand: netRand, tracing: cfg.Trace}
	s.mem = memory{limit: cfg.MaxMemory, next: memCheckEvery}
	if err := s.mem.checkNodeMemory(&cfg, cluster); err != nil {
		return nil, err
	}
	s.nodes = make([]nodeRec, len(cluster.Sorted))
	if len(s.nodes) >= prefetchNodes { // else the nodes' memory stays in the cache
		s.pfr.states = make([]unsafe.Pointer, len(s.nodes))
	}
	s.epochs = make([]uint32, len(cluster.Sorted))
	maxID := cluster.Sorted[len(cluster.Sorted)-1]
	s.firstID = cluster.Sorted[0]
	s.contig = int(maxID-s.firstID) == len(cluster.Sorted)-1 // distinct and sorted: contiguous
	switch {
	case s.contig: // indexOf needs no table
	case int(maxID) <= 16*len(cluster.Sorted)+1024:
		s.byID = make([]int32, maxID+1)
	default:
		s.idMap = make(map[algo.ID]int32, len(cluster.Sorted))
	}
	for i, id := range cluster.Sorted {
		n := &s.nodes[i]
		n.idx = int32(i)
		n.env = nodeEnv{s: s, n: n}
		switch {
		case s.byID != nil:
			s.byID[id] = int32(i + 1)
		case s.idMap != nil:
			s.idMap[id] = int32(i + 1)
		}
	}
	// Room for a broadcast from every node without growing: growing is deep in the runtime,
	// and a node's call should not need the stack for it.
	s.outbox = make([]outgoing, 0, min(2*len(s.nodes), 4096)+16)
	s.timerbox = make([]timerPush, 0, 16)
	s.timerNames = make([]string, 0, 8)
	s.met.init(cfg.Algorithm.Kinds)
	s.mon.init(s)

	// Time-0 actions take effect before boot, except elect: a node must be up to elect.
	s.actions = slices.Clone(cfg.Actions)
	slices.SortStableFunc(s.actions, func(a, b Action) int { return int(a.At - b.At) })
	var later []int32
	for i, a := range s.actions {
		if a.At == 0 && a.Op != Elect {
			s.q.push(0, classAction, event{kind: evAction, aux: int32(i)})
		} else {
			later = append(later, int32(i))
		}
	}
	for i := range s.nodes {
		s.q.push(0, classAction, event{kind: evBoot, node: int32(i)})
	}
	for _, i := range later {
		s.q.push(s.actions[i].At, classAction, event{kind: evAction, aux: i})
	}

	if cfg.Engine == Goroutine {
		s.ext = make([]nodeExt, len(s.nodes))
		s.handback = make(chan struct{})
		s.holder = s.handback
	}
	return s, nil
}

// start starts node n's goroutine, on the goroutine engine, when it is first handed an input:
// a node that never is — crashed from the start, or in a copy of a run kept as a checkpoint and
// stepped only a little — costs no goroutine. Out of line: a node's goroutine may call it, and
// its stack is to stay small (see handle).
//
//go:noinline
func (s *Sim) start(n *nodeRec) {
	x := &s.ext[n.idx]
	x.inbox = make(chan struct{})
	s.wg.Add(1)
	go s.serve(n)
}

// Schedule adds an action to the run, at a.At — as if it had been a line of the scenario: it
// happens before anything else due at that instant that the run scheduled itself. a.At must not
// be before the current time, nor after the end of the run. The TUI schedules what its user
// does this way, just after the current time, so that a session saved with those actions
// replays to the same trace.
func (s *Sim) Schedule(a Action) error {
	if s.done {
		return fmt.Errorf("the run is over")
	}
	if a.At < s.now || a.At > s.cfg.RunFor {
		return fmt.Errorf("%s: the time %s is not between now (%s) and the end of the run (%s)",
			a, algo.FormatDuration(a.At), algo.FormatDuration(s.now), algo.FormatDuration(s.cfg.RunFor))
	}
	if err := a.validate(func(id algo.ID) bool { return s.indexOf(id) >= 0 }); err != nil {
		return err
	}
	s.actions = append(s.actions, a)
	s.q.push(a.At, classAction, event{kind: evAction, aux: int32(len(s.actions) - 1)})
	return nil
}

// indexOf returns the index of node id, or -1.
func (s *Sim) indexOf(id algo.ID) int32 {
	if s.contig {
		if i := id - s.firstID; i >= 0 && int(i) < len(s.nodes) {
			return int32(i)
		}
		return -1
	}
	if s.byID != nil {
		if id > 0 && int(id) < len(s.byID) {
			return s.byID[id] - 1
		}
		return -1
	}
	if i, ok := s.idMap[id]; ok {
		return i - 1
	}
	return -1
}

func (s *Sim) node(id algo.ID) *nodeRec { return &s.nodes[s.indexOf(id)] }

// StepResult is what one step did.
type StepResult struct {
	Step    int           // 1, 2, ...
	At      time.Duration // its virtual time
	Records []Record      // what it caused, when tracing; valid until the next Step
	Break   bool          // it was a `break` action: a demo stops here
}

// Step processes the next event and reports what it did. It returns false, and does nothing,
// once the run has reached its end; the goroutines are stopped then. A node that panics panics
// Step; the run cannot go on after that, and a later Step or RunUntil panics saying so.
func (s *Sim) Step() (StepResult, bool) { return s.StepUntil(s.cfg.RunFor) }

// StepUntil is Step for an event due by time t: it returns false, and does nothing, when no
// event is due by then. When t is the end of the run or later, the run is then over.
func (s *Sim) StepUntil(t time.Duration) (StepResult, bool) {
	if s.done {
		return StepResult{}, false
	}
	s.enter()
	ok := s.next(min(t, s.cfg.RunFor))
	if ok {
		s.process(false)
	}
	s.busy = false // not deferred: a step a node panicked in is not over
	if !ok {
		if t >= s.cfg.RunFor || s.halted != "" || s.elected {
			s.finish()
		}
		return StepResult{}, false
	}
	return s.result(), true
}

// enter begins a Step or RunUntil; each clears busy as it returns. One that does not return —
// a node panicked in it — leaves the run in the middle of a step: what the node had sent is
// still in the outbox, and would go out under the next node's name. So the run goes no further.
func (s *Sim) enter() {
	if s.busy {
		panic("sim: a node panicked in an earlier step; this run cannot go on")
	}
	s.busy = true
}

// next removes the next event due at or before limit and makes it the current step, s.cur: the
// clock moves to its time and the step count goes up. Inputs that no longer mean anything are
// skipped, and a paused node's are held, without a step. It returns false when nothing is due
// by limit, or when a guard halts the run (see Config.StallSteps and Config.MaxScheduled).
func (s *Sim) next(limit time.Duration) bool {
	for {
		if s.cfg.UntilLeader && s.mon.agreed != 0 {
			s.elected = true // agreed at the end of the step before: the run is over
		}
		if s.halted != "" || s.elected || s.q.len() == 0 {
			return false
		}
		topAt, src := s.q.top()
		if topAt > limit {
			return false
		}
		if s.cfg.MaxSent > 0 && s.sent > s.cfg.MaxSent {
			s.halted = fmt.Sprintf("more than %d messages were sent", s.cfg.MaxSent)
			return false
		}
		if s.q.len() > s.cfg.MaxScheduled {
			s.halted = fmt.Sprintf("more than %d events were scheduled at once, more than a run may hold in memory; try fewer nodes", s.cfg.MaxScheduled)
			return false
		}
		at, idx, ord := s.q.popFrom(src)
		e := s.q.event(idx)
		if s.pfr.states != nil {
			s.prefetch(src, e.node)
		}
		n := &s.nodes[e.node]
		switch e.kind {
		case evTimer:
			ts := s.timer(n, e.aux)
			if ts.gen != e.gen {
				s.q.release(idx) // superseded by an earlier deadline
				continue
			}
			if !ts.armed || n.down {
				ts.queued = false
				s.q.release(idx)
				continue
			}
			if ts.deadline > at || ts.deadline == at && ts.ord > ord {
				// Reset to a later deadline since it was queued: wait until then.
				ts.queuedAt = ts.deadline
				s.q.requeueOrd(ts.deadline, ts.ord, idx)
				continue
			}
		case evBoot:
			if n.down || n.node != nil { // down, or recovered at 0ms and booted already
				s.q.release(idx)
				continue
			}
		case evElect:
			if n.down {
				s.q.release(idx)
				continue
			}
		}
		// A paused node handles nothing; what is due meanwhile waits, in order. A message is
		// judged when it arrives, paused receiver or not: one its link or a crash stops is
		// dropped now, as it would be anyway; one that gets through waits, and is handled on
		// resume whatever the links are by then.
		if e.kind != evAction && n.paused && !(e.kind == evDeliver && s.dropReason(n, e) != network.Delivered) {
			if e.kind == evDeliver {
				e.aux = heldDelivery
			}
			x := s.x(e.node)
			x.held = append(x.held, idx)
			continue
		}
		if at == s.now && s.steps > 0 {
			s.instant++
			if s.instant > s.cfg.StallSteps {
				s.halted = fmt.Sprintf("%d steps went by without virtual time passing: the algorithm is in a loop", s.cfg.StallSteps)
				s.q.release(idx)
				return false
			}
		} else {
			s.instant = 0
		}
		s.now = at
		s.steps++
		s.records = s.records[:0]
		s.cur = *e
		s.q.release(idx)
		return true
	}
}

// process carries out the current step's event. With baton set (the goroutine engine running
// in bulk), a node's input is handed on with the baton: the node's goroutine handles it and
// carries on with the run, and process returns that turn (see call) — this goroutine's turn
// in the loop is over.
func (s *Sim) process(baton bool) turn {
	e := &s.cur
	n := &s.nodes[e.node]
	switch e.kind {
	case evDeliver:
		return s.deliver(n, e, baton)
	case evTimer:
		return s.fire(n, e, baton)
	case evBoot:
		return s.boot(n, baton)
	case evElect:
		return s.elect(n, -1, baton)
	case evAction:
		s.act(&s.actions[e.aux])
	}
	return turnDone
}

// result reports the step just processed.
func (s *Sim) result() StepResult {
	e := &s.cur
	return StepResult{Step: s.steps, At: s.now, Records: s.records,
		Break: e.kind == evAction && s.actions[e.aux].Op == Break}
}

// turn says what became of a node's input on the goroutine engine.
type turn uint8

const (
	turnDone   turn = iota // handled: carry on
	turnPassed             // handed with the baton to the node's goroutine: this one's turn is over
	turnOwn                // the input is for the node whose goroutine runs the loop: it handles
	// it at the top of its stack (see serve), not nested in the loop's frames
)

// RunUntil runs every event due by time t (or by the end of the run, if sooner), and ends the
// run if t reaches its end.
//
// On the goroutine engine it passes a baton: the node that handled an input takes the next
// event off the queue itself and hands the baton — and the input — to the node it is for, so
// each input costs one hand-over between goroutines instead of two, and none when a node's next
// input is its own. Exactly one goroutine runs the simulation at any moment either way, and the
// events run in the same order: the trace is the same as step by step.
func (s *Sim) RunUntil(t time.Duration) {
	if s.done {
		return
	}
	s.enter()
	s.until = min(t, s.cfg.RunFor)
	if s.cfg.Engine == Goroutine {
		s.holder = s.handback
		if s.runBaton() != turnDone {
			<-s.handback // the node that ran out of events hands the run back
		}
		if p := s.panicked; p != nil {
			panic(s.panicMessage(p))
		}
	} else {
		for s.next(s.until) {
			s.process(false)
		}
	}
	s.busy = false // not deferred: see StepUntil
	if t >= s.cfg.RunFor || s.halted != "" || s.elected {
		s.finish()
	}
}

// runBaton processes events due by s.until on the goroutine that holds the baton. It returns
// turnPassed when it passed the baton on, turnOwn when the next input is for this goroutine's
// own node, and turnDone when there was nothing left to do.
func (s *Sim) runBaton() turn {
	for {
		if !s.next(s.until) {
			return turnDone
		}
		if t := s.process(true); t != turnDone {
			return t
		}
	}
}

// Run runs to the end and returns the summary. The goroutines are stopped.
func (s *Sim) Run() Summary {
	s.RunUntil(s.cfg.RunFor)
	return s.Summary()
}

// The default guards against runs that cannot finish (Config.StallSteps, Config.MaxScheduled).
// Twenty million events hold about 1.3 GB of queue (40 bytes of payload and 24 of key each);
// Config.MaxMemory bounds the whole run's memory besides.
const (
	DefaultStallSteps   = 5_000_000
	DefaultMaxScheduled = 20_000_000
)

// finish ends the run at its end time — or where it stalled, or at its first agreed leader
// with UntilLeader — and stops the goroutines.
func (s *Sim) finish() {
	if s.done {
		return
	}
	s.done = true
	if s.halted == "" && !s.elected {
		s.now = s.cfg.RunFor
	}
	s.Close()
}

// Done reports whether the run has reached its end.
func (s *Sim) Done() bool { return s.done }

// Now returns the virtual time of the last step (the end time once the run is done).
func (s *Sim) Now() time.Duration { return s.now }

// Steps returns how many steps have run.
func (s *Sim) Steps() int { return s.steps }

// Config returns the configuration the run was made from.
func (s *Sim) Config() Config { return s.cfg }

// Close stops the node goroutines. It is safe to call more than once; a closed Sim that is not
// done cannot step.
func (s *Sim) Close() {
	if s.stopped {
		return
	}
	s.stopped = true
	s.done = true
	if s.cfg.Engine != Goroutine {
		return
	}
	for i := range s.nodes {
		if s.ext[i].inbox != nil { // started
			close(s.ext[i].inbox)
		}
	}
	s.wg.Wait()
}

// --- what a step does ---------------------------------------------------------------------

// traceMsg emits a send, delivery or drop record. It is kept out of line, and called only when
// tracing, so that the record is not built — nor room made for it on the stack — in the steps
// of a run without a trace: on the goroutine engine every node's goroutine runs those steps.
//
//go:noinline
func (s *Sim) traceMsg(t RecordType, m algo.Message, deliverAt time.Duration, reason network.Reason) int {
	return s.emit(Record{Type: t, Msg: m, DeliverAt: deliverAt, Reason: reason})
}

// traceBoot emits a boot record; see traceMsg.
//
//go:noinline
func (s *Sim) traceBoot(id algo.ID) int {
	return s.emit(Record{Type: RecBoot, Node: id})
}

// traceTimer emits a timer record; see traceMsg.
//
//go:noinline
func (s *Sim) traceTimer(id algo.ID, name string) int {
	return s.emit(Record{Type: RecTimer, Node: id, Timer: name})
}

// emit appends a record to the current step when tracing and returns its index, or -1.
func (s *Sim) emit(r Record) int {
	if !s.tracing {
		return -1
	}
	r.Step, r.At = s.steps, s.now
	s.records = append(s.records, r)
	return len(s.records) - 1
}

// addNote appends note to record i's note.
func (s *Sim) addNote(i int, note string) {
	if i < 0 || note == "" {
		return
	}
	if s.records[i].Note != "" {
		s.records[i].Note += "; " + note
	} else {
		s.records[i].Note = note
	}
}

func (s *Sim) deliver(n *nodeRec, e *event, baton bool) turn {
	if reason := s.dropReason(n, e); reason != network.Delivered {
		s.met.dropped[e.mkind]++
		if s.tracing {
			s.traceMsg(RecDrop, s.message(e), 0, reason)
		}
		return turnDone
	}
	s.met.delivered[e.mkind]++
	main := -1
	if s.tracing {
		main = s.traceMsg(RecDeliver, s.message(e), 0, network.Delivered)
	}
	return s.call(n, &job{kind: callReceive, ev: e}, main, n.status(), baton)
}

// dropReason says why delivery e, for node n, is dropped as it arrives, or network.Delivered:
// it is lost to a crash, or its link is cut now. A delivery held while n was paused got through
// when it arrived, and its link is not judged again (a crash since has dropped it already).
func (s *Sim) dropReason(n *nodeRec, e *event) network.Reason {
	switch {
	case s.lost(n, e):
		return network.Crashed
	case e.aux != heldDelivery && s.net.Blocking():
		return s.net.Blocked(s.idOf(e.from), s.idOf(e.node))
	}
	return network.Delivered
}

// lost reports whether delivery e, for node n, is lost to a crash: n is down, or crashed since
// e was sent, and e was on its way to an incarnation that is gone.
func (s *Sim) lost(n *nodeRec, e *event) bool { return n.down || s.epochs[n.idx] > e.epoch }

// message rebuilds the message a deliver event carries.
func (s *Sim) message(e *event) algo.Message {
	return algo.Message{Kind: s.met.kinds[e.mkind], From: s.idOf(e.from), To: s.idOf(e.node),
		Value: e.value, Term: e.term, Flag: e.flag}
}

// idOf returns the id of node index i.
func (s *Sim) idOf(i int32) algo.ID {
	if s.contig {
		return s.firstID + algo.ID(i)
	}
	return s.cluster.Sorted[i]
}

func (s *Sim) fire(n *nodeRec, e *event, baton bool) turn {
	ts := s.timer(n, e.aux)
	ts.armed, ts.queued = false, false
	name := s.timerNames[e.aux]
	main := -1
	if s.tracing {
		main = s.traceTimer(s.nid(n), name)
	}
	return s.call(n, &job{kind: callTimer, timer: e.aux}, main, n.status(), baton)
}

func (s *Sim) boot(n *nodeRec, baton bool) turn {
	main := -1
	if s.tracing {
		main = s.traceBoot(s.nid(n))
	}
	return s.call(n, &job{kind: callBoot}, main, n.status(), baton)
}

// elect asks n to start an election; main is the record of the step that asked, if any.
func (s *Sim) elect(n *nodeRec, main int, baton bool) turn {
	if main < 0 {
		id := s.nid(n)
		main = s.emit(Record{Type: RecFault, Node: id, Action: &Action{At: s.now, Op: Elect, Nodes: []algo.ID{id}}})
	}
	return s.call(n, &job{kind: callElect}, main, n.status(), baton)
}

// act applies a scenario action.
func (s *Sim) act(a *Action) {
	if a.NamesLeader() {
		if a = s.resolveLeader(a); a == nil {
			return // it cannot happen: the run stops here
		}
	}
	switch a.Op {
	case Say:
		s.emit(Record{Type: RecSay, Action: a})
		return
	case Break:
		s.emit(Record{Type: RecBreak, Action: a})
		return
	}
	r := Record{Type: RecFault, Action: a}
	if len(a.Nodes) == 1 {
		r.Node = a.Nodes[0]
	}
	main := s.emit(r)
	note := func(format string, args ...any) {
		if s.tracing {
			s.addNote(main, fmt.Sprintf(format, args...))
		}
	}
	if a.Leader > 0 && a.Op != Partition { // a partition's text says it: "leader (node 5) | 1"
		note("the leader, node %d: every live node names it", a.Leader)
	}
	switch a.Op {
	case Crash:
		for _, id := range a.Nodes {
			if n := s.node(id); n.down {
				note("node %d is already crashed", id)
			} else {
				old := n.status()
				s.crash(n)
				s.emit(Record{Type: RecState, Node: id, Old: old, New: Crashed})
			}
		}
	case Recover:
		for _, id := range a.Nodes {
			if n := s.node(id); !n.down {
				note("node %d is not crashed", id)
			} else {
				s.recover(n, main)
			}
		}
	case Pause:
		for _, id := range a.Nodes {
			switch n := s.node(id); {
			case n.down:
				note("node %d is crashed", id)
			case n.paused:
				note("node %d is already paused", id)
			default:
				old := n.status()
				n.paused = true
				s.emit(Record{Type: RecState, Node: id, Old: old, New: Paused, Leader: n.last.Leader, Term: n.last.Term})
			}
		}
	case Resume:
		for _, id := range a.Nodes {
			n := s.node(id)
			if !n.paused {
				note("node %d is not paused", id)
				continue
			}
			n.paused = false
			s.emit(Record{Type: RecState, Node: id, Old: Paused, New: n.status(), Leader: n.last.Leader, Term: n.last.Term})
			// What arrived meanwhile is handled next, in its original order: before anything
			// the run schedules for this instant, which is younger. (Without the side records,
			// nothing was held: a resume need not make them.)
			if s.ext == nil {
				continue
			}
			x := &s.ext[n.idx]
			for _, idx := range x.held {
				s.q.requeueOrd(s.now, s.q.next(classAction), idx)
			}
			x.held = x.held[:0]
		}
	case Partition:
		s.net.Partition(a.Groups)
	case Cut:
		s.net.Cut(*a.Link)
	case Heal:
		cuts := s.net.Cuts()
		switch {
		case a.Link != nil && !slices.Contains(cuts, *a.Link) && s.net.Partitioned():
			note("the link %s is not cut: nothing to heal (the partition is what blocks it: heal without a link ends it)", a.Link)
		case a.Link != nil && !slices.Contains(cuts, *a.Link):
			note("the link %s is not cut: nothing to heal", a.Link)
		case a.Link == nil && !s.net.Partitioned() && len(cuts) == 0:
			note("no partition and no cut link: nothing to heal")
		case a.Link == nil:
			// What it ends, so that the timeline says it.
			var ended []string
			if s.net.Partitioned() {
				ended = append(ended, "the partition ends")
			}
			for _, l := range cuts {
				ended = append(ended, fmt.Sprintf("the link %s carries messages again", l))
			}
			note("%s", strings.Join(ended, "; "))
		}
		if a.Link != nil {
			s.net.Restore(*a.Link)
		} else {
			s.net.Heal()
		}
	case SetDelay:
		need, err := s.net.SetDelay(a.Link, a.Delay)
		if err != nil {
			note("%v", err)
		}
		if need {
			// FIFO from now on must respect what is already in flight.
			s.q.each(func(k qkey) {
				if e := s.q.event(k.idx); e.kind == evDeliver {
					s.net.InFlight(network.Link{From: s.idOf(e.from), To: s.idOf(e.node)}, k.at)
				}
			})
		}
	case SetDrop:
		if err := s.net.SetDrop(a.Link, a.Drop/100); err != nil {
			note("%v", err)
		}
	case Elect:
		for _, id := range a.Nodes {
			switch n := s.node(id); {
			case n.down:
				note("node %d is crashed and cannot elect", id)
			case n.paused:
				x := s.x(n.idx)
				x.held = append(x.held, s.q.store(event{kind: evElect, node: n.idx}))
				note("node %d is paused: it will elect when it resumes", id)
			case n.node == nil:
				// Resumed at this instant, its boot is queued: elect right after it.
				s.q.pushOrd(s.now, s.q.next(classAction), event{kind: evElect, node: n.idx})
				note("node %d has not booted yet: it will elect once it has", id)
			default:
				s.elect(n, main, false)
			}
		}
	}
}

// crash loses n's state, timers and the messages in flight to it.
func (s *Sim) crash(n *nodeRec) {
	old := n.last
	n.down, n.paused = true, false
	n.last = algo.State{}
	s.mon.crashed(n, old)
	s.crashes++
	s.epochs[n.idx] = s.crashes
	n.node = nil
	s.newState(n)
	for i := range int32(len(s.timerNames)) {
		s.timer(n, i).armed = false
	}
	// What it held while paused is lost too: deliveries are dropped as they come up. (Without
	// the side records, nothing was held: a crash need not make them.)
	if s.ext != nil {
		x := &s.ext[n.idx]
		for _, idx := range x.held {
			s.q.requeue(s.now, idx)
		}
		x.held = x.held[:0]
	}
}

// recover boots a fresh node in n's place.
func (s *Sim) recover(n *nodeRec, main int) {
	n.down = false
	s.mon.recovering(n)
	s.call(n, &job{kind: callBoot}, main, Crashed, false)
}

// --- calling a node -----------------------------------------------------------------------

type callKind uint8

const (
	callBoot callKind = iota // construct the node, then Start it
	callReceive
	callTimer
	callElect
)

// job is one input handed to a node.
type job struct {
	kind  callKind
	timer int32  // callTimer: the timer's index among the run's names
	ev    *event // callReceive: the delivery, s.cur: the node reads it before anything else runs
}

// call hands j to n — directly, or through its goroutine — and records what changed; before
// is n's status before the call (Crashed for a recovery), main the record of the step.
//
// With baton, on the goroutine engine, j goes to n's goroutine with the baton: n handles it,
// records the change and carries on with the run (see RunUntil); call returns turnPassed and
// the caller's turn is over — or turnOwn, when the caller is n's goroutine itself. Otherwise
// call returns turnDone when n has handled j.
func (s *Sim) call(n *nodeRec, j *job, main int, before Status, baton bool) turn {
	if s.cfg.Engine == Inline {
		n.dispatch(j)
	} else if t := s.callGoroutine(n, j, main, before, baton); t != turnDone {
		return t
	}
	s.flush(n)
	s.afterCall(n, before, main)
	return turnDone
}

// callGoroutine is call on the goroutine engine, up to the end of n's part in it.
func (s *Sim) callGoroutine(n *nodeRec, j *job, main int, before Status, baton bool) turn {
	x := &s.ext[n.idx]
	if x.inbox == nil {
		s.start(n)
	}
	switch {
	case x.inbox == s.holder && baton:
		// This goroutine is n's own: it handles j itself, back at the top of its stack.
		x.job, x.baton, x.before, x.main = *j, true, before, main
		return turnOwn
	case x.inbox == s.holder:
		if p := n.safeDispatch(j); p != nil {
			panic(s.panicMessage(p))
		}
	case baton:
		x.job, x.baton, x.before, x.main = *j, true, before, main
		s.holder = x.inbox
		x.inbox <- struct{}{}
		return turnPassed
	default:
		// The channel operations order the memory accesses: n's goroutine reads job after the
		// signal, and this one reads what n did after the reply.
		me := s.holder
		x.job, x.baton, x.replyTo = *j, false, me
		x.inbox <- struct{}{}
		<-me
		if p := s.panicked; p != nil {
			panic(s.panicMessage(p))
		}
	}
	return turnDone
}

func (s *Sim) panicMessage(p any) string {
	if msg, ok := p.(string); ok && strings.HasPrefix(msg, "sim: ") {
		return msg // described already
	}
	return fmt.Sprintf("sim: %s node panicked at step %d (%s, seed %d): %v",
		s.cfg.Algorithm.Name, s.steps, algo.FormatDuration(s.now), s.cfg.Seed, p)
}

func (n *nodeRec) dispatch(j *job) {
	// The boxes are empty: the call before was flushed (a run whose node panicked goes no
	// further: see enter).
	s := n.env.s
	if j.kind == callBoot {
		// The node is made here, on its own goroutine in the goroutine engine, like all its
		// work: not on the stack of whichever goroutine runs the loop.
		n.node = s.cfg.Algorithm.New(s.nid(n), s.cluster)
		n.node.Start(&n.env)
		n.env.s.newState(n)
		return
	}
	if n.node == nil {
		panic(fmt.Sprintf("sim: node %d was handed an input before it booted", s.nid(n)))
	}
	switch j.kind {
	case callReceive:
		n.node.Receive(&n.env, n.env.s.message(j.ev))
	case callTimer:
		n.node.Timer(&n.env, n.env.s.timerNames[j.timer])
	case callElect:
		n.node.Elect(&n.env)
	}
}

// serve is a node's goroutine in the goroutine engine. It waits to be handed a job; it handles
// it and replies to the goroutine that called it — or, handed the baton, carries on with the
// run until it passes the baton on or runs out of events, when it hands the run back to the
// goroutine driving it. Either way exactly one goroutine runs the simulation at a time.
func (s *Sim) serve(n *nodeRec) {
	defer s.wg.Done()
	for range s.ext[n.idx].inbox {
		for s.handle(n) {
		}
	}
}

// handle runs the job n's goroutine was handed, and then — holding the baton — the run, until
// it hands the baton on (false) or finds the next input is n's own (true: handle that too). The
// algorithm's call and the engine's loop each start from here, never one inside the other, so
// that a node's goroutine needs no more stack than the deeper of the two: among 100,000 nodes,
// the difference between 2KB and 4KB stacks is 200MB.
func (s *Sim) handle(n *nodeRec) bool {
	x := &s.ext[n.idx]
	p := n.safeDispatch(&x.job)
	if !x.baton {
		s.panicked = p
		x.replyTo <- struct{}{}
		return false
	}
	x.baton = false
	if p == nil {
		var t turn
		if t, p = s.carryOn(n); t == turnOwn {
			return true
		} else if t == turnPassed {
			return false
		}
	}
	s.panicked = p
	s.holder = s.handback
	s.handback <- struct{}{}
	return false
}

// carryOn finishes the step n was handed with the baton and runs on. A panic is caught and
// returned, to be handed to the goroutine driving the run.
func (s *Sim) carryOn(n *nodeRec) (t turn, panicked any) {
	defer func() {
		if p := recover(); p != nil {
			t, panicked = turnDone, p
		}
	}()
	s.flush(n)
	x := &s.ext[n.idx]
	s.afterCall(n, x.before, x.main)
	return s.runBaton(), nil
}

func (n *nodeRec) safeDispatch(j *job) (panicked any) {
	defer func() {
		if p := recover(); p != nil {
			panicked = fmt.Sprintf("%v\n%s", p, debug.Stack())
		}
	}()
	n.dispatch(j)
	return nil
}

// afterCall records n's state change, if any, with the note that explains it.
func (s *Sim) afterCall(n *nodeRec, before Status, main int) {
	st := n.node.State()
	note := ""
	if len(s.notes) > 0 {
		note = strings.Join(s.notes, "; ")
		s.notes = s.notes[:0]
	}
	if st == n.last && before != Crashed {
		s.addNote(main, note)
		return
	}
	old := n.last
	n.last = st
	s.mon.changed(n, old, st)
	if s.tracing {
		s.emit(Record{Type: RecState, Node: s.nid(n), Old: before, New: Status(st.Status),
			Leader: st.Leader, Term: st.Term, Note: note})
	}
}

// --- the Env a node sees ------------------------------------------------------------------

type nodeEnv struct {
	s *Sim
	n *nodeRec
}

var _ algo.Env = (*nodeEnv)(nil)

func (e *nodeEnv) Now() time.Duration { return e.s.now }

// Send puts m in the outbox, with the ordinal of its place among the run's events: the engine
// sends it when the node's call returns (flush). Sending from the node's call itself would run
// the network and the queue on the node's goroutine, on top of the algorithm's frames.
func (e *nodeEnv) Send(to algo.ID, m algo.Message) {
	s := e.s
	ti := s.indexOf(to)
	if ti < 0 {
		s.badSend(e.n, to, m.Kind)
	}
	if len(s.outbox) == cap(s.outbox) {
		s.growOutbox()
	}
	s.outbox = s.outbox[:len(s.outbox)+1]
	o := &s.outbox[len(s.outbox)-1]
	// Field by field: a composite literal is built on the stack first, and the stack of a
	// node's goroutine is to stay within its first 2KB.
	o.ord, o.value, o.term, o.to, o.flag = s.q.next(classRuntime), m.Value, m.Term, ti, m.Flag
	o.kind = s.met.kindOf(m.Kind)
}

// badSend panics: n sent to a node not in the cluster.
//
//go:noinline
func (s *Sim) badSend(n *nodeRec, to algo.ID, kind string) {
	panic(fmt.Sprintf("sim: %s node %d sent %s to node %d, which is not in the cluster",
		s.cfg.Algorithm.Name, s.nid(n), kind, to))
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
}

// flush sends what n sent during its call, in order, with the ordinals taken then: the run is
// the same as if each had been sent at once.
func (s *Sim) flush(n *nodeRec) {
	for _, t := range s.timerbox {
		s.q.pushOrd(t.at, t.ord, event{kind: evTimer, node: n.idx, gen: t.gen, aux: t.slot})
	}
	s.timerbox = s.timerbox[:0]
	for i := range s.outbox {
		s.send(n, &s.outbox[i])
	}
	s.outbox = s.outbox[:0]
}

// SetTimer arms the node's timer name to fire after the given time, replacing it if armed. The
// slot is updated at once — a CancelTimer or another SetTimer in the same call sees it — and the
// event, when one is needed, is queued when the call returns (flush), with the ordinal taken now.
func (e *nodeEnv) SetTimer(name string, after time.Duration) {
	n, q := e.n, &e.s.q
	i := e.s.timerIndex(name)
	ts := e.s.timer(n, i)
	ts.armed = true
	ts.deadline = e.s.now + max(after, 0)
	ts.ord = q.next(classRuntime)
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
	x := e.s.x(e.n.idx)
	if x.rng == nil {
		x.rng = newPCGRand(e.s.cfg.Seed, streamNode^uint64(e.s.nid(e.n))*0x9e3779b97f4a7c15)
	}
	return &x.rng.r
}

func (e *nodeEnv) Tracing() bool { return e.s.tracing }

func (e *nodeEnv) Store(key string, v uint64) {
	x := e.s.x(e.n.idx)
	if x.disk == nil {
		x.disk = map[string]uint64{}
	}
	x.disk[key] = v
}

func (e *nodeEnv) Load(key string) (uint64, bool) {
	v, ok := e.s.x(e.n.idx).disk[key]
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

// send hands n's message o to the network, and queues its delivery with the ordinal the node's
// Send took, unless the network drops it at once. flush calls it after n's call.
func (s *Sim) send(n *nodeRec, o *outgoing) {
	from, to := s.idOf(n.idx), s.idOf(o.to)
	s.met.sent[o.kind]++
	s.sent++
	if s.sent >= s.mem.next {
		s.checkMemory()
	}
	if s.mon.watchers != nil {
		s.mon.sent(s.outMessage(from, to, o))
	}
	at, reason := s.net.Send(s.now, from, to)
	if reason != network.Delivered {
		s.met.dropped[o.kind]++
		if s.tracing {
			s.traceMsg(RecSend, s.outMessage(from, to, o), 0, reason)
		}
		return
	}
	e := s.q.add(at, o.ord, o.to)
	// Field by field: a composite literal is built aside and copied.
	e.kind, e.flag, e.mkind, e.from, e.epoch = evDeliver, o.flag, o.kind, n.idx, s.crashes
	e.gen, e.aux, e.value, e.term = 0, 0, o.value, o.term
	if s.tracing {
		s.traceMsg(RecSend, s.outMessage(from, to, o), at, network.Delivered)
	}
}

// outMessage rebuilds the message o that from sent to.
func (s *Sim) outMessage(from, to algo.ID, o *outgoing) algo.Message {
	return algo.Message{Kind: s.met.kinds[o.kind], From: from, To: to, Value: o.value, Term: o.term, Flag: o.flag}
}
