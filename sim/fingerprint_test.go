package sim_test

import (
	"bytes"
	"testing"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// A run's state encodes relative to now: Bully's leader sends heartbeats at a fixed period, so
// with a fixed delay the same state comes round again, at later and later times, and encodes
// the same; a copy encodes as the original; and states one step apart differ.
func TestAppendStateRecursAndCopies(t *testing.T) {
	cfg := fixed(t, "bully", 3, 10*ms, sim.Inline)
	cfg.RunFor = 2 * time.Second
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]time.Duration{}
	var prev []byte
	again := 0
	for {
		if _, ok := s.Step(); !ok {
			break
		}
		b := s.AppendState(nil)
		if c := s.Clone(); !bytes.Equal(c.AppendState(nil), b) {
			t.Fatalf("at %v a copy encodes otherwise", s.Now())
		}
		if bytes.Equal(b, prev) && s.Now() > 0 {
			t.Fatalf("at %v a step changed nothing in the encoding", s.Now())
		}
		prev = b
		if at, ok := seen[string(b)]; ok && at != s.Now() {
			again++
		}
		seen[string(b)] = s.Now()
	}
	if again == 0 {
		t.Fatal("no state came round again at a later time")
	}
}

// A drifting clock is part of a run's state: two runs alike but for the clock rate of a crashed
// node — no timer of its to move, but it will run on that clock when it recovers — encode
// differently.
func TestAppendStateSeesClockRates(t *testing.T) {
	state := func(rate float64) []byte {
		cfg := fixed(t, "bully", 3, 10*ms, sim.Inline)
		cfg.RunFor = time.Second
		cfg.Actions = []sim.Action{
			{At: 1 * ms, Op: sim.Crash, Nodes: []algo.ID{1}},
			{At: 5 * ms, Op: sim.Clock, Nodes: []algo.ID{1}, Rate: rate},
		}
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.RunUntil(7 * ms)
		return s.AppendState(nil)
	}
	if bytes.Equal(state(1), state(0.5)) {
		t.Fatal("a clock at half speed encodes as one at true speed")
	}
}
