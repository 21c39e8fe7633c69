package main

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
	"electsim/report"
	"electsim/sim"
)

// timeline prints a run step by step: one aligned line per step — virtual time, step, the
// nodes involved, what happened, and the acting node's note. Runs of routine steps (heartbeats
// that change nothing) are folded into one line unless all is set.
type timeline struct {
	w    io.Writer
	p    palette
	info *algo.Info
	all  bool
	fold fold
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

func (t *timeline) header() {
	if !t.all && len(t.info.Routine) > 0 {
		fmt.Fprintln(t.w, t.p.Dim(fmt.Sprintf("Routine steps (%s messages that change nothing) are hidden; --all shows every step.",
			strings.Join(t.info.Routine, ", "))))
		fmt.Fprintln(t.w)
	}
	head := pad("TIME ms", colTime, true) + " " + pad("STEP", colStep, true) + "  " +
		pad("NODES", colWho, false) + pad("EVENT", colEvent, false) + "WHAT HAPPENED · WHY"
	fmt.Fprintln(t.w, t.p.Dim(head))
}

// foldAtLeast is the shortest run of routine steps worth a line of its own; shorter runs are
// left out silently (the step numbers show the gap).
const foldAtLeast = 3

// step prints (or folds) one step.
func (t *timeline) step(r sim.StepResult) {
	if len(r.Records) == 0 {
		return
	}
	if !t.all && report.Routine(r.Records, t.info) {
		t.addFold(r)
		return
	}
	t.flush()
	t.line(r.Records)
}

func (t *timeline) addFold(r sim.StepResult) {
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

// flush prints the folded routine steps, if there are enough to be worth a line.
func (t *timeline) flush() {
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
	fmt.Fprintln(t.w, t.p.Dim(fmt.Sprintf("%s %s  … %s, %s ms: %s",
		pad("", colTime, true), pad("", colStep, true), steps, span, strings.Join(parts, "; "))))
	t.fold = fold{}
}

// line prints one step.
func (t *timeline) line(recs []sim.Record) {
	d := report.Describe(recs, t.info, t.p)
	fmt.Fprintf(t.w, "%s %s  %s%s%s\n",
		t.p.Dim(pad(human.MillisFixed(d.At), colTime, true)), t.p.Dim(pad(strconv.Itoa(d.Step), colStep, true)),
		pad(d.Who, colWho, false), padStyled(d.Event, colEvent), strings.Join(d.Parts, " · "))
}

// id writes a node id.
func id(n algo.ID) string { return report.ID(n) }

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
