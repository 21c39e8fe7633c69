package tui

import (
	"fmt"
	"slices"
	"time"

	"electsim/algo"
	"electsim/report"
	"electsim/sim"
)

// started is the step at which a node first started.
type started struct {
	step int // an index into steps
	id   algo.ID
}

// restart begins the run again from time 0, with the user's actions where they were taken, on
// the engine the user chose: every step shown is forgotten.
func (ss *session) restart() error {
	s, err := sim.New(ss.config())
	if err != nil {
		return err
	}
	ss.close()
	ss.s, ss.traced, ss.end = s, ss.base.Trace, nil
	ss.ahead, ss.aheadEnds = nil, false
	ss.gen++
	ss.truncate(0)
	return nil
}

func (ss *session) close() {
	if ss.s != nil {
		ss.s.Close()
	}
}

// back goes back n steps. The run is deterministic, so it is replayed to that step, with the
// user's actions where they were taken, and its state is exactly the one shown then; the steps
// stepped back over are kept, to be shown again going forward without recording them again. The
// replay records nothing (it is several times faster so), and is the only one until the user
// goes further than ever, or acts.
func (ss *session) back(n int) error {
	to := max(0, len(ss.steps)-n)
	ahead := append(slices.Clone(ss.steps[to:]), ss.ahead...)
	ends := ss.aheadEnds || len(ss.ahead) == 0 && ss.s.Done()
	if err := ss.replayTo(to, false); err != nil {
		return err
	}
	ss.ahead, ss.aheadEnds = ahead, ends
	return nil
}

// replayTo replays the run to step n (at most the steps shown), tracing or not, and forgets the
// steps shown after it.
func (ss *session) replayTo(n int, traced bool) error {
	s, at, err := ss.origin(n, traced)
	if err != nil {
		return err
	}
	for ; at < n; at++ {
		if _, ok := s.Step(); !ok {
			break
		}
	}
	ss.close()
	ss.s, ss.traced, ss.end = s, traced, nil
	ss.ahead, ss.aheadEnds = nil, false
	ss.truncate(n)
	return nil
}

// origin returns a run to replay to step n from, and the step it is at: the run from its start,
// on the inline engine, which takes the same steps as the goroutine engine without starting a
// goroutine per node. This is where a checkpoint — a copy of the run kept every so many steps —
// would give a run at a later step.
func (ss *session) origin(n int, traced bool) (*sim.Sim, int, error) {
	cfg := ss.config()
	cfg.Engine, cfg.Trace = sim.Inline, traced
	s, err := sim.New(cfg)
	return s, 0, err
}

// truncate forgets the steps shown from step n on, and what was noted about them.
func (ss *session) truncate(n int) {
	ss.steps = ss.steps[:n]
	for len(ss.says) > 0 && ss.says[len(ss.says)-1] >= n {
		ss.says = ss.says[:len(ss.says)-1]
	}
	if n == 0 {
		ss.started, ss.starts = map[algo.ID]bool{}, nil
	}
	for len(ss.starts) > 0 && ss.starts[len(ss.starts)-1].step >= n {
		delete(ss.started, ss.starts[len(ss.starts)-1].id)
		ss.starts = ss.starts[:len(ss.starts)-1]
	}
}

// index notes what step i shows.
func (ss *session) index(i int) {
	for _, r := range ss.steps[i].recs {
		switch {
		case r.Type == sim.RecSay:
			ss.says = append(ss.says, i)
		case r.Type == sim.RecBoot, r.Type == sim.RecState && r.New != sim.Crashed && r.New != sim.Paused:
			if !ss.started[r.Node] {
				ss.started[r.Node] = true
				ss.starts = append(ss.starts, started{i, r.Node})
			}
		}
	}
}

// step runs the next step and keeps it; it returns false at the end of the run.
func (ss *session) step() (logStep, bool) { return ss.stepUntil(ss.base.RunFor) }

// stepUntil runs the next step due by time t and keeps it; it returns false when none is. A run
// replayed without recording takes the steps known ahead; past them, it is replayed once more,
// recording, to go on.
func (ss *session) stepUntil(t time.Duration) (logStep, bool) {
	if !ss.traced && (len(ss.ahead) > 0 || ss.aheadEnds) {
		r, ok := ss.s.StepUntil(t)
		if !ok {
			return logStep{}, false
		}
		if len(ss.ahead) == 0 || ss.ahead[0].recs[0].Step != r.Step {
			panic(fmt.Sprintf("tui: the replayed run took step %d where step %d was known", r.Step, len(ss.steps)+1))
		}
		ls := ss.ahead[0]
		ss.ahead = ss.ahead[1:]
		return ls, ss.keep(ls)
	}
	if !ss.traced {
		if err := ss.replayTo(len(ss.steps), true); err != nil {
			panic(fmt.Sprintf("tui: replaying the run to step %d: %v", len(ss.steps), err))
		}
	}
	r, ok := ss.s.StepUntil(t)
	if !ok {
		return logStep{}, false
	}
	ls := logStep{recs: slices.Clone(r.Records), routine: report.Routine(r.Records, ss.base.Algorithm)}
	return ls, ss.keep(ls)
}

// keep adds a step to those shown.
func (ss *session) keep(ls logStep) bool {
	ss.steps = append(ss.steps, ls)
	ss.index(len(ss.steps) - 1)
	return true
}
