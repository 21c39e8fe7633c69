package main

import (
	"bytes"
	"testing"
	"time"
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

// The line: nothing in the first second; then the virtual time reached, the steps and their
// rate, redrawn at most ten times a second; cleared by hide, and drawn again when due.
func TestProgressLine(t *testing.T) {
	var out bytes.Buffer
	clock := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &runProgress{w: &out, now: func() time.Time { return clock }, runFor: 100 * time.Second, start: clock}
	update := func(virtual time.Duration, steps int) {
		for range 64 { // the clock is read every 64th call
			p.update(virtual, steps)
		}
	}
	clock = clock.Add(900 * time.Millisecond)
	update(time.Second, 1000)
	if out.Len() != 0 {
		t.Fatalf("drawn within the first second: %q", out.String())
	}
	clock = clock.Add(100 * time.Millisecond)
	update(25*time.Second, 1_234_567)
	if want := "\r\x1b[K[#####...............] 25.00s of 1m40s virtual · 1,234,567 steps · 1.2M steps/s"; out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
	out.Reset()
	clock = clock.Add(50 * time.Millisecond)
	update(26*time.Second, 1_300_000)
	if out.Len() != 0 {
		t.Errorf("redrawn after 50ms: %q", out.String())
	}
	p.hide()
	p.hide()
	if out.String() != "\r\x1b[K" {
		t.Errorf("hide wrote %q", out.String())
	}
	out.Reset()
	hw := hidingWriter{&bytes.Buffer{}, p}
	hw.Write([]byte("a line of the timeline\n"))
	if out.Len() != 0 {
		t.Errorf("a write with the line hidden cleared it again: %q", out.String())
	}
	clock = clock.Add(time.Second)
	update(100*time.Second, 2_000_000)
	hw.Write([]byte("x"))
	if want := "\r\x1b[K[####################] 1m40s of 1m40s virtual · 2,000,000 steps · 976k steps/s\r\x1b[K"; out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
	var nilProgress *runProgress
	nilProgress.hide() // no progress: nothing to clear
}
