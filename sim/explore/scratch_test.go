package explore

import (
	"os"
	"strconv"
	"testing"
	"time"

	"electsim/sim/check"
)

func TestScratch(t *testing.T) {
	if os.Getenv("SCRATCH") == "" {
		t.Skip()
	}
	f, _ := check.ParseFaults(os.Getenv("FAULTS"))
	d, _ := strconv.Atoi(os.Getenv("DEPTH"))
	b, _ := strconv.Atoi(os.Getenv("BUDGET"))
	w, _ := strconv.Atoi(os.Getenv("WORKERS"))
	x := newExplorer(t, Options{Base: base(t, os.Getenv("ALGO"), 3), Faults: f, Budget: b, Depth: d, Property: os.Getenv("PROP"), Workers: w})
	start := time.Now()
	res := x.Run(nil)
	el := time.Since(start)
	t.Logf("gen %d distinct %d depth %d covered %d exh %v bound %s in %v (%.0f/s)", res.Generated, res.Distinct, res.Depth, res.Covered, res.Exhausted, res.Bound, el, float64(res.Generated)/el.Seconds())
	if cx := res.Counterexample; cx != nil {
		t.Logf("cx %s steps %d faults %v", cx.Violation, cx.Steps, cx.Faults)
	}
}
