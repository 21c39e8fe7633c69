package check

import (
	"strings"
	"testing"

	"electsim/scenarios"
)

// A counterexample becomes a scenario that names its finder and expects its violation — and
// one that would not replay to it is refused.
func TestCounterexampleScenario(t *testing.T) {
	c := newCheck(t, Options{Base: base(t, "bully", 5), Faults: Partition, Runs: 50})
	res := c.Run(nil)
	if len(res.Failures) == 0 {
		t.Fatal("no run of bully under partitions broke at-most-one-leader")
	}
	cx := c.Shrink(res.Failures[0])
	sc, err := cx.Scenario("split", "electsim check --algo bully --faults partition --seed 7 --runs 1")
	if err != nil {
		t.Fatal(err)
	}
	text := scenarios.Format(sc)
	for _, want := range []string{
		"title   Counterexample: bully breaks at-most-one-leader — found by electsim check --algo bully --faults partition --seed 7 --runs 1\n",
		"\nexpect split-brain\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}

	wrong := cx
	wrong.Violation.From++ // a violation the run does not show
	if _, err := wrong.Scenario("split", "electsim check"); err == nil || !strings.Contains(err.Error(), "replays to other violations") {
		t.Errorf("a counterexample whose violation the scenario does not show: %v, want an error", err)
	}
}
