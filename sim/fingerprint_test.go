package sim_test

import (
	"bytes"
	"testing"
	"time"

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
