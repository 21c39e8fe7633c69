package report

import (
	"fmt"
	"io"
	"strings"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/internal/safetext"
	"electsim/scenarios"
	"electsim/sim"
)

// Verdicts are the judgements on a finished run, as data that a terminal, the TUI or a page
// lays out its own way: the leader every live node names, whether an election was still under
// way at the end, each property the run is judged by, the violations, whether the run stopped
// early, and the scenario's expectations.
type Verdicts struct {
	Leader     algo.ID // the leader every live node names, 0 if none
	AllCrashed bool    // no node is live
	Halted     string  // why the run stopped before its end, if it did
	// Unfinished counts the election's messages (routine ones aside) still in flight at the end
	// of a run that reached its end time with no agreed leader and a live node: the election was
	// cut off, not failed — give the run more time. 0 otherwise.
	Unfinished   int64
	Properties   []sim.Property
	Violations   []sim.Violation
	Expectations []scenarios.Result
}

// Judge gathers the verdicts on a run from its summary and its expectations' results.
func Judge(sum sim.Summary, results []scenarios.Result) Verdicts {
	v := Verdicts{Leader: sum.Leader, AllCrashed: true, Halted: sum.Halted, Properties: sum.Properties,
		Violations: sum.Violations, Expectations: results}
	for _, n := range sum.Nodes {
		if n.Status != sim.Crashed {
			v.AllCrashed = false
		}
	}
	if v.Leader == 0 && !v.AllCrashed && v.Halted == "" {
		v.Unfinished = electionInFlight(sum)
	}
	return v
}

// Held returns how many of the expectations hold.
func (v *Verdicts) Held() int {
	n := 0
	for _, r := range v.Expectations {
		if r.OK {
			n++
		}
	}
	return n
}

// Failed reports whether an expectation failed.
func (v *Verdicts) Failed() bool { return v.Held() < len(v.Expectations) }

// PropertyMarks writes each property with its mark: "✓ at-most-one-leader" (green), "✗
// agreement" (red), "– one-leader-per-term (no terms)" (dim) for one that does not apply, with
// why (sim.Property's NotJudged).
func (v *Verdicts) PropertyMarks(p Palette) []string {
	var marks []string
	for _, pr := range v.Properties {
		switch {
		case !pr.Applies:
			why := pr.NotJudged
			if why == "" {
				why = "no terms"
			}
			marks = append(marks, p.Dim("– "+pr.Name+" ("+why+")"))
		case pr.Holds:
			marks = append(marks, p.Green("✓ "+pr.Name))
		default:
			marks = append(marks, p.Red("✗ "+pr.Name))
		}
	}
	return marks
}

// WriteExpectations writes the verdict on each of the scenario's expectations under a heading,
// each with its line in the scenario; nothing when there are none.
func (v *Verdicts) WriteExpectations(w io.Writer, p Palette) {
	if len(v.Expectations) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.Heading(fmt.Sprintf("Expectations — %d of %d hold", v.Held(), len(v.Expectations))))
	for _, r := range v.Expectations {
		mark, text := p.Green("✓"), safetext.EscapeLines(r.Expectation.String())
		if !r.OK {
			mark = p.Red("✗")
			if r.Detail != "" {
				text += p.Red(" — " + safetext.EscapeLines(r.Detail))
			}
		}
		fmt.Fprintf(w, "  %s %s  %s\n", mark, p.Dim(fmt.Sprintf("line %-3d", r.Line)), text)
	}
}

// Lines writes the verdicts in a few short lines, for a box beside other things (the TUI's,
// at the end of a run): the leader, an election cut off unfinished, the properties, the
// violations, an early stop, and the expectations with their count. A caller wraps them to its
// width.
func (v *Verdicts) Lines(p Palette) []string {
	var lines []string
	if v.Leader != 0 {
		lines = append(lines, p.Status(sim.Leader, fmt.Sprintf("★ %d leads", v.Leader))+", and every live node names it")
	} else {
		lines = append(lines, "no leader that every live node names")
	}
	if v.Unfinished > 0 {
		lines = append(lines, p.Bold(v.UnfinishedText()))
	}
	lines = append(lines, "properties: "+strings.Join(v.PropertyMarks(p), "  "))
	for _, vi := range v.Violations {
		lines = append(lines, p.Red("  ✗ "+vi.String()))
	}
	if v.Halted != "" {
		lines = append(lines, p.Red("the run stopped early: "+v.Halted))
	}
	if len(v.Expectations) > 0 {
		lines = append(lines, fmt.Sprintf("expectations: %d of %d hold", v.Held(), len(v.Expectations)))
	}
	for _, r := range v.Expectations {
		if r.OK {
			lines = append(lines, p.Green("  ✓ ")+safetext.Escape(r.Expectation.String()))
			continue
		}
		text := r.Expectation.String()
		if r.Detail != "" {
			text += " — " + r.Detail
		}
		lines = append(lines, p.Red("  ✗ "+safetext.Escape(text)))
	}
	return lines
}

// UnfinishedText says that the run ended with its election still under way (Unfinished), and
// what to do: "unfinished: the run ended with 3 messages of the election still in flight; give
// it more virtual time (--run 1m, or `run 1m` in a scenario)". Empty when it did not.
func (v *Verdicts) UnfinishedText() string {
	if v.Unfinished == 0 {
		return ""
	}
	return fmt.Sprintf("unfinished: the run ended with %s of the election still in flight; give it more "+
		"virtual time (--run 1m, or `run 1m` in a scenario)", human.Plural(int(v.Unfinished), "message"))
}
