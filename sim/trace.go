package sim

import (
	"time"

	"electsim/algo"
	"electsim/network"
)

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
