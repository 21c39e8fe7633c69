package session

import (
	"errors"
	"fmt"
	"unsafe"

	"electsim/internal/human"
	"electsim/sim"
)

// What a session holds is bounded. It keeps every step it shows, with its records, so that
// stepping back is exact and going forward again costs nothing; and every step is counted —
// its records, their notes and actions — against one bound on memory for the whole session:
// the run's own (sim.Config.MaxMemory, which electsim sets to half of what the process may
// have; docs/model.md, "Runs that cannot finish"), or a smaller one a view sets
// (SetMemoryBound). The run, the steps shown and those known ahead, and the copies kept for
// stepping back together stay within it: the copies give way first, and when the run and its
// steps alone would pass it, the session goes no further — it shows no new step, Full says
// which bound was met and how much it holds, and acting is refused (ErrFull). Stepping back
// and forward over what is kept, and starting again, go on working: nothing kept is dropped,
// so every step back stays exact.

// ErrFull is what Act's error wraps when the session is full (Full): the action would need
// steps it has no room to keep.
var ErrFull = errors.New("the session is full")

// fullError is Act's error when the session is full: the reason Full gives.
type fullError struct{ why string }

func (e *fullError) Error() string        { return e.why }
func (e *fullError) Is(target error) bool { return target == ErrFull }

// MaxSay is the most characters a `say` the user adds (Act) may hold: a paragraph. Each is
// kept with the step it makes, in the actions saved, and in every answer that shows it.
const MaxSay = 1000

// The reckoning of a step, measured (TestStepReckoningIsCloseToTheHeap): the Step itself and
// its share of the slices of steps that grow by doubling, a view's index of it (a log row),
// and its records, their notes and the actions they carry.
const (
	stepBytes   = int64(unsafe.Sizeof(Step{}))*2 + 16
	recordBytes = int64(unsafe.Sizeof(sim.Record{}))
	actionBytes = int64(unsafe.Sizeof(sim.Action{}))
	idBytes     = 8
)

// reckon returns the memory step st holds, as the session reckons it.
func reckon(st Step) int64 {
	n := stepBytes + int64(cap(st.Records))*recordBytes
	for i := range st.Records {
		r := &st.Records[i]
		n += int64(len(r.Note))
		if a := r.Action; a != nil {
			n += actionBytes + int64(len(a.Text)) + int64(len(a.Nodes))*idBytes
			for _, g := range a.Groups {
				n += 24 + int64(len(g))*idBytes
			}
		}
	}
	return n
}

// bound is the memory a session may hold, and how much of it its steps hold.
type bound struct {
	limit int64  // what the session may hold: the run, its steps and the copies kept
	shown int64  // what the steps shown hold (steps)
	ahead int64  // what the steps known ahead hold (ahead)
	full  string // why the latest step asked for was not shown, for want of room; "" if it was, or none was due
	step  int64  // the most a step has held: the room the next one is taken to need
}

// newBound is the bound of a session whose run may hold cfg.MaxMemory.
func newBound(cfg sim.Config) bound {
	limit := cfg.MaxMemory
	if limit <= 0 {
		limit = sim.DefaultMaxMemory
	}
	return bound{limit: limit}
}

// SetMemoryBound bounds what the session holds — its run, its steps, the copies kept for
// stepping back — at bytes, when that is less than the run's own bound (sim.Config.MaxMemory):
// a server, or a page, that keeps many sessions at once gives each a share. It takes effect at
// the next step.
func (s *Session) SetMemoryBound(bytes int64) {
	if bytes > 0 && bytes < s.bound.limit {
		s.bound.limit = bytes
		s.cps.budget = min(s.cps.budget, bytes/2)
	}
}

// MemoryBound returns what the session may hold, as the engine reckons memory.
func (s *Session) MemoryBound() int64 { return s.bound.limit }

// Holds returns what the session holds now, as the engine reckons memory: its run, the steps
// shown and known ahead, the copies kept for stepping back.
func (s *Session) Holds() int64 {
	return s.run.MemoryUse() + s.bound.shown + s.bound.ahead + s.cps.bytes()
}

// Full says why the session showed no new step, the last time it was asked for one (Next,
// NextBy, PlayTo, Act), though its run goes on: it holds what its memory bound allows — "the
// session stops at step 812,345: it holds 1.2 GB … and its memory bound is 1.2 GB; …" — or ""
// when it showed one, or none was due. The run is not over (Done is false): stepping back and
// forward over the steps kept goes on working, and starting again makes room.
func (s *Session) Full() string { return s.bound.full }

// room reports whether the session has room for one more step — as big as the biggest so far:
// the run and the steps kept stay within the bound, the copies kept for stepping back giving way
// first. When it has none, Full says so.
func (s *Session) room() bool {
	run := s.run.MemoryUse()
	steps := s.bound.shown + s.bound.ahead
	if run+steps+s.bound.step+s.cps.bytes() > s.bound.limit {
		s.cps.fit(s.bound.limit-run-steps-s.bound.step, len(s.steps))
	}
	if run+steps+s.bound.step <= s.bound.limit {
		return true
	}
	ahead := ""
	if len(s.ahead) > 0 {
		ahead = fmt.Sprintf(" and %s stepped back over", human.Thousands(int64(len(s.ahead))))
	}
	s.bound.full = fmt.Sprintf("the session stops at step %s: it holds %s — the run, and the %s steps it shows%s — and its memory bound is %s; "+
		"step back, or start again, or play the run with electsim run, which keeps no steps",
		human.Thousands(int64(len(s.steps))), sim.Bytes(run+steps), human.Thousands(int64(len(s.steps))), ahead, sim.Bytes(s.bound.limit))
	return false
}

// StepsFrom returns at most n of the steps shown, from index from (step from+1) on: a page of
// the log, for a view that sends the steps a page at a time rather than all of them with every
// answer. A from past the steps shown, or n ≤ 0, gives none. The slice is the session's own,
// valid until it next changes: read it, do not change it.
func (s *Session) StepsFrom(from, n int) []Step {
	if from < 0 {
		from = 0
	}
	if n <= 0 || from >= len(s.steps) {
		return nil
	}
	return s.steps[from:min(len(s.steps), from+n)]
}
