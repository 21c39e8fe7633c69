package session

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"electsim/sim"
)

// Stepping back replays the run without its trace, on the inline engine (no goroutine per node
// to start), whatever engine the session plays on; going forward again takes the steps stepped
// back over without replaying; going further than ever, or acting, replays once more, with the
// trace.
func TestBackReplaysLight(t *testing.T) {
	s := open(t, "bully-boot", func(c *sim.Config) { c.Engine = sim.Goroutine })
	next(t, s, 20)
	if err := s.Back(3); err != nil {
		t.Fatal(err)
	}
	if cfg := s.run.Config(); cfg.Trace || cfg.Engine != sim.Inline || len(s.ahead) != 3 {
		t.Fatalf("after stepping back: trace %v, engine %s, %d steps ahead", cfg.Trace, cfg.Engine, len(s.ahead))
	}
	light := s.run
	next(t, s, 3)
	if s.run != light || len(s.Steps()) != 20 {
		t.Errorf("forward over the steps stepped back over replayed the run, or lost a step: %d steps", len(s.Steps()))
	}
	next(t, s, 1)
	if !s.run.Config().Trace || len(s.Steps()) != 21 {
		t.Errorf("past the known steps: trace %v, %d steps", s.run.Config().Trace, len(s.Steps()))
	}
	if err := s.Back(1); err != nil {
		t.Fatal(err)
	}
	if _, err := act(t, s, "crash 2"); err != nil || !s.run.Config().Trace {
		t.Errorf("acting after stepping back: %v, trace %v", err, s.run.Config().Trace)
	}
}

// withCheckpoints makes a session keep a copy every `every` steps, at most max of them.
func withCheckpoints(s *Session, every, max int) {
	s.cps.spacing, s.cps.max = every, max
}

// A replay keeps a copy of the run at the last multiple of the spacing on its way, and the next
// replay to a step at or after it starts from there; a copy serves only while the user's
// actions it holds are the session's, and those it lacks come after it.
func TestCheckpointsServeReplays(t *testing.T) {
	s := open(t, "bully-leader-crash", nil)
	withCheckpoints(s, 50, 4)
	next(t, s, 130)
	if err := s.Back(1); err != nil {
		t.Fatal(err)
	}
	if steps := cpSteps(s); fmt.Sprint(steps) != "[100]" {
		t.Fatalf("after a step back from 130: copies at %v, want [100]", steps)
	}
	if _, at, _ := s.origin(120, false); at != 100 {
		t.Errorf("a replay to 120 starts at %d, want the copy at 100", at)
	}
	if _, at, _ := s.origin(120, true); at != 0 {
		t.Errorf("a replay with the trace to 120 starts at %d, want 0: the copy has no trace", at)
	}
	if err := s.Back(60); err != nil { // to 69: the copy at 100 is past it; one at 50 is kept
		t.Fatal(err)
	}
	if steps := cpSteps(s); fmt.Sprint(steps) != "[50 100]" {
		t.Errorf("after a step back to 69: copies at %v, want [50 100]", steps)
	}
	// An action at 69's time: the copy at 100 is past it and no longer serves; the one at 50
	// does, and a replay from it schedules the action.
	if _, err := act(t, s, "crash 2"); err != nil {
		t.Fatal(err)
	}
	if steps := cpSteps(s); fmt.Sprint(steps) != "[50]" {
		t.Errorf("after acting: copies at %v, want [50]", steps)
	}
	next(t, s, 40)
	if err := s.Back(5); err != nil {
		t.Fatal(err)
	}
	if _, at, _ := s.origin(len(s.Steps()), false); at != 100 {
		t.Errorf("after acting and stepping back: a replay starts at %d, want a new copy at 100", at)
	}
	if why := sameAsFresh(t, s); why != "" {
		t.Error(why)
	}
	// Restarting forgets the action: the copies that hold it go, those before it stay.
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	if steps := cpSteps(s); fmt.Sprint(steps) != "[50]" {
		t.Errorf("after restarting: copies at %v, want [50]", steps)
	}
}

func cpSteps(s *Session) []int {
	var out []int
	for _, cp := range s.cps.list {
		out = append(out, cp.step)
	}
	return out
}

// The copies kept are at most max, and within the memory budget; past either, those farthest
// from where the session is go first.
func TestCheckpointsAreBounded(t *testing.T) {
	s := open(t, "bully-leader-crash", nil)
	withCheckpoints(s, 10, 3)
	next(t, s, 200)
	for range 12 {
		if err := s.Back(9); err != nil {
			t.Fatal(err)
		}
	}
	if steps := cpSteps(s); fmt.Sprint(steps) != "[90 100 110]" {
		t.Errorf("at step %d: copies at %v, want the 3 nearest, [90 100 110]", len(s.Steps()), steps)
	}
	s.cps.budget = s.cps.list[0].run.MemoryUse() * 2
	if err := s.Back(9); err != nil {
		t.Fatal(err)
	}
	if n := len(s.cps.list); n != 2 || s.cps.bytes() > s.cps.budget {
		t.Errorf("with room for 2: %d copies, %d bytes of %d", n, s.cps.bytes(), s.cps.budget)
	}
	if why := sameAsFresh(t, s); why != "" {
		t.Error(why)
	}
}

// Whatever the user does — steps, steps back, crashes, recovers, pauses, elects, partitions,
// names the leader, restarts — with copies of the run kept at any spacing, the session shows
// exactly the run a fresh replay of it takes: the same records step by step, the same nodes,
// time and summary.
func TestBackAndForthWithCheckpointsIsExact(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		engine := rapid.SampledFrom([]sim.Engine{sim.Inline, sim.Goroutine}).Draw(rt, "engine")
		s := open(t, "bully-leader-crash", func(c *sim.Config) { c.Engine = engine })
		withCheckpoints(s, rapid.IntRange(1, 40).Draw(rt, "every"), rapid.IntRange(0, 4).Draw(rt, "max"))
		actions := []string{"crash 1", "crash 5", "recover 1", "recover 5", "pause 4", "resume 4", "elect 2",
			"partition 1 2 | 3 4 5", "heal", "cut 4->5", "crash leader", "pause leader", "partition leader", "elect leader"}
		for range rapid.IntRange(1, 30).Draw(rt, "ops") {
			switch op := rapid.IntRange(0, 9).Draw(rt, "op"); {
			case op < 4:
				for range rapid.IntRange(1, 40).Draw(rt, "next") {
					s.Next()
				}
			case op < 7:
				if err := s.Back(rapid.IntRange(1, 60).Draw(rt, "back")); err != nil {
					rt.Fatal(err)
				}
			case op < 9:
				text := rapid.SampledFrom(actions).Draw(rt, "act")
				if _, err := act(t, s, text); err != nil && !isRefusedOrOver(err) {
					rt.Fatalf("%s: %v", text, err)
				}
			default:
				if err := s.Restart(); err != nil {
					rt.Fatal(err)
				}
			}
			if len(s.cps.list) > s.cps.max {
				rt.Fatalf("%d copies kept, at most %d", len(s.cps.list), s.cps.max)
			}
		}
		if why := sameAsFresh(t, s); why != "" {
			rt.Fatal(why)
		}
	})
}

// isRefusedOrOver reports whether err is what an action may rightly meet: a refusal, the end
// of the run, or a time past it.
func isRefusedOrOver(err error) bool {
	var r *Refused
	return errors.As(err, &r) || errors.Is(err, ErrOver) || strings.HasPrefix(err.Error(), "too late: ")
}

// A copy of a run kept on the inline engine serves a session on the goroutine engine: the
// replays are inline anyway. Guard: the copy is never stepped.
func TestCheckpointIsNeverStepped(t *testing.T) {
	s := open(t, "ring-partition", func(c *sim.Config) { c.Engine = sim.Goroutine })
	withCheckpoints(s, 20, 2)
	next(t, s, 70)
	for range 5 {
		if err := s.Back(3); err != nil {
			t.Fatal(err)
		}
	}
	for _, cp := range s.cps.list {
		if cp.run.Steps() != cp.step || cp.run.Config().Engine != sim.Inline {
			t.Errorf("the copy kept at %d has taken %d steps, on the %s engine", cp.step, cp.run.Steps(), cp.run.Config().Engine)
		}
	}
}
