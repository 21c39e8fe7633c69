package bench

import (
	"strings"
	"testing"

	"electsim/algo"
	"electsim/sim"
)

// Echo's count depends on the schedule its seed draws: bench runs it over Samples(n) seeds and
// gives the mean, the fewest and the most — which differ — each run within its own graph's
// bound.
func TestEchoMeanOverSeeds(t *testing.T) {
	r, err := Measure("echo", 200, 1, sim.Inline, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Runs != Samples(200) || r.MinSent >= r.MaxSent ||
		r.MeanSent < float64(r.MinSent) || r.MeanSent > float64(r.MaxSent) {
		t.Errorf("runs %d, mean %.1f, min %d, max %d: want %d runs and min < mean < max",
			r.Runs, r.MeanSent, r.MinSent, r.MaxSent, Samples(200))
	}
	own := sumOf(r.Sent)
	if own < r.MinSent || own > r.MaxSent {
		t.Errorf("seed 1's own count %d is outside min %d .. max %d", own, r.MinSent, r.MaxSent)
	}
	if len(r.OverBound) != 0 || len(r.Misses()) != 0 {
		t.Errorf("over the bound: %v; misses %v", r.OverBound, r.Misses())
	}
}

// A run among the seeds above its own bound is a miss, naming the first such seed.
func TestVariesOverBoundIsAMiss(t *testing.T) {
	echo, err := algo.Lookup("echo")
	if err != nil {
		t.Fatal(err)
	}
	broken := *echo
	th := *echo.Theory
	th.OnGraph = func(c *algo.Cluster) int64 { return int64(len(c.Ring)) } // far too few
	broken.Name, broken.Theory = "echo-tight", &th
	defer algo.Register(&broken)()
	r, err := Measure("echo-tight", 50, 1, sim.Inline, Options{})
	if err != nil {
		t.Fatal(err)
	}
	miss := strings.Join(r.Misses(), "; ")
	if len(r.OverBound) != r.Runs-1 || !strings.Contains(miss, "seeds above their own bound (seed 2 first)") {
		t.Errorf("over the bound %v of %d runs; misses %q", r.OverBound, r.Runs, miss)
	}
}
