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
	"electsim/network"
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
		fmt.Fprintln(t.w, t.p.dim(fmt.Sprintf("Routine steps (%s messages that change nothing) are hidden; --all shows every step.",
			strings.Join(t.info.Routine, ", "))))
		fmt.Fprintln(t.w)
	}
	head := pad("TIME ms", colTime, true) + " " + pad("STEP", colStep, true) + "  " +
		pad("NODES", colWho, false) + pad("EVENT", colEvent, false) + "WHAT HAPPENED · WHY"
	fmt.Fprintln(t.w, t.p.dim(head))
}

// foldAtLeast is the shortest run of routine steps worth a line of its own; shorter runs are
// left out silently (the step numbers show the gap).
const foldAtLeast = 3

// step prints (or folds) one step.
func (t *timeline) step(r sim.StepResult) {
	if len(r.Records) == 0 {
		return
	}
	if !t.all && t.routine(r.Records) {
		t.addFold(r)
		return
	}
	t.flush()
	t.line(r.Records)
}

// routine reports whether a step only moved routine messages and changed nothing.
func (t *timeline) routine(recs []sim.Record) bool {
	for _, r := range recs {
		switch r.Type {
		case sim.RecSend, sim.RecDeliver, sim.RecDrop:
			if !t.info.IsRoutine(r.Msg.Kind) {
				return false
			}
		case sim.RecTimer:
		default:
			return false
		}
		if r.Note != "" {
			return false
		}
	}
	return true
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
	span := ms(f.from)
	if f.to != f.from {
		span += "–" + ms(f.to)
	}
	steps := "1 routine step"
	if f.steps > 1 {
		steps = fmt.Sprintf("%d routine steps", f.steps)
	}
	fmt.Fprintln(t.w, t.p.dim(fmt.Sprintf("%s %s  … %s, %s ms: %s",
		pad("", colTime, true), pad("", colStep, true), steps, span, strings.Join(parts, "; "))))
	t.fold = fold{}
}

// line prints one step.
func (t *timeline) line(recs []sim.Record) {
	main := recs[0]
	who, event := "", ""
	var parts, notes []string
	switch main.Type {
	case sim.RecBoot:
		who, event = id(main.Node), "boot"
	case sim.RecDeliver:
		who, event = link(main.Msg), t.kind(main.Msg)
	case sim.RecDrop:
		who, event = link(main.Msg), t.kind(main.Msg)
		parts = append(parts, t.p.red("✗ dropped: "+main.Reason.String()))
	case sim.RecTimer:
		who, event = id(main.Node), "timer "+main.Timer
	case sim.RecFault:
		who, event = actionNodes(main.Action), t.p.fault(main.Action.Op.String())
		if rest := strings.TrimSpace(strings.TrimPrefix(main.Action.String(), main.Action.Op.String())); rest != "" &&
			main.Action.Op != sim.Crash && main.Action.Op != sim.Recover && main.Action.Op != sim.Pause &&
			main.Action.Op != sim.Resume && main.Action.Op != sim.Elect {
			parts = append(parts, t.p.fault(rest))
		}
	case sim.RecSay:
		event = t.p.say("say")
		parts = append(parts, t.p.say(strconv.Quote(main.Action.Text)))
	case sim.RecBreak:
		event = t.p.say("break")
		parts = append(parts, t.p.say("a presenter would stop here and ask the class"))
	default:
		event = main.Type.String()
	}
	if main.Note != "" {
		notes = append(notes, main.Note)
	}
	actor := main.Node
	if main.Type == sim.RecDeliver {
		actor = main.Msg.To
	}
	parts = append(parts, t.effects(recs[1:], actor, &notes)...)
	for _, n := range notes {
		parts = append(parts, t.p.dim(n))
	}
	fmt.Fprintf(t.w, "%s %s  %s%s%s\n",
		t.p.dim(pad(ms(main.At), colTime, true)), t.p.dim(pad(strconv.Itoa(main.Step), colStep, true)),
		pad(who, colWho, false), padStyled(event, colEvent), strings.Join(parts, " · "))
}

// effects describes what a step caused: state changes, then sends grouped by kind and fate. A
// state change of a node other than the actor is prefixed with its id.
func (t *timeline) effects(recs []sim.Record, actor algo.ID, notes *[]string) []string {
	var parts []string
	type group struct {
		msg    algo.Message
		reason network.Reason
		to     []string
	}
	var groups []*group
	for _, r := range recs {
		switch r.Type {
		case sim.RecState:
			who := ""
			if r.Node != actor {
				who = id(r.Node) + ": "
			}
			parts = append(parts, who+t.state(r))
			if r.Note != "" {
				*notes = append(*notes, r.Note)
			}
		case sim.RecSend:
			var g *group
			for _, x := range groups {
				if x.msg.Kind == r.Msg.Kind && x.msg.Value == r.Msg.Value && x.msg.Term == r.Msg.Term &&
					x.msg.Flag == r.Msg.Flag && x.reason == r.Reason {
					g = x
				}
			}
			if g == nil {
				g = &group{msg: r.Msg, reason: r.Reason}
				groups = append(groups, g)
			}
			g.to = append(g.to, id(r.Msg.To))
		}
	}
	for _, g := range groups {
		to := strings.Join(g.to, " ")
		if len(g.to) > 8 {
			to = fmt.Sprintf("%d nodes", len(g.to))
		}
		s := t.kind(g.msg) + "→" + to
		if g.reason != network.Delivered {
			s += " " + t.p.red("✗ "+g.reason.String())
		}
		parts = append(parts, s)
	}
	return parts
}

// state writes a state change: "candidate → leader ★", "crashed → follower of 4 (term 3)",
// "now follows 4" when only the leader changed.
func (t *timeline) state(r sim.Record) string {
	s := r.Old.String() + " → " + t.p.status(r.New, r.New.String())
	switch {
	case r.New == sim.Leader:
		s += t.p.status(sim.Leader, " ★")
	case r.Old == r.New && r.Leader != 0:
		s = fmt.Sprintf("now follows %d", r.Leader)
	case r.Leader != 0 && (r.New == sim.Follower || r.New == sim.Candidate):
		s += fmt.Sprintf(" of %d", r.Leader)
	}
	if r.Term != 0 {
		s += fmt.Sprintf(" (term %d)", r.Term)
	}
	return s
}

// kind writes a message's kind with its value and term: "ELECTION(3) t2".
func (t *timeline) kind(m algo.Message) string {
	s := m.Kind
	if m.Value != 0 {
		s += fmt.Sprintf("(%d)", m.Value)
	}
	if m.Term != 0 {
		s += fmt.Sprintf(" t%d", m.Term)
	}
	if m.Flag {
		s += " ✓"
	}
	return t.p.kind(s, slices.Index(t.info.Kinds, m.Kind), t.info.IsRoutine(m.Kind))
}

func id(n algo.ID) string { return strconv.Itoa(int(n)) }

func link(m algo.Message) string { return id(m.From) + "→" + id(m.To) }

func actionNodes(a *sim.Action) string {
	switch {
	case len(a.Nodes) > 0:
		var s []string
		for _, n := range a.Nodes {
			s = append(s, id(n))
		}
		return strings.Join(s, ",")
	case a.Link != nil:
		return link(algo.Message{From: a.Link.From, To: a.Link.To})
	}
	return ""
}

// ms writes a virtual time in milliseconds with three decimals: "1000.000".
func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/1e6, 'f', 3, 64)
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
