package main

import (
	"bytes"
	"testing"
	"time"

	"electsim/report"
)

// A run shows its progress only on a terminal that can redraw a line; not into a pipe, a file
// or a buffer.
func TestProgressWanted(t *testing.T) {
	for _, c := range []struct {
		tty  bool
		term string
		want bool
	}{{true, "xterm-256color", true}, {true, "", true}, {true, "dumb", false}, {false, "xterm", false}} {
		if got := progressWanted(c.tty, c.term); got != c.want {
			t.Errorf("terminal %v, TERM=%q: %v, want %v", c.tty, c.term, got, c.want)
		}
	}
	if p := newRunProgress(&bytes.Buffer{}, func(string) string { return "xterm" }, time.Second, time.Now); p != nil {
		t.Error("progress wanted on a buffer")
	}
}

// Writing on stdout clears the progress line first, as the two may share a terminal; a write
// with the line hidden clears nothing.
func TestHidingWriter(t *testing.T) {
	var out bytes.Buffer
	clock := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	p := report.NewRunProgress(&out, func() time.Time { return clock }, 100*time.Second)
	hw := hidingWriter{&bytes.Buffer{}, p}
	hw.Write([]byte("a line of the timeline\n"))
	if out.Len() != 0 {
		t.Errorf("a write with no line shown cleared it: %q", out.String())
	}
	clock = clock.Add(2 * time.Second)
	p.Update(100*time.Second, 2_000_000)
	hw.Write([]byte("x"))
	if want := "\r\x1b[K[####################] 1m40s of 1m40s virtual · 2,000,000 steps · 1.0M steps/s\r\x1b[K"; out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
}
