package session

import (
	"strings"
	"testing"

	"electsim/scenarios"
)

// A drifting node's clock is in the session's data, step by step and back: lease-clock-drift
// slows node 1's clock to half speed at 100ms; at 140ms it reads 120ms, and stepping back before
// the action it keeps true time again.
func TestSessionClocks(t *testing.T) {
	s := open(t, "lease-clock-drift", nil)
	for s.Now() < 140*ms {
		next(t, s, 1)
	}
	c := s.Clock(1)
	if c.Rate != 0.5 || c.Local != 100*ms+(s.Now()-100*ms)/2 || !c.Drifts(s.Now()) {
		t.Fatalf("node 1's clock at %v: %+v, want rate 0.5 reading %v", s.Now(), c, 100*ms+(s.Now()-100*ms)/2)
	}
	if other := s.Clock(2); other.Rate != 1 || other.Local != s.Now() || other.Drifts(s.Now()) {
		t.Errorf("node 2's clock: %+v, want the true time %v", other, s.Now())
	}
	if all := s.Clocks(); len(all) != 5 || all[0] != c {
		t.Errorf("Clocks() = %+v", all)
	}
	for s.Now() >= 100*ms {
		if err := s.Back(1); err != nil {
			t.Fatal(err)
		}
	}
	if c := s.Clock(1); c.Rate != 1 || c.Local != s.Now() {
		t.Errorf("back at %v, before the clock action: node 1's clock %+v", s.Now(), c)
	}
}

// The TUI's : line takes a clock action as any other: the session acts it, and the node's clock
// runs at the rate from then on; the saved scenario writes it back.
func TestSessionActsClock(t *testing.T) {
	s := open(t, "zookeeper-recipe", nil)
	for s.Now() < 50*ms {
		next(t, s, 1)
	}
	a, err := scenarios.ParseAction("clock 2 rate 0.8", s.Members())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Act(a, false); err != nil {
		t.Fatal(err)
	}
	at := s.Now()
	for s.Now() < at+100*ms {
		next(t, s, 1)
	}
	c := s.Clock(2)
	if c.Rate != 0.8 || c.Local != at+(s.Now()-at)*8/10 {
		t.Errorf("node 2's clock at %v: %+v, want rate 0.8 from %v", s.Now(), c, at)
	}
	if text := scenarios.Format(s.Scenario("saved")); !strings.Contains(text, "clock 2 rate 0.8") {
		t.Errorf("the saved session has no clock action:\n%s", text)
	}
}
