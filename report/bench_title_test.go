package report

import (
	"strings"
	"testing"

	"electsim/algo"
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
