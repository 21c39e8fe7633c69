package main

import (
	"io"
	"time"

	"golang.org/x/term"

	"electsim/report"
)

// progressWanted decides whether work shows its progress: only on a terminal that can redraw a
// line (not TERM=dumb).
func progressWanted(stderrIsTerminal bool, termName string) bool {
	return stderrIsTerminal && termName != "dumb"
}

// onTerminal reports whether the progress of work may be drawn on stderr (progressWanted).
func onTerminal(stderr io.Writer, getenv env) bool {
	f, ok := fileOf(stderr)
	return progressWanted(ok && term.IsTerminal(int(f.Fd())), getenv("TERM"))
}

// newRunProgress returns the progress of a run of runFor on stderr, or nil when it is not
// wanted there. now is the wall clock.
func newRunProgress(stderr io.Writer, getenv env, runFor time.Duration, now func() time.Time) *report.RunProgress {
	if !onTerminal(stderr, getenv) {
		return nil
	}
	return report.NewRunProgress(stderr, now, runFor)
}

// newProgress returns a progress line on stderr, drawn at once, or nil when it is not wanted
// there.
func newProgress(stderr io.Writer, getenv env) *report.Progress {
	if !onTerminal(stderr, getenv) {
		return nil
	}
	return report.NewProgress(stderr, time.Now, 0)
}

// hidingWriter clears the progress line before each write: the two may share a terminal.
type hidingWriter struct {
	w io.Writer
	p *report.RunProgress
}

func (h hidingWriter) Write(b []byte) (int, error) {
	h.p.Hide()
	return h.w.Write(b)
}
