package explore_test

import (
	"slices"
	"testing"

	"electsim/algo"
	"electsim/scenarios"
	"electsim/session"
	"electsim/sim"
	"electsim/sim/check"
	"electsim/sim/explore"
)

// The counterexample's scenario, written out and read back, plays in a session — what the TUI
// steps through — to the violation, then to its break just after, and its expectation holds at
// the end. (An external test: session imports report, which imports
// explore.)
func TestCounterexamplePlaysInASession(t *testing.T) {
	info, err := algo.Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	x, err := explore.New(explore.Options{Base: sim.DefaultConfig(info, 3), Faults: check.Partition, Budget: 1, Depth: 40})
	if err != nil {
		t.Fatal(err)
	}
	cx := x.Run(nil).Counterexample
	if cx == nil {
		t.Fatal("no split brain found")
	}
	sc, err := cx.Scenario("split", "test")
	if err != nil {
		t.Fatal(err)
	}
	back, err := scenarios.Parse("split.scn", []byte(scenarios.Format(sc)))
	if err != nil {
		t.Fatal(err)
	}
	ses, err := session.New(back.Config(), back)
	if err != nil {
		t.Fatal(err)
	}
	brokeAt, breakAt := -1, -1
	for i := 0; ; i++ {
		st, ok := ses.Next()
		if !ok {
			break
		}
		for _, r := range st.Records {
			if r.Type == sim.RecBreak {
				breakAt = i
				if r.At != cx.Violation.From {
					t.Errorf("a break at %v, not at the violation (%v)", r.At, cx.Violation.From)
				}
			}
			if r.Type == sim.RecState && r.New == sim.Status(algo.Leader) && r.At == cx.Violation.From && brokeAt < 0 {
				brokeAt = i
			}
		}
	}
	if brokeAt < 0 {
		t.Error("no node became a leader at the violation's time")
	}
	if breakAt <= brokeAt {
		t.Errorf("the break is step %d, before the second leader (step %d): it must come once the property breaks", breakAt, brokeAt)
	}
	end := ses.Ending()
	if end == nil || len(end.Results) != 1 || !end.Results[0].OK {
		t.Fatalf("the expectation: %+v", end)
	}
	if !slices.ContainsFunc(end.Summary.Violations, func(v sim.Violation) bool {
		return v.Property == cx.Violation.Property && v.From == cx.Violation.From && slices.Equal(v.Nodes, cx.Violation.Nodes)
	}) {
		t.Errorf("the session shows %v, not %s", end.Summary.Violations, cx.Violation)
	}
}
