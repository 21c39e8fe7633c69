package check

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"electsim/algo"
	"electsim/sim"
)

// rapidSource draws a schedule's choices from rapid, so that rapid shrinks a failing schedule
// by its own means.
type rapidSource struct{ t *rapid.T }

func (s rapidSource) intn(n int, label string) int { return rapid.IntRange(0, n-1).Draw(s.t, label) }

// base returns the run of a row on nodes 1..n: inline engine, the check's default length.
func base(t testing.TB, name string, n int, params ...Setting) sim.Config {
	t.Helper()
	info, err := algo.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig(info, n)
	cfg.Engine = sim.Inline
	cfg.RunFor = 0
	cfg.Params = algo.Params{}
	for _, p := range params {
		v, err := info.ParseParam(p.Key, p.Value)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Params[p.Key] = v
	}
	return cfg
}

func newCheck(t testing.TB, opts Options) *Check {
	t.Helper()
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// lines writes a schedule's actions one a line, for failure messages.
func lines(actions []sim.Action) string {
	var b strings.Builder
	for _, a := range actions {
		b.WriteString("  at " + algo.FormatDuration(a.At) + " " + a.String() + "\n")
	}
	return b.String()
}
