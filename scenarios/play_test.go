package scenarios

import (
	"reflect"
	"testing"

	"electsim/sim"
)

// A run played step by step — as electsim run plays it to show its progress — is the run played
// in bulk: the same summary and verdicts, on both engines. A step function that says stop stops
// it there.
func TestPlayStepsSameRun(t *testing.T) {
	for _, name := range []string{"bully-partition", "raft-partition", "lease-pause-fencing"} {
		for _, e := range []sim.Engine{sim.Goroutine, sim.Inline} {
			var sums []sim.Summary
			var verdicts [][]Result
			for _, stepwise := range []bool{false, true} {
				sc, err := LoadBundled(name)
				if err != nil {
					t.Fatal(err)
				}
				cfg := sc.Config()
				cfg.Engine = e
				s, err := sim.New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				steps := 0
				var step func(sim.StepResult) bool
				if stepwise {
					step = func(sim.StepResult) bool { steps++; return true }
				}
				sum, res, stopped := PlaySteps(s, sc.Expects, step)
				s.Close()
				if stopped || stepwise && steps != sum.Steps {
					t.Errorf("%s %s: stopped %v, %d steps handed over of %d", name, e, stopped, steps, sum.Steps)
				}
				sums, verdicts = append(sums, sum), append(verdicts, res)
			}
			if !reflect.DeepEqual(sums[0], sums[1]) || !reflect.DeepEqual(verdicts[0], verdicts[1]) {
				t.Errorf("%s %s: the run step by step differs:\n%+v\n%+v", name, e, sums[0], sums[1])
			}
		}
	}
	sc, err := LoadBundled("bully-partition")
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	steps := 0
	if _, res, stopped := PlaySteps(s, sc.Expects, func(sim.StepResult) bool { steps++; return steps < 10 }); !stopped || res != nil || s.Steps() != 10 {
		t.Errorf("stopped %v after %d steps, verdicts %v; want it stopped at step 10, without verdicts", stopped, s.Steps(), res)
	}
}
