package explore

import (
	"testing"

	"electsim/algo"
	"electsim/sim"
)

// base returns a run of algorithm name on nodes 1..n with the default network.
func base(t testing.TB, name string, n int) sim.Config {
	t.Helper()
	info, err := algo.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig(info, n)
	cfg.Params = algo.Params{}
	return cfg
}

func newExplorer(t testing.TB, opts Options) *Explorer {
	t.Helper()
	x, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return x
}
