package sim

import (
	"slices"
	"time"

	"electsim/algo"
)

// This file holds read-only accessors for whoever draws a run as it stands — what is in flight
// and since when, each node's pending timers, what paused nodes hold — without allocating more
// than the caller's slices: a picture asks for them every frame.

// Flying is a message in flight: sent, not yet arrived, not held by a paused receiver.
type Flying struct {
	Msg     algo.Message
	Sent    time.Duration // when it was sent (see flightCode for the rare case it is rounded)
	Arrives time.Duration // when it is due
}

// AppendFlying appends the messages in flight to dst, in the order they are due (the queue's
// order: by arrival, then as scheduled), and returns it. Held messages are left out: see
// AppendHeld.
func (s *Sim) AppendFlying(dst []Flying) []Flying {
	// The keys sorted, not the messages: a key is small and holds no pointer.
	var keys []qkey
	s.q.each(func(k qkey) {
		if s.q.event(k.idx).kind == evDeliver {
			keys = append(keys, k)
		}
	})
	slices.SortFunc(keys, func(a, b qkey) int {
		if a.less(&b) {
			return -1
		}
		return 1
	})
	for _, k := range keys {
		e := s.q.event(k.idx)
		sent := k.at - flightOf(e.gen)
		if e.held() { // held while its receiver was paused, handed over now
			sent = k.at
		}
		dst = append(dst, Flying{Msg: s.message(e), Sent: sent, Arrives: k.at})
	}
	return dst
}

// flightCode packs a message's time of flight into a delivery event's gen field, which a
// delivery does not otherwise use: exactly in nanoseconds up to about 2.1 s, else in whole
// microseconds (exact when the delay is whole microseconds, as every delay the scenario
// language can write is) up to about 35 minutes, and longer flights as 35 minutes. Keeping the
// send time so costs the event nothing: it stays 40 bytes.
func flightCode(d time.Duration) uint32 {
	const top = 1 << 31
	switch {
	case d < 0:
		return 0
	case d < top:
		return uint32(d)
	case d/time.Microsecond < top:
		return top | uint32(d/time.Microsecond)
	}
	return top | (top - 1)
}

// flightOf unpacks flightCode.
func flightOf(c uint32) time.Duration {
	const top = 1 << 31
	if c&top == 0 {
		return time.Duration(c)
	}
	return time.Duration(c&^top) * time.Microsecond
}

// PendingTimer is a timer a node has set that has not yet fired nor been cancelled.
type PendingTimer struct {
	Node     algo.ID
	Name     string
	Set      time.Duration // when it was last set; -1 unless the run keeps it (Config.TimerStarts)
	Deadline time.Duration // when it fires
}

// AppendTimers appends every pending timer of every node that is up (paused ones included) to
// dst, ascending by node and then in the order the run first saw each timer's name, and returns
// it.
func (s *Sim) AppendTimers(dst []PendingTimer) []PendingTimer {
	for i := range s.nodes {
		n := &s.nodes[i]
		if n.down || n.node == nil {
			continue
		}
		for j := range int32(len(s.timerNames)) {
			var ts *timerSlot
			if j < inlineTimers {
				ts = &n.timers[j]
			} else if s.side != nil && int(j-inlineTimers) < len(s.side[i].more) {
				ts = &s.side[i].more[j-inlineTimers]
			}
			if ts == nil || !ts.armed {
				continue
			}
			dst = append(dst, PendingTimer{Node: s.nodeID(n), Name: s.timerNames[j], Set: s.timerSetAt(int32(i), j), Deadline: ts.deadline})
		}
	}
	return dst
}

// timerSetAt returns when node i last set its timer j, or -1 if the run does not keep it.
func (s *Sim) timerSetAt(i, j int32) time.Duration {
	if s.timerSet == nil || int(j) >= len(s.timerSet[i]) {
		return -1
	}
	return s.timerSet[i][j]
}

// noteTimerSet notes that node i set its timer j now: kept for a picture when Config.TimerStarts.
//
//go:noinline
func (s *Sim) noteTimerSet(i, j int32) {
	set := &s.timerSet[i]
	for int(j) >= len(*set) {
		*set = append(*set, -1)
	}
	(*set)[j] = s.now
}

// HeldInput is an input a paused node holds, to handle when it resumes.
type HeldInput struct {
	Node algo.ID
	// What it is: "message" (Msg), "timer" (Timer, its name), "elect" or "boot".
	Kind  string
	Msg   algo.Message
	Timer string
}

// AppendHeld appends the inputs paused nodes hold to dst — ascending by node, each node's in the
// order it will handle them — and returns it.
func (s *Sim) AppendHeld(dst []HeldInput) []HeldInput {
	for i := range s.side { // none without the side records: nothing was held
		id := s.idOf(int32(i))
		for _, idx := range s.side[i].held {
			e := s.q.event(idx)
			h := HeldInput{Node: id}
			switch e.kind {
			case evDeliver:
				h.Kind, h.Msg = "message", s.message(e)
			case evTimer:
				h.Kind, h.Timer = "timer", s.timerNames[e.which]
			case evElect:
				h.Kind = "elect"
			case evBoot:
				h.Kind = "boot"
			default:
				continue
			}
			dst = append(dst, h)
		}
	}
	return dst
}
