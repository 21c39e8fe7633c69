package report

import (
	"bytes"
	"testing"
	"time"

	"electsim/sim"
)

// The line: nothing in the first second; then the virtual time reached, the steps and their
// rate, redrawn at most ten times a second; cleared by Hide, and drawn again when due.
func TestProgressLine(t *testing.T) {
	var out bytes.Buffer
	clock := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	p := NewRunProgress(&out, func() time.Time { return clock }, 100*time.Second)
	update := func(virtual time.Duration, steps int) {
		for range 64 { // the clock is read every 64th call
			p.Update(virtual, steps)
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
	p.Hide()
	p.Hide()
	if out.String() != "\r\x1b[K" {
		t.Errorf("hide wrote %q", out.String())
	}
	out.Reset()
	clock = clock.Add(time.Second)
	update(100*time.Second, 2_000_000)
	p.Hide()
	if want := "\r\x1b[K[####################] 1m40s of 1m40s virtual · 2,000,000 steps · 976k steps/s\r\x1b[K"; out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
	var nilProgress *RunProgress
	nilProgress.Hide() // no progress: nothing to clear
}

// The check's and the matrix's lines, and a bench election's.
func TestProgressTexts(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{CheckProgressText(312, 1000, 2), "[#########.....................] 312/1000 runs · 2 violations"},
		{CheckProgressText(0, 1, 0), "[..............................] 0/1 runs · 0 violations"},
		{MatrixProgressText(2, 42, 120, 300), "[#.............................] cell 3/42 · 120/300 runs"},
		{MeasureProgressText("ring", 1000, sim.Inline, 1500*time.Millisecond, 52000, 1200*time.Millisecond),
			"  ring · 1,000 nodes · inline engine … 52,000 messages, 1500ms virtual, 1.2s"},
	} {
		if tt.got != tt.want {
			t.Errorf("got  %q\nwant %q", tt.got, tt.want)
		}
	}
}
