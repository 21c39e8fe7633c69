package diagram

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"

	"electsim/algo"
	"electsim/report"
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
	if err := ShiVizFits(len(v.ids)); err != nil {
		return err
	}
	l := newShivizLog(w, v)
	l.b.WriteString(ShiVizRegexp + "\n\n")
	for _, it := range v.items {
		l.item(it)
		if l.over {
			return shivizTooBig(len(v.ids))
		}
	}
	return l.b.Flush()
}

// shivizLog writes one ShiViz log: the hosts' vector clocks, and the events as they come.
type shivizLog struct {
	b        *bufio.Writer
	v        *dgView
	hosts    []string // "n1", "n2", ..., and last ShiVizScenario
	index    map[algo.ID]int
	clocks   [][]int32
	snapshot [][]int32             // each host's copy of its clock since its last receive, if made
	sent     map[*dgMsg]shivizSend // the messages on their way
	entries  int64                 // vector-clock entries held or written so far
	over     bool                  // an event found entries over ShiVizMaxEntries
}

// shivizSend is a send's clock: its host's clock as of its last receive (a copy shared by
// every send since, made at the first of them) with the host's own entry counted on. Sends
// between two receives share one copy, so a node that broadcasts keeps one copy, not one a
// message.
type shivizSend struct {
	base []int32
	host int
	own  int32
}

func newShivizLog(w io.Writer, v *dgView) *shivizLog {
	l := &shivizLog{b: bufio.NewWriter(w), v: v, index: map[algo.ID]int{}, sent: map[*dgMsg]shivizSend{}}
	for i, id := range v.ids {
		l.index[id] = i
		l.hosts = append(l.hosts, "n"+strconv.Itoa(int(id)))
	}
	l.hosts = append(l.hosts, ShiVizScenario)
	l.entries = int64(len(l.hosts)) * int64(len(l.hosts))
	l.clocks = make([][]int32, len(l.hosts))
	for i := range l.clocks {
		l.clocks[i] = make([]int32, len(l.hosts))
	}
	l.snapshot = make([][]int32, len(l.hosts))
	return l
}

// scenario is the host of the events no node takes part in.
func (l *shivizLog) scenario() int { return len(l.hosts) - 1 }

// event writes an event of host h at time at — its text and the acting node's note — with the
// host's clock counted on, after taking in the clock of the send it receives (merge), if any.
func (l *shivizLog) event(h int, at string, text, note string, merge *shivizSend) {
	c := l.clocks[h]
	if merge != nil {
		for i, x := range merge.base {
			if i == merge.host {
				x = merge.own
			}
			c[i] = max(c[i], x)
		}
		l.snapshot[h] = nil
	}
	c[h]++
	b := l.b
	b.WriteString(at)
	b.WriteString("ms ")
	b.WriteString(clean(text))
	if note != "" {
		b.WriteString(" · ")
		b.WriteString(clean(note))
	}
	b.WriteString("\n")
	b.WriteString(l.hosts[h])
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
		b.WriteString(strconv.Quote(l.hosts[i]))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(int(x)))
		l.entries++
	}
	b.WriteString("}\n")
	l.over = l.over || l.entries > ShiVizMaxEntries
}

// send returns the clock of a send by host h now.
func (l *shivizLog) send(h int) shivizSend {
	if l.snapshot[h] == nil {
		l.snapshot[h] = slices.Clone(l.clocks[h])
		l.entries += int64(len(l.hosts))
	}
	return shivizSend{base: l.snapshot[h], host: h, own: l.clocks[h][h]}
}

// item writes the event of one record shown (see ShiViz for which host takes it).
func (l *shivizLog) item(it dgItem) {
	recs := l.v.recs
	r := &recs[it.i]
	at := fmtMS(r.At)
	host := func(id algo.ID) (int, bool) {
		h, ok := l.index[id]
		return h, ok
	}
	switch r.Type {
	case sim.RecBoot:
		if h, ok := host(r.Node); ok {
			l.event(h, at, "boot", r.Note, nil)
		}
	case sim.RecSend:
		l.sendEvent(it, at)
	case sim.RecDeliver:
		if h, ok := host(r.Msg.To); ok {
			var merge *shivizSend
			if sc, ok := l.sent[it.msg]; ok {
				merge = &sc
			}
			delete(l.sent, it.msg)
			l.event(h, at, "receive "+report.Label(r.Msg, l.v.o.Algorithm)+" from "+strconv.Itoa(int(r.Msg.From)), r.Note, merge)
		}
	case sim.RecDrop:
		if h, ok := host(r.Msg.To); ok {
			l.event(h, at, report.Label(r.Msg, l.v.o.Algorithm)+" from "+strconv.Itoa(int(r.Msg.From))+" lost on arrival: "+r.Reason.String(), r.Note, nil)
		}
	case sim.RecTimer:
		if h, ok := host(r.Node); ok {
			l.event(h, at, "timer "+r.Timer, r.Note, nil)
		}
	case sim.RecState:
		if h, ok := host(r.Node); ok {
			l.event(h, at, "→ "+statusText(r, l.v.o.Algorithm), r.Note, nil)
		}
	case sim.RecFault:
		switch r.Action.Op {
		case sim.Crash, sim.Recover, sim.Pause, sim.Resume, sim.Elect, sim.Clock:
			what := r.Action.Op.String()
			if r.Action.Op == sim.Clock {
				what += " rate " + sim.FormatRate(r.Action.Rate)
			}
			for _, id := range r.Action.Nodes {
				if h, ok := host(id); ok {
					l.event(h, at, what, r.Note, nil)
				}
			}
		default:
			l.event(l.scenario(), at, r.Action.String(), r.Note, nil)
		}
	case sim.RecSay:
		l.event(l.scenario(), at, "say: "+r.Action.Text, "", nil)
	case sim.RecBreak:
		l.event(l.scenario(), at, "break: stop here and ask the class", "", nil)
	}
}

// sendEvent writes a send on its sender, with the message's fate when it is not delivered, and
// keeps its clock for the delivery to merge.
func (l *shivizLog) sendEvent(it dgItem, at string) {
	recs := l.v.recs
	r := &recs[it.i]
	h, ok := l.index[r.Msg.From]
	if !ok {
		return
	}
	text := "send " + report.Label(r.Msg, l.v.o.Algorithm) + " to " + strconv.Itoa(int(r.Msg.To))
	switch m := it.msg; {
	case m.lostAtSend(recs):
		text += " (lost at send: " + r.Reason.String() + ")"
	case m.end < 0:
		text += " (still in flight at the end)"
	case recs[m.end].Type == sim.RecDrop:
		e := &recs[m.end]
		text += " (lost on arrival at " + fmtMS(e.At) + "ms: " + e.Reason.String() + ")"
	}
	l.event(h, at, text, r.Note, nil)
	if m := it.msg; !m.lostAtSend(recs) && m.end >= 0 && recs[m.end].Type == sim.RecDeliver {
		l.sent[m] = l.send(h) // only a delivery merges it
	}
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
