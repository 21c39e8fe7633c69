package report

import (
	"testing"

	"electsim/algo"
)

// A message's phase is called by its algorithm's word for it: FloodMax's is its round; an
// algorithm without one says phase.
func TestLabelCallsThePhaseByTheAlgorithmsWord(t *testing.T) {
	floodmax, _ := algo.Lookup("floodmax")
	hs, _ := algo.Lookup("hs")
	m := algo.Message{Kind: "MAX-UID", Value: 9, Phase: 3}
	if got := Label(m, floodmax); got != "MAX-UID(9, round 3)" {
		t.Errorf("floodmax: %q", got)
	}
	if got := Kind(m, floodmax, Plain{}); got != "MAX-UID(9, round 3)" {
		t.Errorf("floodmax's kind: %q", got)
	}
	p := algo.Message{Kind: "PROBE", Value: 7, Phase: 2, Hop: 3}
	if got := Label(p, hs); got != "PROBE(7, phase 2, hop 3)" {
		t.Errorf("hs: %q", got)
	}
}
