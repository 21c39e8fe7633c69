package main

import (
	"strings"

	"electsim/internal/human"
	"electsim/scenarios"
	"electsim/sim"
)

// haltedError is the error of a run that stopped before its end, printed once its report is
// out (exit 2): the run asked for did not happen. It says why — and, when an action could not
// happen (one naming `leader` at an instant when no node led), which line of the scenario, or
// which --at, it was.
func haltedError(sc *scenarios.Scenario, sum sim.Summary) error {
	a := sum.HaltAction
	if a == nil {
		return usagef("the run stopped early, at %s: %s", human.Duration(sum.End), sum.Halted)
	}
	for _, st := range sc.Actions {
		if st.Line > 0 && st.At == a.At && st.Action.String() == a.String() {
			file := sc.File()
			if file == "" {
				file = sc.Name + ".scn"
			}
			return usagef("%s:%d: at %s %s; the run stopped there", file, st.Line, scenarios.FormatTime(a.At), sum.Halted)
		}
	}
	why := strings.TrimPrefix(sum.Halted, a.String()+": ")
	return usagef("--at '%s': %s; the run stopped there", scenarios.FormatAt(*a), why)
}
