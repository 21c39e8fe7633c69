package check

import (
	"testing"

	"electsim/sim"
)

// The lease's safety condition under drifting clocks (docs/algorithms.md, Lease, "Clocks that
// drift"): with every clock's rate within 1 ± ρ, a holder that gives its lease up a margin
// before its ttl by its own clock never leads past the lock service's lease when
// margin ≥ ttl · 2ρ/(1+ρ). With ttl 300ms that is 100ms for ρ = 0.2, and 138ms for ρ = 0.3.
// Within the bound the drift class, with partitions to stop renewals, breaks nothing; beyond
// it, or with no margin, it finds two leaders — and the counterexample replays.
func TestLeaseDriftBound(t *testing.T) {
	faults := Drift | Partition
	for _, tt := range []struct {
		name   string
		bound  float64
		margin string // "" for none
		breaks bool
	}{
		{"within the bound", 0.2, "100ms", false},
		{"beyond the bound", 0.3, "100ms", true},
		{"far beyond", 0.5, "100ms", true},
		{"no margin", 0.2, "", true},
	} {
		var params []Setting
		if tt.margin != "" {
			params = append(params, Setting{"margin", tt.margin})
		}
		b := base(t, "lease", 5, params...)
		b.Seed = 1
		c := newCheck(t, Options{Base: b, Faults: faults, Runs: 3000, DriftBound: tt.bound, StopAfter: 1})
		res := c.Run(nil)
		if (res.Failed > 0) != tt.breaks || res.Halted > 0 {
			t.Errorf("%s (±%g, margin %q): %d of %d runs broke at-most-one-leader, %d halted; want breaks %v",
				tt.name, tt.bound, tt.margin, res.Failed, res.Runs, res.Halted, tt.breaks)
			continue
		}
		if tt.breaks {
			cx := c.Shrink(res.Failures[0])
			drifts := 0
			for _, a := range cx.Schedule.Actions {
				if a.Op == sim.Clock && a.Rate != 1 {
					drifts++
				}
			}
			if drifts == 0 {
				t.Errorf("%s: the shrunk counterexample drifts no clock: %v", tt.name, lines(cx.Schedule.Actions))
			}
		}
	}
}

// A drift bound that would stop a clock or run it backwards is refused.
func TestDriftBoundRefused(t *testing.T) {
	for _, bound := range []float64{-0.1, 0.995, 2} {
		if _, err := New(Options{Base: base(t, "lease", 5), Faults: Drift, Runs: 1, DriftBound: bound}); err == nil {
			t.Errorf("drift bound %g accepted", bound)
		}
	}
}
