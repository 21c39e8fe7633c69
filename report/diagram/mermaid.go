package diagram

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"electsim/algo"
	"electsim/report"
	"electsim/sim"
)

// Mermaid writes the records as a Mermaid sequence diagram (sequenceDiagram), which GitHub
// renders in a ```mermaid block. The participants are the nodes, in o.IDs order; then, in the
// order of the trace:
//
//   - a delivered message is an arrow (->>) where it arrives, labelled with its kind (and value,
//     term, flag); a message lost on arrival is a crossed arrow (-x) where it is lost, "✗" and
//     the reason; one lost at send is a crossed arrow where it was sent; one still in flight at
//     the end is a dotted open arrow (--)) where it was sent;
//   - what a step did to a node (a timer that fired, its new status) is one note over it, with
//     the time: "560ms · timer answer → ★ leader";
//   - faults are notes over the nodes they name, or over all for the network's;
//   - narration (say) and breaks are notes over all the nodes;
//   - a partition is a shaded rect from the partition to the heal.
//
// Mermaid has no time axis: arrows are horizontal, in the order things happened. Text is
// escaped with Mermaid's entity codes (#59; for ";", #35; for "#", #quot; ...), so that
// narration cannot break the diagram. o.Caption, if any, is a %% comment. A window that starts
// after 0 (o.From) opens with a note saying where every node stands then.
func Mermaid(w io.Writer, recs []sim.Record, o Options) error {
	m := newMermaidWriter(w, recs, &o)
	m.header()
	if o.From > 0 && m.all != "" {
		m.where() // the window starts mid-run: say where every node stands
	}
	if m.v.partition != nil && m.all != "" {
		m.openRect(m.v.partition)
	}
	items := m.v.items
	for len(items) > 0 {
		// One step at a time.
		step := recs[items[0].i].Step
		n := 1
		for n < len(items) && recs[items[n].i].Step == step {
			n++
		}
		m.step(items[:n])
		items = items[n:]
	}
	m.closeRect()
	return m.b.Flush()
}

// mermaidWriter writes one Mermaid diagram.
type mermaidWriter struct {
	b      *bufio.Writer
	v      *dgView
	recs   []sim.Record
	o      *Options
	all    string // the participants a note over every node spans: "n1,n5"; "" when none
	known  map[algo.ID]bool
	indent string // the statements' indent: deeper inside a partition's rect
	inRect bool
}

func newMermaidWriter(w io.Writer, recs []sim.Record, o *Options) *mermaidWriter {
	m := &mermaidWriter{b: bufio.NewWriter(w), v: newView(recs, o), recs: recs, o: o, known: map[algo.ID]bool{}, indent: "    "}
	if ids := m.v.ids; len(ids) > 0 {
		m.all = mmID(ids[0])
		if len(ids) > 1 {
			m.all += "," + mmID(ids[len(ids)-1])
		}
	}
	for _, id := range m.v.ids {
		m.known[id] = true
	}
	return m
}

// header writes the diagram's kind, its title, its caption as a comment, and the participants.
func (m *mermaidWriter) header() {
	m.b.WriteString("sequenceDiagram\n")
	if m.o.Title != "" {
		fmt.Fprintf(m.b, "    title %s\n", mmEsc(m.o.Title))
	}
	if m.o.Caption != "" {
		fmt.Fprintf(m.b, "    %%%% %s\n", strings.ReplaceAll(clean(m.o.Caption), "%%", "%"))
	}
	for _, id := range m.v.ids {
		fmt.Fprintf(m.b, "    participant %s as %d\n", mmID(id), id)
	}
}

// where writes a note over every node saying where each stands at the start of the window.
func (m *mermaidWriter) where() {
	var where []string
	for _, id := range m.v.ids {
		st, leader := m.v.statusAt(id)
		r := sim.Record{Old: st, New: st}
		if st == sim.Follower || st == sim.Candidate {
			r.Leader = leader
		}
		where = append(where, strconv.Itoa(int(id))+" "+strings.Replace(statusText(&r, m.o.Algorithm), " now follows ", " follower of ", 1))
	}
	lines := []string{"at " + fmtMS(m.o.From) + "ms: " + where[0]}
	for _, w := range where[1:] {
		if last := &lines[len(lines)-1]; len(*last)+len(w) < 60 {
			*last += " · " + w
		} else {
			lines = append(lines, w)
		}
	}
	for i := range lines {
		lines[i] = mmEsc(lines[i])
	}
	fmt.Fprintf(m.b, "    Note over %s: %s\n", m.all, strings.Join(lines, "<br/>"))
}

// openRect starts a partition's shaded rect (ending the one open, if any), with a note saying
// which partition is in force when a is given.
func (m *mermaidWriter) openRect(a *sim.Action) {
	if m.inRect {
		m.b.WriteString("    end\n")
	}
	m.b.WriteString("    rect rgba(254, 202, 202, 0.35)\n")
	if a != nil {
		fmt.Fprintf(m.b, "        Note over %s: %s\n", m.all, mmEsc("partition in force: "+a.String()))
	}
	m.inRect, m.indent = true, "        "
}

func (m *mermaidWriter) closeRect() {
	if m.inRect {
		m.b.WriteString("    end\n")
	}
	m.inRect, m.indent = false, "    "
}

// arrow writes message msg as an arrow of the kind given ("->>", "-x", "--)"), its label
// followed by suffix.
func (m *mermaidWriter) arrow(msg *dgMsg, kind, suffix string) {
	mg := m.recs[msg.send].Msg
	if !m.known[mg.From] || !m.known[mg.To] {
		return
	}
	fmt.Fprintf(m.b, "%s%s%s%s: %s\n", m.indent, mmID(mg.From), kind, mmID(mg.To), mmEsc(report.Label(mg, m.o.Algorithm)+suffix))
}

// note writes a note over the participants over ("" for none: nothing is written).
func (m *mermaidWriter) note(over, text string) {
	if over == "" {
		return
	}
	fmt.Fprintf(m.b, "%sNote over %s: %s\n", m.indent, over, mmWrap(text, 60))
}

// step writes one step's items: its arrivals, then what it did to each node, then its sends
// that do not arrive.
func (m *mermaidWriter) step(group []dgItem) {
	at := fmtMS(m.recs[group[0].i].At) + "ms"
	var nodes []algo.ID // in the order the step names them
	parts := map[algo.ID][]string{}
	add := func(id algo.ID, part string) {
		if _, ok := parts[id]; !ok {
			nodes = append(nodes, id)
		}
		parts[id] = append(parts[id], part)
	}
	for _, it := range group {
		r := &m.recs[it.i]
		switch r.Type {
		case sim.RecDeliver:
			m.arrow(it.msg, "->>", "")
		case sim.RecDrop:
			m.arrow(it.msg, "-x", " ✗ "+r.Reason.String())
		case sim.RecTimer:
			if m.known[r.Node] {
				add(r.Node, "timer "+r.Timer)
			}
		case sim.RecBoot:
			if m.known[r.Node] {
				add(r.Node, "boot")
			}
		case sim.RecState:
			if m.known[r.Node] {
				add(r.Node, statusText(r, m.o.Algorithm))
			}
		case sim.RecFault:
			m.fault(r, at, add)
		case sim.RecSay:
			m.note(m.all, at+" · "+r.Action.Text)
		case sim.RecBreak:
			m.note(m.all, at+" · — break: stop here and ask the class —")
		}
	}
	for _, id := range nodes {
		m.note(mmID(id), at+" · "+strings.Join(parts[id], " → "))
	}
	for _, it := range group {
		r := &m.recs[it.i]
		if r.Type != sim.RecSend {
			continue
		}
		switch {
		case it.msg.lostAtSend(m.recs):
			m.arrow(it.msg, "-x", " ✗ "+r.Reason.String())
		case it.msg.end < 0:
			m.arrow(it.msg, "--)", " (in flight at the end)")
		}
	}
}

// fault writes a fault at time at: the network's as a note over every node (a partition opens
// its rect, a heal closes it); what a fault does to a node goes with the node's new status
// (add): "crash → ✗ crashed".
func (m *mermaidWriter) fault(r *sim.Record, at string, add func(algo.ID, string)) {
	text := at + " · " + r.Action.String()
	if r.Note != "" {
		text += " — " + r.Note
	}
	switch r.Action.Op {
	case sim.Partition:
		m.openRect(nil)
		m.note(m.all, text)
	case sim.Heal:
		if r.Action.Link == nil {
			m.closeRect()
		}
		m.note(m.all, text)
	case sim.Cut, sim.SetDelay, sim.SetDrop:
		m.note(m.all, text)
	default:
		what := r.Action.Op.String()
		if r.Note != "" {
			what += " (" + r.Note + ")"
		}
		for _, id := range r.Action.Nodes {
			if m.known[id] {
				add(id, what)
			}
		}
	}
}

// mmID is a node's participant id.
func mmID(id algo.ID) string { return "n" + strconv.Itoa(int(id)) }

// mmWrap escapes s and breaks it into lines of about width characters with <br/>.
func mmWrap(s string, width int) string {
	lines := wrapText(s, width)
	for i, l := range lines {
		lines[i] = mmEsc(l)
	}
	return strings.Join(lines, "<br/>")
}

// mmEsc escapes text for a Mermaid label or note: the characters that end a statement or
// start an entity, a comment or a tag become Mermaid's entity codes; line breaks become spaces;
// control characters and bidirectional controls are written out (clean).
func mmEsc(s string) string {
	var b strings.Builder
	for _, r := range clean(s) {
		switch r {
		case ';':
			b.WriteString("#59;")
		case '#':
			b.WriteString("#35;")
		case '"':
			b.WriteString("#quot;")
		case '<':
			b.WriteString("#60;")
		case '>':
			b.WriteString("#62;")
		case '&':
			b.WriteString("#38;")
		case '%':
			b.WriteString("#37;")
		default:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}
