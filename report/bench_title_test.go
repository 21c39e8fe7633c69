package report

import (
	"strings"
	"testing"

	"electsim/algo"
	"electsim/sim"
	"electsim/sim/bench"
)

// Every algorithm's table in bench is headed by what it is, not by its bare name: those without
// a title of their own (the ring catalog, one a student adds) by the summary they declare.
func TestBenchTitleSaysWhatTheAlgorithmIs(t *testing.T) {
	for _, a := range algo.Algorithms() {
		title := benchTitle(a.Name)
		if title == a.Name || !strings.Contains(title, " — ") {
			t.Errorf("%s: bench heads its table %q", a.Name, title)
		}
	}
	if got := benchTitle("hs"); !strings.Contains(got, "Hirschberg") {
		t.Errorf("hs: %q", got)
	}
}

// Itai–Rodeh's table calls its phases rounds, as the paper and its note under the table do —
// in the column's heading too; an algorithm without a word of its own says phases.
func TestBenchCallsThePhasesByTheAlgorithmsWord(t *testing.T) {
	r, err := bench.Measure("itai-rodeh", 8, 1, sim.Inline, bench.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	WriteBenchTable(&b, Plain{}, []bench.Result{r})
	out := b.String()
	header, _, _ := strings.Cut(out, "\n")
	if !strings.Contains(header, " rounds ") || strings.Contains(out, "phase") {
		t.Errorf("the table says phases, or no rounds in its heading:\n%s", out)
	}
	if !strings.Contains(out, " rounds (expected ") {
		t.Errorf("the note under the table does not count rounds:\n%s", out)
	}
	if got := phasesWord("hs"); got != "phases" {
		t.Errorf("hs calls its phases %q", got)
	}
}
