package tui

import (
	"strings"
	"testing"
	"time"

	"electsim/sim"
)

// Playback stops where the session is full — its steps and its run hold what the run's memory
// bound allows — saying which bound was met, in the status line; a step says it again, and
// stepping back and forward still works (issue 28, item 2).
func TestPlaybackStopsWhereTheSessionIsFull(t *testing.T) {
	m := newModel(t, "raft-leader-crash", func(c *sim.Config) {
		c.RunFor, c.MaxMemory = 1000*time.Hour, 1<<20
		c.Actions = nil // no breaks on the way
	})
	m.speed = len(speeds) - 1
	press(m, " ")
	for i := 0; m.playing; i++ {
		if i == 100_000 {
			t.Fatalf("still playing at step %d", len(m.ss.Steps()))
		}
		m.Update(tickMsg{m.tick})
	}
	full := m.ss.Full()
	if full == "" || m.message != full || !m.messageErr || !strings.Contains(full, "its memory bound is 1 MB") || m.ss.Done() {
		t.Fatalf("playback stopped at step %d: message %q, full %q, done %v", len(m.ss.Steps()), m.message, full, m.ss.Done())
	}
	if !strings.Contains(strings.Join(strings.Fields(m.View()), " "), "the session stops at step") {
		t.Errorf("the screen does not say why it stopped:\n%s", m.View())
	}
	n := len(m.ss.Steps())
	press(m, "l")
	if len(m.ss.Steps()) != n || m.message != full {
		t.Errorf("a step past the bound: %d steps (was %d), message %q", len(m.ss.Steps()), n, m.message)
	}
	press(m, "h", "h", "l")
	if len(m.ss.Steps()) != n-1 || m.message != "" {
		t.Errorf("back 2 and forward 1: %d steps (want %d), message %q", len(m.ss.Steps()), n-1, m.message)
	}
}
