package report

import (
	"fmt"
	"strings"

	"electsim/internal/human"
	"electsim/scenarios"
	"electsim/sim"
)

// Halted says why a run of sc stopped before its end (sum.Halted must say it did) — and, when
// an action could not happen (one naming `leader` at an instant when no node led), where it
// came from: the file and line of the scenario, or the --at that added it.
func Halted(sc *scenarios.Scenario, sum sim.Summary) string {
	a := sum.HaltAction
	if a == nil {
		return fmt.Sprintf("the run stopped early, at %s: %s", human.Duration(sum.End), sum.Halted)
	}
	for _, st := range sc.Actions {
		if st.Line > 0 && st.At == a.At && st.Action.String() == a.String() {
			file := sc.File()
			if file == "" {
				file = sc.Name + ".scn"
			}
			return fmt.Sprintf("%s:%d: at %s %s; the run stopped there", file, st.Line, scenarios.FormatWhen(*a), sum.Halted)
		}
	}
	why := strings.TrimPrefix(sum.Halted, a.String()+": ")
	return fmt.Sprintf("--at '%s': %s; the run stopped there", scenarios.FormatAt(*a), why)
}
