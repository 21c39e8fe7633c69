package sim_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// stepsAt writes what each step of a traced run does up to time until, one word a step: the
// node booted, the message delivered, the timer fired, the action taken.
func stepsAt(t *testing.T, cfg sim.Config, until time.Duration) string {
	t.Helper()
	cfg.Trace = true
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var words []string
	for {
		r, ok := s.StepUntil(until)
		if !ok {
			break
		}
		rec := r.Records[0]
		switch rec.Type {
		case sim.RecBoot:
			words = append(words, fmt.Sprintf("boot%d", rec.Node))
		case sim.RecFault, sim.RecSay:
			words = append(words, strings.ReplaceAll(rec.Action.String(), " ", "_"))
		case sim.RecDeliver, sim.RecDrop:
			words = append(words, fmt.Sprintf("%s%d>%d@%s", rec.Type, rec.Msg.From, rec.Msg.To, algo.FormatDuration(r.At)))
		default:
			words = append(words, fmt.Sprintf("%s%d@%s", rec.Type, rec.Node, algo.FormatDuration(r.At)))
		}
	}
	return strings.Join(words, " ")
}

// An action with After comes after that many inputs of its instant — the three boots at 0ms
// here — and at the end of the instant when it has fewer, on both engines.
func TestActionAfterInputs(t *testing.T) {
	for _, e := range engines {
		for _, c := range []struct {
			after int
			want  string
		}{
			{0, "crash_3 boot1 boot2"},
			{1, "boot1 crash_3 boot2"},
			{2, "boot1 boot2 crash_3"},
			{3, "boot1 boot2 boot3 crash_3"},
			{9, "boot1 boot2 boot3 crash_3"},
		} {
			cfg := fixed(t, "bully", 3, 10*time.Millisecond, e)
			cfg.Actions = []sim.Action{{At: 0, After: c.after, Op: sim.Crash, Nodes: []algo.ID{3}}}
			if got := stepsAt(t, cfg, 0); got != c.want {
				t.Errorf("%s, after %d inputs: steps %q, want %q", e, c.after, got, c.want)
			}
		}
	}
}

// At a later instant an action with After falls between the inputs of that instant, and
// actions that wait for the same instant keep their order: by how many inputs each waits for,
// then as given.
func TestActionAfterInputsLater(t *testing.T) {
	for _, e := range engines {
		cfg := fixed(t, "bully", 3, 10*time.Millisecond, e)
		// At 10ms the ELECTIONs node 1 and 2 sent at 0ms arrive: 1→2, 1→3, 2→3.
		ms := time.Millisecond
		cfg.Actions = []sim.Action{
			{At: 10 * ms, After: 2, Op: sim.Say, Text: "two"},
			{At: 10 * ms, After: 1, Op: sim.Say, Text: "one"},
			{At: 10 * ms, After: 2, Op: sim.Say, Text: "two again"},
		}
		base := stepsAt(t, fixed(t, "bully", 3, 10*time.Millisecond, e), 10*ms)
		got := stepsAt(t, cfg, 10*ms)
		var inputs []string
		for w := range strings.FieldsSeq(base) {
			if strings.HasSuffix(w, "@10ms") {
				inputs = append(inputs, w)
			}
		}
		if len(inputs) < 3 {
			t.Fatalf("%s: the run has %d inputs at 10ms (%s): the test needs three", e, len(inputs), base)
		}
		want := strings.Replace(base, inputs[0], inputs[0]+` say_"one"`, 1)
		want = strings.Replace(want, inputs[1], inputs[1]+` say_"two" say_"two_again"`, 1)
		if got != want {
			t.Errorf("%s: steps\n%s\nwant\n%s", e, got, want)
		}
	}
}

// Schedule refuses an action that waits for fewer inputs of the current instant than it has
// had, and takes one that waits for exactly as many as the next step.
func TestScheduleAfterInputs(t *testing.T) {
	cfg := fixed(t, "bully", 3, 10*time.Millisecond, sim.Inline)
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		s.Step()
	}
	if n := s.InputsNow(); n != 2 {
		t.Fatalf("InputsNow after two boots: %d, want 2", n)
	}
	if err := s.Schedule(sim.Action{At: 0, After: 1, Op: sim.Crash, Nodes: []algo.ID{3}}); err == nil ||
		!strings.Contains(err.Error(), "it waits for 1 of the inputs at 0, but 2 have been handled already") {
		t.Errorf("Schedule after 1 input with 2 handled: %v", err)
	}
	if err := s.Schedule(sim.Action{At: 0, After: 2, Op: sim.Crash, Nodes: []algo.ID{3}}); err != nil {
		t.Fatal(err)
	}
	r, _ := s.Step()
	if r.Action < 0 || s.Actions()[r.Action].Op != sim.Crash || r.After != 2 {
		t.Errorf("the step after scheduling crash 3 after 2 inputs: action %d after %d inputs, want the crash after 2", r.Action, r.After)
	}
	if s.StatusOf(3) != sim.Crashed {
		t.Errorf("node 3 is %v, want crashed", s.StatusOf(3))
	}
}
