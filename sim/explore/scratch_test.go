package explore

import (
	"os"
	"strconv"
	"testing"
	"time"

	"electsim/algo"
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
	n, _ := strconv.Atoi(os.Getenv("NODES"))
	if n == 0 {
		n = 3
	}
	cfg := base(t, os.Getenv("ALGO"), n)
	if os.Getenv("BUGGY") != "" {
		cfg.Algorithm = leaseBeforeFix()
	}
	for _, kv := range []string{"ttl", "renew", "write", "retry"} {
		if v := os.Getenv(kv); v != "" {
			val, err := cfg.Algorithm.ParseParam(kv, v)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Params[kv] = val
		}
	}
	if v := os.Getenv("CRASH2"); v != "" {
		cfg.Actions = leasePrefix()
	}
	var delays []time.Duration
	if v := os.Getenv("DELAYS"); v != "" {
		dd, _ := algo.ParseDuration(v)
		delays = []time.Duration{dd}
	}
	x := newExplorer(t, Options{Base: cfg, Faults: f, Budget: b, Depth: d, Property: os.Getenv("PROP"), Workers: w, Delays: delays})
	start := time.Now()
	res := x.Run(nil)
	el := time.Since(start)
	t.Logf("gen %d distinct %d depth %d covered %d exh %v bound %s in %v (%.0f/s)", res.Generated, res.Distinct, res.Depth, res.Covered, res.Exhausted, res.Bound, el, float64(res.Generated)/el.Seconds())
	if cx := res.Counterexample; cx != nil {
		t.Logf("cx %s steps %d faults %v", cx.Violation, cx.Steps, cx.Faults)
		for _, a := range cx.Config.Actions {
			t.Logf("  %s %s", algo.FormatDuration(a.At), a)
		}
	}
}
