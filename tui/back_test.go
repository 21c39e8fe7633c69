package tui

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"electsim/sim"
)

// Stepping back replays the run without recording it, on the inline engine (no goroutine per
// node to start), whatever engine the session plays on; going forward again takes the steps
// stepped back over without replaying; going further than ever, or acting, replays once more,
// recording.
func TestBackReplaysLight(t *testing.T) {
	m := newModel(t, "bully-boot", func(c *sim.Config) { c.Engine = sim.Goroutine })
	steps(m, 20)
	press(m, "left", "left", "left")
	if cfg := m.ss.s.Config(); cfg.Trace || cfg.Engine != sim.Inline || len(m.ss.ahead) != 3 {
		t.Fatalf("after stepping back: trace %v, engine %s, %d steps ahead", cfg.Trace, cfg.Engine, len(m.ss.ahead))
	}
	light := m.ss.s
	steps(m, 3)
	if m.ss.s != light || len(m.ss.steps) != 20 {
		t.Errorf("forward over the steps stepped back over replayed the run, or lost a step: %d steps", len(m.ss.steps))
	}
	steps(m, 1)
	if !m.ss.s.Config().Trace || len(m.ss.steps) != 21 {
		t.Errorf("past the known steps: trace %v, %d steps", m.ss.s.Config().Trace, len(m.ss.steps))
	}
	press(m, "left", "2", "c")
	if !m.ss.s.Config().Trace || len(m.ss.user) != 1 || m.ss.user[0].String() != "crash 2" {
		t.Errorf("acting after stepping back: trace %v, user %v, message %q", m.ss.s.Config().Trace, m.ss.user, m.message)
	}
}

// Whatever the user does — steps, steps back one at a time or in bursts, crashes, recovers,
// pauses, elects, restarts — the session shows exactly the run a fresh replay of it takes: the
// same records step by step, the same nodes, time and summary, the same screen.
func TestBackAndForthIsExact(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		engine := rapid.SampledFrom([]sim.Engine{sim.Inline, sim.Goroutine}).Draw(rt, "engine")
		m := newModel(t, "bully-leader-crash", func(c *sim.Config) { c.Engine = engine })
		keys := rapid.SliceOfN(rapid.SampledFrom([]string{"l", "l", "l", "lllll", "h", "hhh", "h,h", "1", "4", "5", "c", "r", "p", "e", "n", "y", "G"}), 1, 60).Draw(rt, "keys")
		for _, k := range keys {
			burst(m, k)
		}
		m.ask = nil
		cfg := m.ss.config()
		cfg.Trace, cfg.Engine = true, sim.Inline
		s, err := sim.New(cfg)
		if err != nil {
			rt.Fatal(err)
		}
		defer s.Close()
		for i, ls := range m.ss.steps {
			r, ok := s.Step()
			if !ok {
				rt.Fatalf("the fresh run ended at step %d of %d", i, len(m.ss.steps))
			}
			if got, want := jsonl(ls.recs), jsonl(r.Records); got != want {
				rt.Fatalf("step %d differs:\nsession %s\nfresh   %s", i+1, got, want)
			}
		}
		if !slices.Equal(m.ss.s.Nodes(), s.Nodes()) || m.ss.s.Now() != s.Now() {
			rt.Fatalf("at step %d: nodes %v at %v, fresh %v at %v", len(m.ss.steps), m.ss.s.Nodes(), m.ss.s.Now(), s.Nodes(), s.Now())
		}
		got, want := m.ss.s.Summary(), s.Summary()
		got.Engine = want.Engine
		if fmt.Sprint(got) != fmt.Sprint(want) {
			rt.Fatalf("summary:\n%v\nfresh:\n%v", got, want)
		}
	})
}
