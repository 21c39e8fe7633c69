package diagram

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"electsim/algo"
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
	v := newView(recs, &o)
	b := bufio.NewWriter(w)
	b.WriteString("sequenceDiagram\n")
	if o.Title != "" {
		fmt.Fprintf(b, "    title %s\n", mmEsc(o.Title))
	}
	if o.Caption != "" {
		fmt.Fprintf(b, "    %%%% %s\n", strings.ReplaceAll(clean(o.Caption), "%%", "%"))
	}
	for _, id := range v.ids {
		fmt.Fprintf(b, "    participant %s as %d\n", mmID(id), id)
	}
	all := ""
	if len(v.ids) > 0 {
		all = mmID(v.ids[0])
		if len(v.ids) > 1 {
			all += "," + mmID(v.ids[len(v.ids)-1])
		}
	}
	known := map[algo.ID]bool{}
	for _, id := range v.ids {
		known[id] = true
	}
	indent := "    "
	inRect := false
	openRect := func(a *sim.Action) {
		if inRect {
			b.WriteString("    end\n")
		}
		b.WriteString("    rect rgba(254, 202, 202, 0.35)\n")
		if a != nil {
			fmt.Fprintf(b, "        Note over %s: %s\n", all, mmEsc("partition in force: "+a.String()))
		}
		inRect, indent = true, "        "
	}
	closeRect := func() {
		if inRect {
			b.WriteString("    end\n")
		}
		inRect, indent = false, "    "
	}
	if o.From > 0 && all != "" {
		// The window starts mid-run: say where every node stands.
		var where []string
		for _, id := range v.ids {
			st, leader := v.statusAt(id)
			r := sim.Record{Old: st, New: st}
			if st == sim.Follower || st == sim.Candidate {
				r.Leader = leader
			}
			where = append(where, strconv.Itoa(int(id))+" "+strings.Replace(statusText(&r, o.Algorithm), " now follows ", " follower of ", 1))
		}
		lines := []string{"at " + fmtMS(o.From) + "ms: " + where[0]}
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
		fmt.Fprintf(b, "    Note over %s: %s\n", all, strings.Join(lines, "<br/>"))
	}
	if v.partition != nil && all != "" {
		openRect(v.partition)
	}
	arrow := func(m *dgMsg, kind, suffix string) {
		msg := recs[m.send].Msg
		if !known[msg.From] || !known[msg.To] {
			return
		}
		fmt.Fprintf(b, "%s%s%s%s: %s\n", indent, mmID(msg.From), kind, mmID(msg.To), mmEsc(msg.Label()+suffix))
	}
	note := func(over, text string) {
		if over == "" {
			return
		}
		fmt.Fprintf(b, "%sNote over %s: %s\n", indent, over, mmWrap(text, 60))
	}

	items := v.items
	for len(items) > 0 {
		// One step at a time: its arrivals, then what it did to each node, then its sends that
		// do not arrive.
		step := recs[items[0].i].Step
		n := 1
		for n < len(items) && recs[items[n].i].Step == step {
			n++
		}
		group := items[:n]
		items = items[n:]
		at := fmtMS(recs[group[0].i].At) + "ms"
		var nodes []algo.ID
		parts := map[algo.ID][]string{}
		for _, it := range group {
			r := &recs[it.i]
			switch r.Type {
			case sim.RecDeliver:
				arrow(it.msg, "->>", "")
			case sim.RecDrop:
				arrow(it.msg, "-x", " ✗ "+r.Reason.String())
			case sim.RecTimer, sim.RecState, sim.RecBoot:
				if !known[r.Node] {
					continue
				}
				if _, ok := parts[r.Node]; !ok {
					nodes = append(nodes, r.Node)
				}
				switch r.Type {
				case sim.RecTimer:
					parts[r.Node] = append(parts[r.Node], "timer "+r.Timer)
				case sim.RecBoot:
					parts[r.Node] = append(parts[r.Node], "boot")
				default:
					parts[r.Node] = append(parts[r.Node], statusText(r, o.Algorithm))
				}
			case sim.RecFault:
				text := at + " · " + r.Action.String()
				if r.Note != "" {
					text += " — " + r.Note
				}
				switch r.Action.Op {
				case sim.Partition:
					openRect(nil)
					note(all, text)
				case sim.Heal:
					if r.Action.Link == nil {
						closeRect()
					}
					note(all, text)
				case sim.Cut, sim.SetDelay, sim.SetDrop:
					note(all, text)
				default:
					// What a fault does to a node goes with its new status: "crash → ✗ crashed".
					what := r.Action.Op.String()
					if r.Note != "" {
						what += " (" + r.Note + ")"
					}
					for _, id := range r.Action.Nodes {
						if !known[id] {
							continue
						}
						if _, ok := parts[id]; !ok {
							nodes = append(nodes, id)
						}
						parts[id] = append(parts[id], what)
					}
				}
			case sim.RecSay:
				note(all, at+" · "+r.Action.Text)
			case sim.RecBreak:
				note(all, at+" · — break: stop here and ask the class —")
			}
		}
		for _, id := range nodes {
			note(mmID(id), at+" · "+strings.Join(parts[id], " → "))
		}
		for _, it := range group {
			r := &recs[it.i]
			if r.Type != sim.RecSend {
				continue
			}
			switch {
			case it.msg.lostAtSend(recs):
				arrow(it.msg, "-x", " ✗ "+r.Reason.String())
			case it.msg.end < 0:
				arrow(it.msg, "--)", " (in flight at the end)")
			}
		}
	}
	closeRect()
	return b.Flush()
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
