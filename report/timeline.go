package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/network"
	"electsim/sim"
)

// Timeline writes a run step by step: one aligned line per step — virtual time, step, the
// nodes involved, what happened, and the acting node's note. Runs of routine steps (heartbeats
// that change nothing) are folded into one line unless it shows all of them.
type Timeline struct {
	w    io.Writer
	st   Styler
	info *algo.Info
	all  bool
	fold fold
}

// NewTimeline returns a timeline of a run of info's algorithm written to w, styled by st; with
// all, it shows every step, routine ones too.
func NewTimeline(w io.Writer, st Styler, info *algo.Info, all bool) *Timeline {
	return &Timeline{w: w, st: st, info: info, all: all}
}

// fold gathers consecutive routine steps.
type fold struct {
	steps                    int
	from, to                 time.Duration
	kinds                    []string
	sent, delivered, dropped map[string]int
}

const (
	colTime  = 10
	colStep  = 6
	colWho   = 8
	colEvent = 18
)

// Header writes what the columns are, and which steps are folded.
func (t *Timeline) Header() {
	if !t.all && len(t.info.Routine) > 0 {
		fmt.Fprintln(t.w, t.st.Dim(fmt.Sprintf("Routine steps (%s messages that change nothing) are hidden; --all shows every step.",
			strings.Join(t.info.Routine, ", "))))
		fmt.Fprintln(t.w)
	}
	head := pad("TIME ms", colTime, true) + " " + pad("STEP", colStep, true) + "  " +
		pad("NODES", colWho, false) + pad("EVENT", colEvent, false) + "WHAT HAPPENED · WHY"
	fmt.Fprintln(t.w, t.st.Dim(head))
}

// foldAtLeast is the shortest run of routine steps worth a line of its own; shorter runs are
// left out silently (the step numbers show the gap).
const foldAtLeast = 3

// Step writes one step, or folds it with the routine steps around it.
func (t *Timeline) Step(r sim.StepResult) {
	if len(r.Records) == 0 {
		return
	}
	if !t.all && Routine(r.Records, t.info) {
		t.addFold(r)
		return
	}
	t.Flush()
	t.line(r.Records)
}

func (t *Timeline) addFold(r sim.StepResult) {
	f := &t.fold
	if f.steps == 0 {
		*f = fold{from: r.At, sent: map[string]int{}, delivered: map[string]int{}, dropped: map[string]int{}}
	}
	f.steps++
	f.to = r.At
	for _, rec := range r.Records {
		k := rec.Msg.Kind
		if k != "" && !slices.Contains(f.kinds, k) {
			f.kinds = append(f.kinds, k)
		}
		switch {
		case rec.Type == sim.RecSend:
			f.sent[k]++
			if rec.Reason != network.Delivered {
				f.dropped[k]++
			}
		case rec.Type == sim.RecDeliver:
			f.delivered[k]++
		case rec.Type == sim.RecDrop:
			f.dropped[k]++
		}
	}
}

// Flush writes the routine steps folded so far, if there are enough to be worth a line: call it
// when the run ends or stops.
func (t *Timeline) Flush() {
	f := &t.fold
	if f.steps < foldAtLeast {
		t.fold = fold{}
		return
	}
	var parts []string
	for _, k := range f.kinds {
		var counts []string
		for _, c := range []struct {
			n    int
			what string
		}{{f.sent[k], "sent"}, {f.delivered[k], "delivered"}, {f.dropped[k], "dropped"}} {
			if c.n > 0 {
				counts = append(counts, fmt.Sprintf("%d %s", c.n, c.what))
			}
		}
		parts = append(parts, k+" "+strings.Join(counts, ", "))
	}
	span := human.MillisFixed(f.from)
	if f.to != f.from {
		span += "–" + human.MillisFixed(f.to)
	}
	steps := "1 routine step"
	if f.steps > 1 {
		steps = fmt.Sprintf("%d routine steps", f.steps)
	}
	fmt.Fprintln(t.w, t.st.Dim(fmt.Sprintf("%s %s  … %s, %s ms: %s",
		pad("", colTime, true), pad("", colStep, true), steps, span, strings.Join(parts, "; "))))
	t.fold = fold{}
}

// line prints one step.
func (t *Timeline) line(recs []sim.Record) {
	d := Describe(recs, t.info, t.st)
	fmt.Fprintf(t.w, "%s %s  %s%s%s\n",
		t.st.Dim(pad(human.MillisFixed(d.At), colTime, true)), t.st.Dim(pad(strconv.Itoa(d.Step), colStep, true)),
		pad(d.Who, colWho, false), padStyled(d.Event, colEvent), strings.Join(d.Parts, " · "))
}

// pad pads plain s to width w (right-aligned if right), counting characters.
func pad(s string, w int, right bool) string {
	n := utf8.RuneCountInString(s)
	if n >= w {
		return s + " "
	}
	if right {
		return strings.Repeat(" ", w-n) + s
	}
	return s + strings.Repeat(" ", w-n)
}

// padStyled pads s, which may hold ANSI escapes, to width w.
func padStyled(s string, w int) string {
	n := visibleLen(s)
	if n >= w {
		return s + " "
	}
	return s + strings.Repeat(" ", w-n)
}

// visibleLen counts the characters of s that show, skipping ANSI escapes.
func visibleLen(s string) int {
	n, esc := 0, false
	for _, r := range s {
		switch {
		case esc:
			if r == 'm' {
				esc = false
			}
		case r == '\x1b':
			esc = true
		default:
			n++
		}
	}
	return n
}
