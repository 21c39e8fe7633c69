package session

import (
	"fmt"
	"slices"
	"time"

	"electsim/algo"
	"electsim/report"
	"electsim/scenarios"
	"electsim/sim"
)

// Restart begins the run again from time 0 and forgets every action the user took: the scenario
// as written, on the engine it was given. Every step shown is forgotten, and Generation changes.
func (s *Session) Restart() error {
	s.user, s.shownAt = nil, nil
	s.cps.prune(nil)
	return s.start()
}

// start begins the run again from time 0, with the user's actions where they were taken.
func (s *Session) start() error {
	r, err := sim.New(s.config())
	if err != nil {
		return err
	}
	if s.run != nil {
		s.run.Close()
	}
	s.run, s.traced, s.end = r, true, nil
	s.setAhead(nil, false)
	s.gen++
	s.truncate(0)
	s.bound.full = ""
	return nil
}

// Next runs the next step and shows it; it returns false, and shows nothing new, at the end of
// the run — then Ending has the verdicts — or when the session is full (Full).
func (s *Session) Next() (Step, bool) { return s.NextBy(s.base.RunFor) }

// NextBy runs the next step due by virtual time t and shows it; it returns false when none is,
// or when the session is full (Full). Playing virtual time continuously is NextBy the time
// reached, until it returns false or a step is a break. When t is the end of the run or
// later, false means the run is over, or the session full.
func (s *Session) NextBy(t time.Duration) (Step, bool) {
	st, ok := s.stepUntil(t)
	s.settle()
	return st, ok
}

// Back goes back n steps, or to the start of the run if it is nearer. The run is deterministic,
// so it is replayed to that step, with the user's actions where they were taken, and its state
// is exactly the one shown then; the steps stepped back over are kept, to be shown again going
// forward without running them again with their trace. The replay records nothing (it is
// several times faster so), and is the only one until the user goes further than ever, or acts.
func (s *Session) Back(n int) error {
	if n <= 0 || len(s.steps) == 0 {
		return nil
	}
	to := max(0, len(s.steps)-n)
	ahead := append(slices.Clone(s.steps[to:]), s.ahead...)
	ends := s.aheadEnds || len(s.ahead) == 0 && s.run.Done()
	if err := s.replayTo(to, false); err != nil {
		return err
	}
	s.setAhead(ahead, ends)
	return nil
}

// setAhead makes ahead the steps known ahead, and reckons what they hold.
func (s *Session) setAhead(ahead []Step, ends bool) {
	s.ahead, s.aheadEnds = ahead, ends
	s.bound.ahead = 0
	for _, st := range ahead {
		s.bound.ahead += reckon(st)
	}
}

// replayTo replays the run to step n (at most the steps shown), with its trace or not, and
// forgets the steps shown after it.
func (s *Session) replayTo(n int, traced bool) error {
	r, at, err := s.origin(n, traced)
	if err != nil {
		return err
	}
	keep := s.cps.due(at, n)
	for ; ; at++ {
		if at == keep {
			room := s.bound.limit - r.MemoryUse() - s.bound.shown - s.bound.ahead - s.bound.step // a copy never takes the steps' room
			s.cps.add(checkpoint{step: at, run: r.Clone(), traced: traced, user: slices.Clone(s.user)}, n, room)
		}
		if at == n {
			break
		}
		if _, ok := r.Step(); !ok {
			break
		}
	}
	s.run.Close()
	s.run, s.traced, s.end = r, traced, nil
	s.setAhead(nil, false)
	s.truncate(n)
	return nil
}

// origin returns a run to replay to step n from, and the step it is at: a copy of the latest
// checkpoint at or before n that fits — its run has the user's actions so far, or can be given
// those it lacks — or else the run from its start. A replay is on the inline engine, which takes
// the same steps as the goroutine engine without starting a goroutine per node.
func (s *Session) origin(n int, traced bool) (*sim.Sim, int, error) {
	if cp := s.cps.best(n, traced, s.user); cp != nil {
		r := cp.run.Clone()
		for _, a := range s.user[len(cp.user):] {
			if err := r.Schedule(a); err != nil {
				r.Close()
				return nil, 0, fmt.Errorf("replaying the run from step %d: %w", cp.step, err)
			}
		}
		return r, cp.step, nil
	}
	cfg := s.config()
	cfg.Engine, cfg.Trace = sim.Inline, traced
	r, err := sim.New(cfg)
	return r, 0, err
}

// truncate forgets the steps shown from step n on, and what was noted about them.
func (s *Session) truncate(n int) {
	for _, st := range s.steps[n:] {
		s.bound.shown -= reckon(st)
	}
	s.steps = s.steps[:n]
	s.instantAt = -1
	for len(s.says) > 0 && s.says[len(s.says)-1] >= n {
		s.says = s.says[:len(s.says)-1]
	}
	if n == 0 {
		s.started, s.starts = map[algo.ID]bool{}, nil
	}
	for len(s.starts) > 0 && s.starts[len(s.starts)-1].step >= n {
		delete(s.started, s.starts[len(s.starts)-1].id)
		s.starts = s.starts[:len(s.starts)-1]
	}
}

// index notes what step i shows.
func (s *Session) index(i int) {
	for _, r := range s.steps[i].Records {
		switch {
		case r.Type == sim.RecSay:
			s.says = append(s.says, i)
		case r.Type == sim.RecBoot, r.Type == sim.RecState && r.New != sim.Crashed && r.New != sim.Paused:
			if !s.started[r.Node] {
				s.started[r.Node] = true
				s.starts = append(s.starts, start{i, r.Node})
			}
		}
	}
}

// stepUntil runs the next step due by time t and keeps it; it returns false when none is, or
// when there is no room to keep it (Full). A run replayed without its trace takes the steps
// known ahead; past them, it goes on with its trace — replayed once more with it, unless it has
// it already.
func (s *Session) stepUntil(t time.Duration) (Step, bool) {
	s.bound.full = ""
	if !s.traced && (len(s.ahead) > 0 || s.aheadEnds) {
		r, ok := s.run.StepUntil(t)
		if !ok {
			return Step{}, false
		}
		if len(s.ahead) == 0 || s.ahead[0].Records[0].Step != r.Step {
			panic(fmt.Sprintf("session: the replayed run took step %d where step %d was known", r.Step, len(s.steps)+1))
		}
		st := s.ahead[0]
		s.ahead = s.ahead[1:]
		s.bound.ahead -= reckon(st)
		return st, s.keep(st)
	}
	if !s.traced {
		if err := s.trace(); err != nil {
			panic(fmt.Sprintf("session: replaying the run to step %d: %v", len(s.steps), err))
		}
	}
	if !s.room() {
		return Step{}, false
	}
	r, ok := s.run.StepUntil(t)
	if !ok {
		return Step{}, false
	}
	st := Step{Records: slices.Clone(r.Records), Routine: report.Routine(r.Records, s.base.Algorithm)}
	s.bound.step = max(s.bound.step, reckon(st))
	return st, s.keep(st)
}

// trace makes the run go on with its trace: a run replayed without it is replayed once more,
// to the same step, with it — unless it has it already (it was copied from a checkpoint that
// had it). The steps known ahead are forgotten: the run now shows its own.
func (s *Session) trace() error {
	if s.run.Config().Trace {
		s.traced = true
		s.setAhead(nil, false)
		return nil
	}
	return s.replayTo(len(s.steps), true)
}

// keep adds a step to those shown.
func (s *Session) keep(st Step) bool {
	s.bound.shown += reckon(st)
	s.steps = append(s.steps, st)
	s.index(len(s.steps) - 1)
	return true
}

// settle judges the run once it has ended, so that Ending has the verdicts: the expectations are
// judged on a replay of the same run — the scenario with the user's actions — in bulk, once.
func (s *Session) settle() {
	if !s.run.Done() || s.end != nil {
		return
	}
	e := &Ending{Summary: s.run.Summary()}
	if s.sc != nil && len(s.sc.Expects) > 0 {
		cfg := s.config()
		cfg.Trace, cfg.Engine = false, sim.Inline
		if r, err := sim.New(cfg); err == nil {
			_, e.Results = scenarios.Play(r, s.sc.Expects, nil)
			r.Close()
		}
	}
	s.end = e
}
