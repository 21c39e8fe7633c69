package export

import (
	"io"
	"strconv"
	"strings"

	"electsim/algo"
	"electsim/sim"
)

// ShiVizRegexp is the log-parsing regular expression a ShiViz log starts with (ShiViz's own
// default): an event's description on one line, then its host and vector clock on the next.
const ShiVizRegexp = `(?<event>.*)\n(?<host>\S*) (?<clock>{.*})`

// ShiVizScenario is the host of the events no node takes part in: narration, breaks and the
// network's faults.
const ShiVizScenario = "scenario"

// ShiViz writes the records as a log for ShiViz (https://bestchai.bitbucket.io/shiviz/), which
// draws it as a space-time diagram you can explore and search. The file is what ShiViz's
// "upload" takes: the regular expression ShiVizRegexp on the first line, an empty second line
// (no delimiter: one execution), then two lines per event:
//
//	10ms receive ELECTION from 1 · ELECTION from lower 1: OK (I am already electing)
//	n2 {"n1":1,"n2":2}
//
// The description starts with the virtual time; the host is "n" and the node's id; the clock
// is the event's vector clock, keys in o.IDs order. Each host's own entry starts at 1 and grows
// by exactly 1 with each of its events; a receive first takes the componentwise maximum of its
// own clock and its send's, then adds 1. The events, in trace order (what Options shows):
//
//	boot                  on the node
//	send                  on the sender: "send KIND to N", with the message's fate when it is
//	                      not delivered (lost at send, lost on arrival, still in flight)
//	deliver               on the receiver, merged with the send: "receive KIND from N"
//	drop                  on the receiver, not merged (nothing reached it): "KIND from N lost
//	                      on arrival: crashed"
//	timer                 on the node: "timer NAME"
//	state                 on the node: its new status ("→ ★ leader", "→ ● follower of 5")
//	crash, recover,       on each node named: the action word
//	pause, resume, elect
//	partition, cut, heal, on the host "scenario": the action
//	delay, drop, say,
//	break
//
// Each description ends with the acting node's note, if any.
func ShiViz(w io.Writer, recs []sim.Record, o Options) error {
	v := newView(recs, &o)
	hosts := make([]string, 0, len(v.ids)+1)
	index := map[algo.ID]int{}
	for i, id := range v.ids {
		index[id] = i
		hosts = append(hosts, "n"+strconv.Itoa(int(id)))
	}
	scenario := len(hosts)
	hosts = append(hosts, ShiVizScenario)
	clocks := make([][]int, len(hosts))
	for i := range clocks {
		clocks[i] = make([]int, len(hosts))
	}
	sent := map[*dgMsg][]int{} // the clock of each send event

	var b strings.Builder
	b.WriteString(ShiVizRegexp + "\n\n")
	event := func(h int, at string, text, note string, merge []int) []int {
		c := clocks[h]
		for i, x := range merge {
			c[i] = max(c[i], x)
		}
		c[h]++
		b.WriteString(at)
		b.WriteString("ms ")
		b.WriteString(clean(text))
		if note != "" {
			b.WriteString(" · ")
			b.WriteString(clean(note))
		}
		b.WriteString("\n")
		b.WriteString(hosts[h])
		b.WriteString(" {")
		first := true
		for i, x := range c {
			if x == 0 {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(strconv.Quote(hosts[i]))
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(x))
		}
		b.WriteString("}\n")
		return c
	}
	host := func(id algo.ID) (int, bool) {
		h, ok := index[id]
		return h, ok
	}
	for _, it := range v.items {
		r := &recs[it.i]
		at := fmtMS(r.At)
		switch r.Type {
		case sim.RecBoot:
			if h, ok := host(r.Node); ok {
				event(h, at, "boot", r.Note, nil)
			}
		case sim.RecSend:
			h, ok := host(r.Msg.From)
			if !ok {
				continue
			}
			text := "send " + r.Msg.Label() + " to " + strconv.Itoa(int(r.Msg.To))
			switch m := it.msg; {
			case m.lostAtSend(recs):
				text += " (lost at send: " + r.Reason.String() + ")"
			case m.end < 0:
				text += " (still in flight at the end)"
			case recs[m.end].Type == sim.RecDrop:
				e := &recs[m.end]
				text += " (lost on arrival at " + fmtMS(e.At) + "ms: " + e.Reason.String() + ")"
			}
			c := event(h, at, text, r.Note, nil)
			sent[it.msg] = append([]int(nil), c...)
		case sim.RecDeliver:
			if h, ok := host(r.Msg.To); ok {
				event(h, at, "receive "+r.Msg.Label()+" from "+strconv.Itoa(int(r.Msg.From)), r.Note, sent[it.msg])
			}
		case sim.RecDrop:
			if h, ok := host(r.Msg.To); ok {
				event(h, at, r.Msg.Label()+" from "+strconv.Itoa(int(r.Msg.From))+" lost on arrival: "+r.Reason.String(), r.Note, nil)
			}
		case sim.RecTimer:
			if h, ok := host(r.Node); ok {
				event(h, at, "timer "+r.Timer, r.Note, nil)
			}
		case sim.RecState:
			if h, ok := host(r.Node); ok {
				event(h, at, "→ "+statusText(r, o.Algorithm), r.Note, nil)
			}
		case sim.RecFault:
			switch r.Action.Op {
			case sim.Crash, sim.Recover, sim.Pause, sim.Resume, sim.Elect:
				for _, id := range r.Action.Nodes {
					if h, ok := host(id); ok {
						event(h, at, r.Action.Op.String(), r.Note, nil)
					}
				}
			default:
				event(scenario, at, r.Action.String(), r.Note, nil)
			}
		case sim.RecSay:
			event(scenario, at, "say: "+r.Action.Text, "", nil)
		case sim.RecBreak:
			event(scenario, at, "break: stop here and ask the class", "", nil)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
