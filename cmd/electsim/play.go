package main

import (
	"electsim/scenarios"
	"electsim/sim"
)

// play runs s to its end, checking exps on the way, as scenarios.Play does — the same events
// in the same order, so the same run — with two things more. A step function may stop the run
// early by returning false; play then reports it stopped, with no summary or verdicts. And
// tick, if not nil, is called after every step, to show how the run goes (see runProgress).
// With neither, the run goes in bulk; with either, step by step, which runs the same events
// in the same order (see sim.Sim.RunUntil).
func play(s *sim.Sim, exps []scenarios.Expectation, step func(sim.StepResult) bool, tick func()) (sim.Summary, []scenarios.Result, bool) {
	c := scenarios.NewChecker(exps)
	end := s.Config().RunFor
	for {
		t, pending := c.Next()
		limit := end
		if pending && t < end {
			limit = t
		}
		if step == nil && tick == nil {
			s.RunUntil(limit)
		} else if r, ok := s.StepUntil(limit); ok {
			if step != nil && !step(r) {
				return sim.Summary{}, nil, true
			}
			if tick != nil {
				tick()
			}
			continue
		}
		if !pending || s.Done() && s.Now() < t {
			break
		}
		c.CheckUntil(s, t)
	}
	s.RunUntil(end)
	sum := s.Summary()
	return sum, c.Finish(s, sum), false
}
