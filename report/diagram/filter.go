package diagram

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/internal/safetext"
	"electsim/network"
	"electsim/report"
	"electsim/sim"
)

// Options say what a diagram (SVG, Mermaid, ShiViz) shows. The zero value shows the whole run
// and every message kind, on the nodes the records name.
//
// What is shown, the same in the three formats:
//
//   - A message is shown when its kind is shown and it is sent within [From, To]. It is shown
//     whole, with its fate — delivered, lost on arrival, lost at send, or still in flight when
//     the records end — even when it arrives after To. A message sent before From is not
//     shown, even if it arrives within the window.
//   - Boot, state, fault, say and break records are shown when they fall within the window.
//   - A timer is shown when it falls within the window and its step shows something else too
//     (a state change, a shown message sent) or it carries a note: the leader's heartbeat
//     timer, which only sends heartbeats, is left out with them.
//
// The trace does not say which send a delivery ends; the diagrams pair them per directed link
// and message content, the earliest pending send first (preferring one due exactly then), which
// is exact on FIFO links and between identical messages makes no visible difference.
type Options struct {
	// IDs are the nodes in ring order: one lifeline, participant or host each, in this order.
	// Nil: the nodes the records name, ascending.
	IDs []algo.ID
	// Algorithm gives the message kinds (their colours follow its order) and the routine ones
	// (heartbeats) that are left out unless Kinds names them. Nil: no kind is routine.
	Algorithm *algo.Info
	// Title heads the diagram; Caption is an optional smaller line under it (the run's setup).
	Title, Caption string
	// From and To bound the virtual time shown. To <= 0: to the end of the records.
	From, To time.Duration
	// Kinds are the message kinds to show. Nil: every kind except the algorithm's routine ones;
	// empty but not nil: no messages at all.
	Kinds []string
}

// ShowsKind reports whether messages of kind are shown.
func (o *Options) ShowsKind(kind string) bool {
	if o.Kinds != nil {
		return slices.Contains(o.Kinds, kind)
	}
	return o.Algorithm == nil || !o.Algorithm.IsRoutine(kind)
}

// inWindow reports whether t is within [From, To].
func (o *Options) inWindow(t time.Duration) bool {
	return t >= o.From && (o.To <= 0 || t <= o.To)
}

// dgMsg is one message of the trace: its send record and the record that ended it.
type dgMsg struct {
	send int // index of the send record
	end  int // index of its deliver or drop record; -1: lost at send, or still in flight
}

// lostAtSend reports whether the network dropped the message as it was sent.
func (m *dgMsg) lostAtSend(recs []sim.Record) bool { return recs[m.send].Reason != network.Delivered }

// dgItem is one shown record; msg is set for send, deliver and drop records.
type dgItem struct {
	i   int
	msg *dgMsg
}

// dgView is what a diagram shows: the records the options select, in trace order.
type dgView struct {
	recs  []sim.Record
	o     *Options
	ids   []algo.ID
	items []dgItem
	msgs  []*dgMsg // the shown messages, in the order they were sent
	// start is each node's last state record before From (Type 0: none, so a follower).
	start map[algo.ID]sim.Record
	// partition is the partition in force at From, if any.
	partition *sim.Action
}

// msgKey identifies messages that cannot be told apart: same link, same content.
type msgKey = algo.Message

func keyOf(m algo.Message) msgKey { return m }

// newView selects what a diagram shows (see Options).
func newView(recs []sim.Record, o *Options) *dgView {
	v := &dgView{recs: recs, o: o, start: map[algo.ID]sim.Record{}}
	byRec, seen := v.pair()
	if o.IDs != nil {
		v.ids = o.IDs
	} else {
		for id := range seen {
			v.ids = append(v.ids, id)
		}
		slices.Sort(v.ids)
	}
	v.choose(byRec)
	return v
}

// pair pairs each shown message's send with the record that ended it, by record index, and
// notes where the nodes and the network stand at From; it returns the pairs and the nodes the
// records name.
func (v *dgView) pair() (byRec map[int]*dgMsg, seen map[algo.ID]bool) {
	recs, o := v.recs, v.o
	pending := map[msgKey][]*dgMsg{}
	byRec, seen = map[int]*dgMsg{}, map[algo.ID]bool{}
	for i := range recs {
		r := &recs[i]
		for _, id := range recordNodes(r) {
			seen[id] = true
		}
		switch r.Type {
		case sim.RecSend:
			if !o.ShowsKind(r.Msg.Kind) {
				continue
			}
			m := &dgMsg{send: i, end: -1}
			byRec[i] = m
			if r.Reason == network.Delivered {
				k := keyOf(r.Msg)
				pending[k] = append(pending[k], m)
			}
		case sim.RecDeliver, sim.RecDrop:
			if !o.ShowsKind(r.Msg.Kind) {
				continue
			}
			k := keyOf(r.Msg)
			q := pending[k]
			best := pickSend(len(q), func(j int) time.Duration { return recs[q[j].send].DeliverAt }, r.At)
			if best < 0 {
				continue // its send is not in the records
			}
			m := q[best]
			m.end = i
			byRec[i] = m
			pending[k] = slices.Delete(q, best, best+1)
		case sim.RecState:
			if r.At < o.From {
				v.start[r.Node] = *r
			}
		case sim.RecFault:
			if r.At < o.From {
				switch {
				case r.Action.Op == sim.Partition:
					v.partition = r.Action
				case r.Action.Op == sim.Heal && r.Action.Link == nil:
					v.partition = nil
				}
			}
		}
	}
	return byRec, seen
}

// choose picks the records shown, in trace order, and the messages, in the order they were
// sent. A timer is shown when its step shows a state change or a shown send, or it has a note.
func (v *dgView) choose(byRec map[int]*dgMsg) {
	recs, o := v.recs, v.o
	busy := map[int]bool{}
	for i := range recs {
		r := &recs[i]
		if !o.inWindow(r.At) {
			continue
		}
		if r.Type == sim.RecState || r.Type == sim.RecSend && byRec[i] != nil {
			busy[r.Step] = true
		}
	}
	for i := range recs {
		r := &recs[i]
		show := false
		var m *dgMsg
		switch r.Type {
		case sim.RecSend:
			m = byRec[i]
			show = m != nil && o.inWindow(r.At)
			if show {
				v.msgs = append(v.msgs, m)
			}
		case sim.RecDeliver, sim.RecDrop:
			m = byRec[i]
			show = m != nil && o.inWindow(recs[m.send].At)
		case sim.RecTimer:
			show = o.inWindow(r.At) && (busy[r.Step] || r.Note != "")
		default:
			show = o.inWindow(r.At)
		}
		if show {
			v.items = append(v.items, dgItem{i: i, msg: m})
		}
	}
}

// pickSend returns which of n pending sends of one link and content an arrival at time at
// ends: the first due exactly then, else the first due before then (held by a pause, say);
// -1 when none is due by then. due gives each one's due time, in the order they were sent.
func pickSend(n int, due func(int) time.Duration, at time.Duration) int {
	best := -1
	for j := range n {
		d := due(j)
		if d == at {
			return j
		}
		if d < at && best < 0 {
			best = j
		}
	}
	return best
}

// recordNodes lists the nodes a record names.
func recordNodes(r *sim.Record) []algo.ID {
	switch r.Type {
	case sim.RecSend, sim.RecDeliver, sim.RecDrop:
		return []algo.ID{r.Msg.From, r.Msg.To}
	case sim.RecBoot, sim.RecTimer, sim.RecState:
		return []algo.ID{r.Node}
	case sim.RecFault:
		return r.Action.NodeIDs()
	}
	return nil
}

// statusAt returns node id's status at the start of the view, and the leader it follows.
func (v *dgView) statusAt(id algo.ID) (sim.Status, algo.ID) {
	if r, ok := v.start[id]; ok {
		return r.New, r.Leader
	}
	return sim.Follower, 0
}

// statusText writes a node's new status for a diagram: "★ leader", "● follower of 5",
// "◆ candidate (term 3)", "now follows 4" when only the leader changed. The term is called by
// the algorithm's word for it (TermWord).
func statusText(r *sim.Record, info *algo.Info) string {
	s := report.StatusGlyph(r.New) + " " + r.New.String()
	switch {
	case r.Old == r.New && r.Leader != 0 && r.New != sim.Leader:
		s = report.StatusGlyph(r.New) + " now follows " + strconv.Itoa(int(r.Leader))
	case r.Leader != 0 && (r.New == sim.Follower || r.New == sim.Candidate):
		s += " of " + strconv.Itoa(int(r.Leader))
	}
	if r.Term != 0 {
		s += " (" + report.TermWord(info) + " " + strconv.FormatUint(r.Term, 10) + ")"
	}
	return s
}

// fmtMS writes a virtual time in milliseconds, to the microsecond, with no unit: "0", "12.5",
// "1205". Times are rounded to the microsecond first, as the diagrams show them.
func fmtMS(d time.Duration) string {
	return strings.TrimSuffix(human.Millis(d.Round(time.Microsecond)), "ms")
}

// oneLine replaces line breaks (and the other characters a one-line format cannot hold) with
// spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029':
			return ' '
		}
		return r
	}, s)
}

// clean makes text from a file (a title, narration) or a node's note fit for a one-line
// diagram label and safe to show: line breaks become spaces, and control characters,
// bidirectional controls and bytes that are not UTF-8 are written out (safetext.Escape).
func clean(s string) string { return safetext.Escape(oneLine(s)) }
