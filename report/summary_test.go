package report

import (
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// A run that a guard stopped early says so at the top of its summary, before the verdicts that
// describe the run cut short — not only in a warning on standard error.
func TestReportSaysTheRunStoppedEarly(t *testing.T) {
	sum := sim.Summary{Algorithm: "bully", IDs: []algo.ID{1, 2}, End: 10950 * time.Microsecond, Steps: 7,
		Halted: "more than 20000000 events were scheduled at once, more than a run may hold in memory; try fewer nodes"}
	var out strings.Builder
	WriteSummary(&out, Plain{}, sum)
	lines := strings.Split(out.String(), "\n")
	if len(lines) < 2 || lines[1] != "  stopped      early, at 10.95ms: "+sum.Halted {
		t.Errorf("summary begins %q, want its second line to say the run stopped early, when and why", lines[:min(3, len(lines))])
	}
}
