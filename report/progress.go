package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/sim"
)

// Progress is a line on a terminal that says how work goes — a long run, a check's runs, a
// bench's election — drawn once the work has gone on for a while, redrawn at most ten times a
// second, and cleared when something else is to be written. A nil Progress draws nothing.
type Progress struct {
	w           io.Writer
	now         func() time.Time
	after       time.Duration // how long the work goes before the line is drawn
	start, last time.Time
	shown       bool // the line is on the terminal
}

// progressEvery is how often the line may be redrawn.
const progressEvery = 100 * time.Millisecond

// NewProgress returns the progress line of work that starts now, drawn on w from after on; now
// is the wall clock.
func NewProgress(w io.Writer, now func() time.Time, after time.Duration) *Progress {
	return &Progress{w: w, now: now, after: after, start: now()}
}

// Show draws the line, if it is due: line writes it, given the wall-clock time since the start.
func (p *Progress) Show(line func(elapsed time.Duration) string) {
	if p == nil {
		return
	}
	t := p.now()
	if t.Sub(p.start) < p.after || t.Sub(p.last) < progressEvery {
		return
	}
	p.last, p.shown = t, true
	fmt.Fprint(p.w, "\r\x1b[K"+line(t.Sub(p.start)))
}

// Hide clears the line, if it is shown; it comes back at the next Show that is due.
func (p *Progress) Hide() {
	if p != nil && p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// progressBar writes a bar width wide, done of total filled: "[#####.....]".
func progressBar(done, total int64, width int) string {
	full := 0
	if total > 0 {
		full = int(min(int64(width), int64(width)*done/total))
	}
	return "[" + strings.Repeat("#", full) + strings.Repeat(".", width-full) + "]"
}

// RunProgress is the progress of a run: "[#####.....] 12.5s of 1m40s virtual · 1,234,567 steps
// · 456k steps/s", from the first second on.
type RunProgress struct {
	line   *Progress
	runFor time.Duration
	calls  int
}

// NewRunProgress returns the progress line of a run of runFor, drawn on w; now is the wall
// clock.
func NewRunProgress(w io.Writer, now func() time.Time, runFor time.Duration) *RunProgress {
	return &RunProgress{line: NewProgress(w, now, time.Second), runFor: runFor}
}

// Update draws the line when it is due: virtual is the time reached, steps the steps taken. It
// is cheap enough to call every step: it reads the clock every 64th call only.
func (p *RunProgress) Update(virtual time.Duration, steps int) {
	if p.calls++; p.calls%64 != 1 {
		return
	}
	p.line.Show(func(elapsed time.Duration) string { return RunProgressText(virtual, p.runFor, steps, elapsed) })
}

// Hide clears the line (see Progress.Hide). A nil RunProgress shows nothing.
func (p *RunProgress) Hide() {
	if p != nil {
		p.line.Hide()
	}
}

// RunProgressText is the line of a run that has reached virtual of runFor in steps steps,
// elapsed after it started.
func RunProgressText(virtual, runFor time.Duration, steps int, elapsed time.Duration) string {
	rate := 0.0
	if elapsed > 0 {
		rate = float64(steps) / elapsed.Seconds()
	}
	return fmt.Sprintf("%s %s of %s virtual · %s steps · %s steps/s", progressBar(int64(virtual), int64(runFor), 20),
		human.Brief(virtual), human.Brief(runFor), human.Thousands(int64(steps)), human.SI(rate))
}

// CheckProgressText is the line of a check that has done done of runs runs, failed of which
// broke the property: "[####......] 312/1000 runs · 2 violations".
func CheckProgressText(done, runs, failed int) string {
	return fmt.Sprintf("%s %d/%d runs · %s", progressBar(int64(done), int64(runs), 30), done, runs, human.Plural(failed, "violation"))
}

// MatrixProgressText is the line of the property matrix at cell (from 0) of cells, done of runs
// runs into it: "[####......] cell 3/42 · 120/300 runs".
func MatrixProgressText(cell, cells, done, runs int) string {
	return fmt.Sprintf("%s cell %d/%d · %d/%d runs", progressBar(int64(cell*runs+done), int64(cells*runs), 30), cell+1, cells, done, runs)
}

// MeasureProgressText is the line of a bench's election of name among n nodes on engine e, which
// has sent sent messages by virtual time virtual, elapsed after it started: "  ring · 1,000
// nodes · inline engine … 52,000 messages, 1s virtual, 1.2s".
func MeasureProgressText(name string, n int, e sim.Engine, virtual time.Duration, sent int64, elapsed time.Duration) string {
	return fmt.Sprintf("  %s · %s nodes · %s engine … %s messages, %s virtual, %.1fs", name, human.Thousands(int64(n)), e,
		human.Thousands(sent), algo.FormatDuration(virtual), elapsed.Seconds())
}
