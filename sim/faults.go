package sim

import (
	"fmt"
	"slices"
	"strings"

	"electsim/algo"
	"electsim/network"
)

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
