package main

import (
	"time"

	"electsim/scenarios"
	"electsim/sim"
)

// play runs s to its end, checking exps on the way, as scenarios.Play does — the same events
// in the same order, so the same run — with two things more. A step function (non-nil: the
// run goes step by step) may stop the run early by returning false; play then reports it
// stopped, and no summary or verdicts. And the run in bulk goes in
// slices of virtual time, between which tick, if not nil, is told where it is (see
// runProgress).
func play(s *sim.Sim, exps []scenarios.Expectation, step func(sim.StepResult) bool, tick func()) (sim.Summary, []scenarios.Result, bool) {
	c := scenarios.NewChecker(exps)
	end := s.Config().RunFor
	for {
		t, pending := c.Next()
		limit := end
		if pending && t < end {
			limit = t
		}
		if step == nil {
			runUntil(s, limit, tick)
		} else if r, ok := s.StepUntil(limit); ok {
			if !step(r) {
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

// runUntil runs every event due by limit. With tick, it goes in slices of virtual time that
// each take about a tenth of a second, and calls tick between them: running up to t1 and then
// up to t2 runs the events up to t2 that running up to t2 at once does, in the same order.
func runUntil(s *sim.Sim, limit time.Duration, tick func()) {
	if tick == nil {
		s.RunUntil(limit)
		return
	}
	span := time.Millisecond // of virtual time: doubled or halved to fit the wall time
	for from := s.Now(); from < limit && !s.Done(); {
		to := min(limit, from+span)
		start := time.Now()
		s.RunUntil(to)
		switch took := time.Since(start); {
		case took < 25*time.Millisecond && span < time.Hour:
			span *= 2
		case took > 200*time.Millisecond && span > time.Microsecond:
			span /= 2
		}
		tick()
		from = to
	}
	if !s.Done() {
		s.RunUntil(limit) // at limit itself, when the slices ended short of it
	}
}
