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
	if a.Op != Elect {
		s.noteGroups(a)
	}
	r := Record{Type: RecFault, Action: a}
	if len(a.Nodes) == 1 {
		r.Node = a.Nodes[0]
	}
	f := fault{s: s, record: s.emit(r)}
	if a.Leader > 0 && a.Op != Partition { // a partition's text says it: "leader (node 5) | 1"
		f.note("the leader, node %d: every live node names it", a.Leader)
	}
	switch a.Op {
	case Crash:
		f.crash(a.Nodes)
	case Recover:
		f.recover(a.Nodes)
	case Pause:
		f.pause(a.Nodes)
	case Resume:
		f.resume(a.Nodes)
	case Partition:
		s.net.Partition(a.Groups)
	case Cut:
		s.net.Cut(*a.Link)
	case Heal:
		f.heal(a.Link)
	case SetDelay:
		f.setDelay(a)
	case SetDrop:
		if err := s.net.SetDrop(a.Link, a.Drop/100); err != nil {
			f.note("%v", err)
		}
	case Elect:
		f.elect(a.Nodes)
	case Clock:
		for _, id := range a.Nodes {
			f.setClock(s.node(id), a.Rate)
		}
	}
}

// fault is a fault action being applied: its record, which notes join.
type fault struct {
	s      *Sim
	record int // the index of the action's record in Sim.records, or -1
}

// note adds to the action's record why it did less than it says, when tracing.
func (f fault) note(format string, args ...any) {
	if f.s.tracing {
		f.s.addNote(f.record, fmt.Sprintf(format, args...))
	}
}

// crash crashes the nodes ids that are up.
func (f fault) crash(ids []algo.ID) {
	s := f.s
	for _, id := range ids {
		if n := s.node(id); n.down {
			f.note("node %d is already crashed", id)
		} else {
			old := n.status()
			s.crash(n)
			s.emit(Record{Type: RecState, Node: id, Old: old, New: Crashed})
		}
	}
}

// recover boots afresh the nodes ids that are crashed.
func (f fault) recover(ids []algo.ID) {
	s := f.s
	for _, id := range ids {
		if n := s.node(id); !n.down {
			f.note("node %d is not crashed", id)
		} else {
			s.recover(n, f.record)
		}
	}
}

// pause pauses the nodes ids that are up and running.
func (f fault) pause(ids []algo.ID) {
	s := f.s
	for _, id := range ids {
		switch n := s.node(id); {
		case n.down:
			f.note("node %d is crashed", id)
		case n.paused:
			f.note("node %d is already paused", id)
		default:
			old := n.status()
			n.paused = true
			s.emit(Record{Type: RecState, Node: id, Old: old, New: Paused, Leader: n.last.Leader, Term: n.last.Term})
		}
	}
}

// resume resumes the nodes ids that are paused; what they held is handled next.
func (f fault) resume(ids []algo.ID) {
	s := f.s
	for _, id := range ids {
		n := s.node(id)
		if !n.paused {
			f.note("node %d is not paused", id)
			continue
		}
		n.paused = false
		s.emit(Record{Type: RecState, Node: id, Old: Paused, New: n.status(), Leader: n.last.Leader, Term: n.last.Term})
		// What arrived meanwhile is handled next, in its original order: before anything
		// the run schedules for this instant, which is younger. (Without the side records,
		// nothing was held: a resume need not make them.)
		if s.side == nil {
			continue
		}
		side := &s.side[n.idx]
		for _, idx := range side.held {
			s.q.requeueOrd(s.now, s.q.next(classAction), idx)
		}
		side.held = side.held[:0]
	}
}

// heal restores link, or with link nil ends the partition and restores every cut link. The
// record says what that ends, or that nothing was blocked.
func (f fault) heal(link *network.Link) {
	s := f.s
	cuts := s.net.Cuts()
	switch {
	case link != nil && !slices.Contains(cuts, *link) && s.net.Partitioned():
		f.note("the link %s is not cut: nothing to heal (the partition is what blocks it: heal without a link ends it)", link)
	case link != nil && !slices.Contains(cuts, *link):
		f.note("the link %s is not cut: nothing to heal", link)
	case link == nil && !s.net.Partitioned() && len(cuts) == 0:
		f.note("no partition and no cut link: nothing to heal")
	case link == nil:
		var ended []string
		if s.net.Partitioned() {
			ended = append(ended, "the partition ends")
		}
		for _, l := range cuts {
			ended = append(ended, fmt.Sprintf("the link %s carries messages again", l))
		}
		f.note("%s", strings.Join(ended, "; "))
	}
	if link != nil {
		s.net.Restore(*link)
	} else {
		s.net.Heal()
	}
}

// setDelay sets the delay of a.Link, or of every link.
func (f fault) setDelay(a *Action) {
	s := f.s
	need, err := s.net.SetDelay(a.Link, a.Delay)
	if err != nil {
		f.note("%v", err)
	}
	if need {
		// FIFO from now on must respect what is already in flight.
		s.q.each(func(k qkey) {
			if e := s.q.event(k.idx); e.kind == evDeliver {
				s.net.InFlight(network.Link{From: s.idOf(e.from), To: s.idOf(e.node)}, k.at)
			}
		})
	}
}

// elect asks the nodes ids to start an election: at once if they are up, on resuming if they
// are paused, right after booting if they are about to.
func (f fault) elect(ids []algo.ID) {
	s := f.s
	for _, id := range ids {
		switch n := s.node(id); {
		case n.down:
			f.note("node %d is crashed and cannot elect", id)
		case n.paused:
			side := s.sideOf(n.idx)
			side.held = append(side.held, s.q.store(event{kind: evElect, node: n.idx}))
			f.note("node %d is paused: it will elect when it resumes", id)
		case n.node == nil:
			// Resumed at this instant, its boot is queued: elect right after it.
			s.q.pushOrd(s.now, s.q.next(classAction), event{kind: evElect, node: n.idx})
			f.note("node %d has not booted yet: it will elect once it has", id)
		default:
			s.elect(n, f.record, false)
		}
	}
}

// crash loses n's state, timers and the messages in flight to it.
func (s *Sim) crash(n *nodeRec) {
	old := n.last
	n.down, n.paused = true, false
	n.last = algo.State{}
	s.monitor.crashed(n, old)
	s.crashes++
	s.epochs[n.idx] = s.crashes
	n.node = nil
	s.newState(n)
	for i := range int32(len(s.timerNames)) {
		s.timer(n, i).armed = false
	}
	// What it held while paused is lost too: deliveries are dropped as they come up. (Without
	// the side records, nothing was held: a crash need not make them.)
	if s.side != nil {
		side := &s.side[n.idx]
		for _, idx := range side.held {
			s.q.requeue(s.now, idx)
		}
		side.held = side.held[:0]
	}
}

// recover boots a fresh node in n's place.
func (s *Sim) recover(n *nodeRec, record int) {
	n.down = false
	s.monitor.recovering(n)
	s.call(n, &job{kind: callBoot}, record, Crashed, false)
}
