package sim

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"electsim/algo"
	"electsim/network"
)

// StepResult is what one step did.
type StepResult struct {
	Step    int           // 1, 2, ...
	At      time.Duration // its virtual time
	Records []Record      // what it caused, when tracing; valid until the next Step
	Break   bool          // it was a `break` action: a demo stops here
	// After is how many inputs of its instant came before it: the step replays as an action
	// `at At after After inputs` would, before the input it was or in the action's place.
	After int
	// Action is, when the step was an action, its index among the run's actions — Actions()
	// — and -1 when it was an input.
	Action int
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
		if s.cfg.UntilLeader && s.monitor.agreed != 0 {
			s.elected = true // agreed at the end of the step before: the run is over
		}
		if s.halted != "" || s.elected {
			return false
		}
		if s.takeMid(limit) {
			return true
		}
		if s.q.len() == 0 {
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
		if s.prefetcher.states != nil {
			s.prefetch(src, e.node)
		}
		n := &s.nodes[e.node]
		switch e.kind {
		case evTimer:
			ts := s.timer(n, e.which)
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
				e.which |= heldDelivery
			}
			side := s.sideOf(e.node)
			side.held = append(side.held, idx)
			s.countInput(at) // it reached the node, which holds it: an action may wait for it
			continue
		}
		cur := *e
		s.q.release(idx)
		if cur.kind == evDeliver { // the current step holds its log part: its slot is free again
			s.curLog = s.logs.take(cur.logIndex())
			cur.which &= heldDelivery
		}
		return s.begin(at, cur)
	}
}

// begin makes event e, due at at, the current step: the clock moves to at and the step count
// goes up. It returns false, the run halted, when too many steps went by at one instant.
func (s *Sim) begin(at time.Duration, e event) bool {
	if at == s.now && s.steps > 0 {
		s.instant++
		if s.instant > s.cfg.StallSteps {
			s.halted = fmt.Sprintf("%d steps went by without virtual time passing: the algorithm is in a loop", s.cfg.StallSteps)
			return false
		}
	} else {
		s.instant = 0
	}
	s.stepAfter = s.InputsAt(at)
	if e.kind != evAction {
		s.countInput(at)
	}
	s.now = at
	s.steps++
	s.records = s.records[:0]
	s.cur = e
	return true
}

// countInput counts an input of instant at: handled, or held by a paused node.
func (s *Sim) countInput(at time.Duration) {
	s.inputs = s.InputsAt(at) + 1
	s.inputsAt = at
}

// InputsNow returns how many inputs have reached nodes at the current instant — messages that
// arrived (delivered, dropped as they arrived, or held by a paused node), timers that fired
// (or were held), boots, elections: what an action's After counts.
func (s *Sim) InputsNow() int { return s.InputsAt(s.now) }

// InputsAt returns how many inputs have been handled at instant at: none unless it is now.
func (s *Sim) InputsAt(at time.Duration) int {
	if s.inputsAt != at {
		return 0
	}
	return s.inputs
}

// addMid adds action i, which waits for inputs of its instant, to those waiting: by time, then
// by how many inputs each waits for, then in the order added — or, with first, ahead of those
// equal to it.
func (s *Sim) addMid(i int32, first bool) {
	a := &s.actions[i]
	at, _ := slices.BinarySearchFunc(s.mid, a, func(j int32, a *Action) int {
		m := &s.actions[j]
		if c := cmp.Or(cmp.Compare(m.At, a.At), cmp.Compare(m.After, a.After)); c != 0 || first {
			return cmp.Or(c, 1)
		}
		return -1 // after every one equal to it
	})
	s.mid = slices.Insert(s.mid, at, i)
}

// takeMid makes the first action that waits for inputs of its instant the current step, if
// its turn has come by limit: its instant has had the inputs it waits for, or has no more.
func (s *Sim) takeMid(limit time.Duration) bool {
	if len(s.mid) == 0 {
		return false
	}
	i := s.mid[0]
	a := &s.actions[i]
	if a.At > limit {
		return false
	}
	if s.q.len() > 0 {
		if top, _ := s.q.top(); top < a.At || top == a.At && s.InputsAt(a.At) < a.After {
			return false
		}
	}
	s.mid = s.mid[1:]
	return s.begin(a.At, event{kind: evAction, which: i})
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
		s.act(&s.actions[e.which])
	}
	return turnDone
}

// result reports the step just processed.
func (s *Sim) result() StepResult {
	e := &s.cur
	r := StepResult{Step: s.steps, At: s.now, Records: s.records, After: s.stepAfter, Action: -1}
	if e.kind == evAction {
		r.Action, r.Break = int(e.which), s.actions[e.which].Op == Break
	}
	return r
}

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

func (s *Sim) deliver(n *nodeRec, e *event, baton bool) turn {
	if reason := s.dropReason(n, e); reason != network.Delivered {
		s.metrics.dropped[e.msgKind]++
		if s.tracing {
			s.traceMsg(RecDrop, s.message(e), 0, reason)
		}
		return turnDone
	}
	s.metrics.delivered[e.msgKind]++
	record := -1
	if s.tracing {
		record = s.traceMsg(RecDeliver, s.message(e), 0, network.Delivered)
	}
	return s.call(n, &job{kind: callReceive, delivery: e}, record, n.status(), baton)
}

// dropReason says why delivery e, for node n, is dropped as it arrives, or network.Delivered:
// it is lost to a crash, or its link is cut now. A delivery held while n was paused got through
// when it arrived, and its link is not judged again (a crash since has dropped it already).
func (s *Sim) dropReason(n *nodeRec, e *event) network.Reason {
	switch {
	case s.lost(n, e):
		return network.Crashed
	case !e.held() && s.net.Blocking():
		return s.net.Blocked(s.idOf(e.from), s.idOf(e.node))
	}
	return network.Delivered
}

// lost reports whether delivery e, for node n, is lost to a crash: n is down, or crashed since
// e was sent, and e was on its way to an incarnation that is gone.
func (s *Sim) lost(n *nodeRec, e *event) bool { return n.down || s.epochs[n.idx] > e.epoch }

// message rebuilds the message a deliver event carries: the current step's, or one in flight.
func (s *Sim) message(e *event) algo.Message {
	log := s.curLog
	if e != &s.cur {
		log = s.logs.get(e.logIndex())
	}
	return algo.Message{Kind: s.metrics.kinds[e.msgKind], From: s.idOf(e.from), To: s.idOf(e.node),
		Value: e.value, Term: e.term, Flag: e.flag, Phase: e.phase, Hop: e.hop, Log: log}
}

func (s *Sim) fire(n *nodeRec, e *event, baton bool) turn {
	ts := s.timer(n, e.which)
	ts.armed, ts.queued = false, false
	name := s.timerNames[e.which]
	record := -1
	if s.tracing {
		record = s.traceTimer(s.nodeID(n), name)
	}
	return s.call(n, &job{kind: callTimer, timer: e.which}, record, n.status(), baton)
}

func (s *Sim) boot(n *nodeRec, baton bool) turn {
	record := -1
	if s.tracing {
		record = s.traceBoot(s.nodeID(n))
	}
	return s.call(n, &job{kind: callBoot}, record, n.status(), baton)
}

// elect asks n to start an election; record is the index of the record of the step that asked, or -1.
func (s *Sim) elect(n *nodeRec, record int, baton bool) turn {
	if record < 0 {
		id := s.nodeID(n)
		record = s.emit(Record{Type: RecFault, Node: id, Action: &Action{At: s.now, Op: Elect, Nodes: []algo.ID{id}}})
	}
	return s.call(n, &job{kind: callElect}, record, n.status(), baton)
}
