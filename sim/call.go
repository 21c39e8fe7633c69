package sim

import (
	"fmt"
	"runtime/debug"
	"strings"

	"electsim/algo"
)

// turn says what became of a node's input on the goroutine engine.
type turn uint8

const (
	turnDone   turn = iota // handled: carry on
	turnPassed             // handed with the baton to the node's goroutine: this one's turn is over
	turnOwn                // the input is for the node whose goroutine runs the loop: it handles
	// it at the top of its stack (see serve), not nested in the loop's frames
)

type callKind uint8

const (
	callBoot callKind = iota // construct the node, then Start it
	callReceive
	callTimer
	callElect
)

// job is one input handed to a node.
type job struct {
	kind     callKind
	timer    int32  // callTimer: the timer's index among the run's names
	delivery *event // callReceive: the delivery, s.cur: the node reads it before anything else runs
}

// call hands j to n — directly, or through its goroutine — and records what changed; before
// is n's status before the call (Crashed for a recovery), record the index in Sim.records of
// the step's record that the node's note joins (-1: none).
//
// With baton, on the goroutine engine, j goes to n's goroutine with the baton: n handles it,
// records the change and carries on with the run (see RunUntil); call returns turnPassed and
// the caller's turn is over — or turnOwn, when the caller is n's goroutine itself. Otherwise
// call returns turnDone when n has handled j.
func (s *Sim) call(n *nodeRec, j *job, record int, before Status, baton bool) turn {
	if s.cfg.Engine == Inline {
		n.dispatch(j)
	} else if t := s.callGoroutine(n, j, record, before, baton); t != turnDone {
		return t
	}
	s.flush(n)
	s.afterCall(n, before, record)
	return turnDone
}

// callGoroutine is call on the goroutine engine, up to the end of n's part in it.
func (s *Sim) callGoroutine(n *nodeRec, j *job, record int, before Status, baton bool) turn {
	side := &s.side[n.idx]
	if side.inbox == nil {
		s.start(n)
	}
	switch {
	case side.inbox == s.holder && baton:
		// This goroutine is n's own: it handles j itself, back at the top of its stack.
		side.job, side.baton, side.before, side.record = *j, true, before, record
		return turnOwn
	case side.inbox == s.holder:
		if p := n.safeDispatch(j); p != nil {
			panic(s.panicMessage(p))
		}
	case baton:
		side.job, side.baton, side.before, side.record = *j, true, before, record
		s.holder = side.inbox
		side.inbox <- struct{}{}
		return turnPassed
	default:
		// The channel operations order the memory accesses: n's goroutine reads job after the
		// signal, and this one reads what n did after the reply.
		me := s.holder
		side.job, side.baton, side.replyTo = *j, false, me
		side.inbox <- struct{}{}
		<-me
		if p := s.panicked; p != nil {
			panic(s.panicMessage(p))
		}
	}
	return turnDone
}

// start starts node n's goroutine, on the goroutine engine, when it is first handed an input:
// a node that never is — crashed from the start, or in a copy of a run kept as a checkpoint and
// stepped only a little — costs no goroutine. Out of line: a node's goroutine may call it, and
// its stack is to stay small (see handle).
//
//go:noinline
func (s *Sim) start(n *nodeRec) {
	side := &s.side[n.idx]
	side.inbox = make(chan struct{})
	s.wg.Add(1)
	go s.serve(n)
}

func (s *Sim) panicMessage(p any) string {
	if msg, ok := p.(string); ok && strings.HasPrefix(msg, "sim: ") {
		return msg // described already
	}
	return fmt.Sprintf("sim: %s node panicked at step %d (%s, seed %d): %v",
		s.cfg.Algorithm.Name, s.steps, algo.FormatDuration(s.now), s.cfg.Seed, p)
}

// dispatch hands job j to n's algorithm.
func (n *nodeRec) dispatch(j *job) {
	// The boxes are empty: the call before was flushed (a run whose node panicked goes no
	// further: see enter).
	s := n.env.s
	if j.kind == callBoot {
		n.boot()
		return
	}
	if n.node == nil {
		s.notBooted(n)
	}
	switch j.kind {
	case callReceive:
		n.node.Receive(&n.env, s.message(j.delivery))
	case callTimer:
		n.node.Timer(&n.env, s.timerNames[j.timer])
	case callElect:
		n.node.Elect(&n.env)
	}
}

// boot makes n's node and starts it. The node is made here, on its own goroutine in the
// goroutine engine, like all its work: not on the stack of whichever goroutine runs the loop.
// Out of line: the boot, which allocates the node, is the deepest path on a node's goroutine,
// and does not carry the frame dispatch needs for the other inputs (see safeDispatch).
//
//go:noinline
func (n *nodeRec) boot() {
	s := n.env.s
	n.node = s.cfg.Algorithm.New(s.nodeID(n), s.cluster)
	n.node.Start(&n.env)
	s.newState(n)
}

// notBooted panics: n was handed an input before it booted, a broken invariant of the engine.
// Out of line, like every rare path on a node's goroutine: see handle.
//
//go:noinline
func (s *Sim) notBooted(n *nodeRec) {
	panic(fmt.Sprintf("sim: node %d was handed an input before it booted", s.nodeID(n)))
}

// serve is a node's goroutine in the goroutine engine. It waits to be handed a job; it handles
// it and replies to the goroutine that called it — or, handed the baton, carries on with the
// run until it passes the baton on or runs out of events, when it hands the run back to the
// goroutine driving it. Either way exactly one goroutine runs the simulation at a time.
func (s *Sim) serve(n *nodeRec) {
	defer s.wg.Done()
	for range s.side[n.idx].inbox {
		for s.handle(n) {
		}
	}
}

// handle runs the job n's goroutine was handed, and then — holding the baton — the run, until
// it hands the baton on (false) or finds the next input is n's own (true: handle that too). The
// algorithm's call and the engine's loop each start from here, never one inside the other, so
// that a node's goroutine needs no more stack than the deeper of the two (docs/performance.md:
// the goroutine engine).
func (s *Sim) handle(n *nodeRec) bool {
	side := &s.side[n.idx]
	p := n.safeDispatch(&side.job)
	if !side.baton {
		s.panicked = p
		side.replyTo <- struct{}{}
		return false
	}
	side.baton = false
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
	side := &s.side[n.idx]
	s.afterCall(n, side.before, side.record)
	return s.runBaton(), nil
}

func (n *nodeRec) safeDispatch(j *job) (panicked any) {
	defer func() {
		if p := recover(); p != nil {
			panicked = fmt.Sprintf("%v\n%s", p, debug.Stack())
		}
	}()
	if j.kind == callBoot {
		n.boot() // not through dispatch, whose frame only the other inputs need
	} else {
		n.dispatch(j)
	}
	return nil
}

// afterCall records n's state change, if any, with the note that explains it.
func (s *Sim) afterCall(n *nodeRec, before Status, record int) {
	if s.monitor.nodeWatchers != nil {
		s.monitor.stepped(n)
	}
	st := n.node.State()
	note := ""
	if len(s.notes) > 0 {
		note = strings.Join(s.notes, "; ")
		s.notes = s.notes[:0]
	}
	if st == n.last && before != Crashed {
		s.addNote(record, note)
		return
	}
	old := n.last
	n.last = st
	s.monitor.changed(n, old, st)
	if s.tracing {
		s.emit(Record{Type: RecState, Node: s.nodeID(n), Old: before, New: Status(st.Status),
			Leader: st.Leader, Term: st.Term, Note: note})
	}
}
