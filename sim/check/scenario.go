package check

import (
	"fmt"
	"slices"

	"electsim/scenarios"
	"electsim/sim"
)

// Scenario returns the counterexample as a scenario named name: the shrunk run, its narration,
// and the expectation that pins the violation, titled with the command that found it
// (foundBy). It first checks that the scenario, written out and read back, replays to the
// same violation and meets its expectation — what `electsim run FILE` will show; an error says
// it does not, which is a bug in electsim.
func (cx *Counterexample) Scenario(name, foundBy string) (*scenarios.Scenario, error) {
	cfg := cx.Config
	sc := scenarios.FromConfig(name, cfg)
	sc.Title = fmt.Sprintf("Counterexample: %s breaks %s — found by %s", cfg.Algorithm.Name, cx.Property, foundBy)
	sc.Expects = []scenarios.Expectation{{Kind: scenarios.ExpectViolated, Property: cx.Expect, By: -1}}
	if err := cx.replays(sc); err != nil {
		return nil, err
	}
	return sc, nil
}

// replays checks that sc, written and read back, shows the counterexample's violation and
// meets its expectation.
func (cx *Counterexample) replays(sc *scenarios.Scenario) error {
	back, err := scenarios.Parse(sc.Name+".scn", []byte(scenarios.Format(sc)))
	if err != nil {
		return fmt.Errorf("check: the counterexample does not parse back: %w", err)
	}
	s, err := sim.New(back.Config())
	if err != nil {
		return fmt.Errorf("check: the counterexample does not run: %w", err)
	}
	defer s.Close()
	sum, results := scenarios.Play(s, back.Expects, nil)
	for _, r := range results {
		if !r.OK {
			return fmt.Errorf("check: the counterexample does not replay: %s — %s", r.Expectation, r.Detail)
		}
	}
	for _, v := range sum.Violations {
		if v.Property == cx.Expect && v.From == cx.Violation.From && slices.Equal(v.Nodes, cx.Violation.Nodes) {
			return nil
		}
	}
	return fmt.Errorf("check: the counterexample replays to other violations than %s", cx.Violation)
}
