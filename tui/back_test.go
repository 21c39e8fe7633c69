package tui

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"electsim/sim"
)

// Whatever the user does with the keys — steps, steps back one at a time or in bursts, crashes,
// recovers, pauses, elects, restarts — the TUI shows exactly the run a fresh replay of it takes:
// the same records step by step, the same nodes, time and summary.
func TestBackAndForthIsExact(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		engine := rapid.SampledFrom([]sim.Engine{sim.Inline, sim.Goroutine}).Draw(rt, "engine")
		m := newModel(t, "bully-leader-crash", func(c *sim.Config) { c.Engine = engine })
		keys := rapid.SliceOfN(rapid.SampledFrom([]string{"l", "l", "l", "lllll", "h", "hhh", "h,h", "1", "4", "5", "c", "r", "p", "e", "n", "y", "G",
			":crash leader\r", ":pause leader\r", ":partition leader\r"}), 1, 60).Draw(rt, "keys")
		for _, k := range keys {
			burst(m, k)
		}
		m.ask = nil
		cfg := m.ss.Config()
		cfg.Actions = append(cfg.Actions, m.ss.User()...)
		cfg.Trace, cfg.Engine = true, sim.Inline
		s, err := sim.New(cfg)
		if err != nil {
			rt.Fatal(err)
		}
		defer s.Close()
		for i, ls := range m.ss.Steps() {
			r, ok := s.Step()
			if !ok {
				rt.Fatalf("the fresh run ended at step %d of %d", i, len(m.ss.Steps()))
			}
			if got, want := jsonl(ls.Records), jsonl(r.Records); got != want {
				rt.Fatalf("step %d differs:\nsession %s\nfresh   %s", i+1, got, want)
			}
		}
		if !slices.Equal(m.ss.Nodes(), s.Nodes()) || m.ss.Now() != s.Now() {
			rt.Fatalf("at step %d: nodes %v at %v, fresh %v at %v", len(m.ss.Steps()), m.ss.Nodes(), m.ss.Now(), s.Nodes(), s.Now())
		}
		got, want := m.ss.Summary(), s.Summary()
		got.Engine = want.Engine
		if fmt.Sprint(got) != fmt.Sprint(want) {
			rt.Fatalf("summary:\n%v\nfresh:\n%v", got, want)
		}
	})
}
