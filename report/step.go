package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// StepText is one step described for people: the canonical one-line description that the
// timeline, the TUI's event log and their golden files share.
type StepText struct {
	Step  int
	At    time.Duration
	Who   string   // the nodes involved: "1→2", "4", "4,5", or ""
	Event string   // what happened: "ELECTION(3) t2", "timer answer", "crash", "say"
	Parts []string // what it caused, then why: state changes, sends, the nodes' notes
}

// Describe describes one step from its records (a StepResult's, in order).
func Describe(recs []sim.Record, info *algo.Info, st Styler) StepText {
	main := recs[0]
	t := StepText{Step: main.Step, At: main.At}
	var notes []string
	switch main.Type {
	case sim.RecBoot:
		t.Who, t.Event = ID(main.Node), "boot"
	case sim.RecDeliver:
		t.Who, t.Event = Link(main.Msg), Kind(main.Msg, info, st)
	case sim.RecDrop:
		t.Who, t.Event = Link(main.Msg), Kind(main.Msg, info, st)
		t.Parts = append(t.Parts, st.Red("✗ dropped: "+main.Reason.String()))
	case sim.RecTimer:
		t.Who, t.Event = ID(main.Node), "timer "+main.Timer
	case sim.RecFault:
		a := main.Action
		t.Who, t.Event = actionNodes(a), st.Fault(a.Op.String())
		switch a.Op {
		case sim.Crash, sim.Recover, sim.Pause, sim.Resume, sim.Elect:
		case sim.Clock:
			t.Parts = append(t.Parts, st.Fault("rate "+sim.FormatRate(a.Rate)))
		default:
			if rest := strings.TrimSpace(strings.TrimPrefix(a.String(), a.Op.String())); rest != "" {
				t.Parts = append(t.Parts, st.Fault(rest))
			}
		}
	case sim.RecSay:
		t.Event = st.Say("say")
		t.Parts = append(t.Parts, st.Say(strconv.Quote(main.Action.Text)))
	case sim.RecBreak:
		t.Event = st.Say("break")
		t.Parts = append(t.Parts, st.Say("a presenter would stop here and ask the class"))
	default:
		t.Event = main.Type.String()
	}
	if main.Note != "" {
		notes = append(notes, main.Note)
	}
	actor := main.Node
	if main.Type == sim.RecDeliver {
		actor = main.Msg.To
	}
	t.Parts = append(t.Parts, effects(recs[1:], actor, info, st, &notes)...)
	for _, n := range notes {
		t.Parts = append(t.Parts, st.Dim(n))
	}
	return t
}

// effects describes what a step caused: state changes, then sends grouped by kind and fate. A
// state change of a node other than the actor is prefixed with its id.
func effects(recs []sim.Record, actor algo.ID, info *algo.Info, st Styler, notes *[]string) []string {
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
				who = ID(r.Node) + ": "
			}
			parts = append(parts, who+State(r, info, st))
			if r.Note != "" {
				*notes = append(*notes, r.Note)
			}
		case sim.RecSend:
			var g *group
			for _, x := range groups {
				if sameContent(x.msg, r.Msg) && x.reason == r.Reason {
					g = x
				}
			}
			if g == nil {
				g = &group{msg: r.Msg, reason: r.Reason}
				groups = append(groups, g)
			}
			g.to = append(g.to, ID(r.Msg.To))
		}
	}
	for _, g := range groups {
		to := strings.Join(g.to, " ")
		if len(g.to) > 8 {
			to = fmt.Sprintf("%d nodes", len(g.to))
		}
		s := Kind(g.msg, info, st) + "→" + to
		if g.reason != network.Delivered {
			s += " " + st.Red("✗ "+g.reason.String())
		}
		parts = append(parts, s)
	}
	return parts
}

// State writes a state change: "candidate → leader ★", "crashed → follower of 4 (term 3)",
// "now follows 4" when only the leader changed. The term is called by info's TermWord.
func State(r sim.Record, info *algo.Info, st Styler) string {
	s := r.Old.String() + " → " + st.Status(r.New, r.New.String())
	switch {
	case r.New == sim.Leader:
		s += st.Status(sim.Leader, " ★")
	case r.Old == r.New && r.Leader != 0:
		s = fmt.Sprintf("now follows %d", r.Leader)
	case r.Leader != 0 && (r.New == sim.Follower || r.New == sim.Candidate):
		s += fmt.Sprintf(" of %d", r.Leader)
	}
	if r.Term != 0 {
		s += fmt.Sprintf(" (%s %d)", TermWord(info), r.Term)
	}
	return s
}

// TermWord is what info's algorithm calls a state's term: "term", or a lease's "token".
func TermWord(info *algo.Info) string {
	if info != nil && info.TermWord != "" {
		return info.TermWord
	}
	return "term"
}

// Kind writes a message's kind with its value and term: "ELECTION(3) t2", its phase called by
// the algorithm's word for it (algo.Info.PhaseWord): "MAX-UID(9, round 3)".
func Kind(m algo.Message, info *algo.Info, st Styler) string {
	return st.Kind(Label(m, info), slices.Index(info.Kinds, m.Kind), info.IsRoutine(m.Kind))
}

// Label is the message without its ends (algo.Message.Label), its phase called by info's word
// for it: "MAX-UID(9, round 3)" for FloodMax.
func Label(m algo.Message, info *algo.Info) string {
	if info != nil && info.PhaseWord != "" {
		return m.LabelAs(info.PhaseWord)
	}
	return m.Label()
}

// Routine reports whether a step only moved the algorithm's routine messages (heartbeats) and
// changed nothing: a timeline may fold it.
func Routine(recs []sim.Record, info *algo.Info) bool {
	for _, r := range recs {
		switch r.Type {
		case sim.RecSend, sim.RecDeliver, sim.RecDrop:
			if !info.IsRoutine(r.Msg.Kind) {
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

// ID writes a node id.
func ID(n algo.ID) string { return strconv.Itoa(int(n)) }

// Link writes "1→2".
func Link(m algo.Message) string { return ID(m.From) + "→" + ID(m.To) }

func actionNodes(a *sim.Action) string {
	switch {
	case len(a.Nodes) > 0:
		var s []string
		for _, n := range a.Nodes {
			s = append(s, ID(n))
		}
		return strings.Join(s, ",")
	case a.Link != nil:
		return Link(algo.Message{From: a.Link.From, To: a.Link.To})
	}
	return ""
}

// StatusGlyph is the status's mark in diagrams, readable without colour: the terminal UI's but
// for a pause, ‖ here — browsers draw ⏸ as a coloured emoji.
func StatusGlyph(s sim.Status) string {
	switch s {
	case sim.Leader:
		return "★"
	case sim.Candidate:
		return "◆"
	case sim.Crashed:
		return "✗"
	case sim.Paused:
		return "‖"
	}
	return "●"
}

// sameContent reports whether a and b say the same thing, whoever sent them to whom.
func sameContent(a, b algo.Message) bool {
	a.From, a.To, b.From, b.To = 0, 0, 0, 0
	return a == b
}
