package session

import (
	"testing"
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
