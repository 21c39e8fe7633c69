package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"golang.org/x/term"

	"electsim/internal/human"
)

// runProgress shows, on a terminal, how a long run goes: after the first second, a line on
// stderr with the virtual time reached, the steps taken and their rate, redrawn at most ten
// times a second and cleared when the run ends. Nothing when stderr is not a terminal.
type runProgress struct {
	w      io.Writer
	now    func() time.Time
	runFor time.Duration
	start  time.Time
	last   time.Time // when the line was last drawn
	shown  bool      // the line is on the terminal
	calls  int
}

// progressAfter is how long a run goes before its progress is shown; progressEvery how often
// the line is redrawn then.
const (
	progressAfter = time.Second
	progressEvery = 100 * time.Millisecond
)

// progressWanted decides whether a run shows its progress: only on a terminal that can redraw
// a line (not TERM=dumb).
func progressWanted(stderrIsTerminal bool, termName string) bool {
	return stderrIsTerminal && termName != "dumb"
}

// newRunProgress returns the progress of a run of runFor on stderr, or nil when it is not
// wanted there. now is the wall clock.
func newRunProgress(stderr io.Writer, getenv env, runFor time.Duration, now func() time.Time) *runProgress {
	f, ok := fileOf(stderr)
	if !progressWanted(ok && term.IsTerminal(int(f.Fd())), getenv("TERM")) {
		return nil
	}
	return &runProgress{w: stderr, now: now, runFor: runFor, start: now()}
}

// update draws the line when it is due: virtual is the time reached, steps the steps taken.
// It is cheap enough to call every step: it reads the clock every 64th call only.
func (p *runProgress) update(virtual time.Duration, steps int) {
	if p.calls++; p.calls%64 != 1 {
		return
	}
	t := p.now()
	if t.Sub(p.start) < progressAfter || t.Sub(p.last) < progressEvery {
		return
	}
	p.last, p.shown = t, true
	fmt.Fprint(p.w, "\r\x1b[K"+progressText(virtual, p.runFor, steps, t.Sub(p.start)))
}

// hide clears the line, if it is shown, for something else to be written: it comes back at
// the next update that is due.
func (p *runProgress) hide() {
	if p != nil && p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// progressText is the progress line: "[#####.....] 12.5s of 1m40s virtual · 1,234,567 steps ·
// 456k steps/s".
func progressText(virtual, runFor time.Duration, steps int, elapsed time.Duration) string {
	const width = 20
	full := 0
	if runFor > 0 {
		full = int(min(width, int64(virtual)*width/int64(runFor)))
	}
	rate := 0.0
	if elapsed > 0 {
		rate = float64(steps) / elapsed.Seconds()
	}
	return fmt.Sprintf("[%s%s] %s of %s virtual · %s steps · %s steps/s", strings.Repeat("#", full), strings.Repeat(".", width-full),
		human.Brief(virtual), human.Brief(runFor), human.Thousands(int64(steps)), human.SI(rate))
}

// hidingWriter clears the progress line before each write: the two may share a terminal.
type hidingWriter struct {
	w io.Writer
	p *runProgress
}

func (h hidingWriter) Write(b []byte) (int, error) {
	h.p.hide()
	return h.w.Write(b)
}
