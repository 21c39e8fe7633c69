package diagram

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"

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
	if err := ShiVizFits(len(v.ids)); err != nil {
		return err
	}
	entries := int64(len(hosts)) * int64(len(hosts)) // held or written so far
	clocks := make([][]int32, len(hosts))
	for i := range clocks {
		clocks[i] = make([]int32, len(hosts))
	}
	// A send's clock is its host's at the send: the host's clock as of its last receive (a
	// copy shared by every send since, made at the first of them) with the host's own entry
	// counted on. Sends between two receives share one copy, so a node that broadcasts keeps
	// one copy, not one a message.
	type sendClock struct {
		base []int32
		host int
		own  int32
	}
	snapshot := make([][]int32, len(hosts)) // each host's copy since its last receive, if made
	sent := map[*dgMsg]sendClock{}          // the messages on their way
	overBudget := false

	b := bufio.NewWriter(w)
	b.WriteString(ShiVizRegexp + "\n\n")
	event := func(h int, at string, text, note string, merge *sendClock) []int32 {
		c := clocks[h]
		if merge != nil {
			for i, x := range merge.base {
				if i == merge.host {
					x = merge.own
				}
				c[i] = max(c[i], x)
			}
			snapshot[h] = nil
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
			b.WriteString(strconv.Itoa(int(x)))
			entries++
		}
		b.WriteString("}\n")
		overBudget = overBudget || entries > ShiVizMaxEntries
		return c
	}
	send := func(h int) sendClock {
		if snapshot[h] == nil {
			snapshot[h] = slices.Clone(clocks[h])
			entries += int64(len(hosts))
		}
		return sendClock{base: snapshot[h], host: h, own: clocks[h][h]}
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
			event(h, at, text, r.Note, nil)
			if m := it.msg; !m.lostAtSend(recs) && m.end >= 0 && recs[m.end].Type == sim.RecDeliver {
				sent[m] = send(h) // only a delivery merges it
			}
		case sim.RecDeliver:
			if h, ok := host(r.Msg.To); ok {
				sc, ok := sent[it.msg]
				var merge *sendClock
				if ok {
					merge = &sc
				}
				delete(sent, it.msg)
				event(h, at, "receive "+r.Msg.Label()+" from "+strconv.Itoa(int(r.Msg.From)), r.Note, merge)
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
		if overBudget {
			return shivizTooBig(len(v.ids))
		}
	}
	return b.Flush()
}

// ShiVizMaxEntries bounds a ShiViz log: the vector-clock entries it writes and holds, some 10
// bytes each in the file — 200 MB or so, far more than ShiViz itself can show.
const ShiVizMaxEntries = 20_000_000

// ShiVizFits returns an error, saying why, when a ShiViz log of a run among nodes is bound to
// go over ShiVizMaxEntries: when their clocks alone would, a clock of every host (the nodes
// and the scenario) for each. A caller can ask before the run.
func ShiVizFits(nodes int) error {
	if shivizClocks(nodes) > ShiVizMaxEntries {
		return shivizTooBig(nodes)
	}
	return nil
}

func shivizClocks(nodes int) int64 { return int64(nodes+1) * int64(nodes+1) }

// shivizTooBig is ShiViz's error for a log over its budget.
func shivizTooBig(nodes int) error {
	if shivizClocks(nodes) > ShiVizMaxEntries {
		most := 1
		for shivizClocks(most+1) <= ShiVizMaxEntries {
			most++
		}
		return fmt.Errorf("a ShiViz log of %d nodes keeps a vector clock of %d entries for each of them, more than the %d entries a log may hold: it can show at most %d nodes (ShiViz itself shows a few dozen well)",
			nodes, nodes+1, ShiVizMaxEntries, most)
	}
	return fmt.Errorf("the ShiViz log would hold more than %d vector-clock entries, some %d MB: show less of the run — a part of it (--from, --to) or fewer message kinds (--kinds)",
		ShiVizMaxEntries, ShiVizMaxEntries*10>>20)
}
