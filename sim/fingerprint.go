package sim

import (
	"encoding/binary"
	"math"
	"slices"
	"time"

	"electsim/network"
)

// AppendState appends to b an encoding of the whole run's state between two steps — what can
// change what the run does from now on — and returns the extended slice. Two runs of one
// Config whose encodings are equal, even at different times now, go on alike: the same inputs
// reach the same nodes after the same delays, with the same faults applied they do the same,
// and a property either breaks in both or in neither. An explorer fingerprints each state it
// reaches with it, to explore each once (docs/properties.md, "Exhaustive exploration").
//
// It holds, times relative to now: every node's status and state (Node.AppendState), stable
// storage and random source; every input to come, in the order it will come — messages in
// flight (every field, and whether a crash of the receiver has lost it), timers (by name),
// boots, elections, the scenario's actions (one that waits for inputs of its instant with how
// many more it waits for) — with the class that orders it among inputs of the
// same instant; what paused nodes hold; the network (algo-independent: partition, cuts,
// delays, losses, FIFO waits) and, when it draws, its random source; the delays chosen at this
// instant (ChooseDelays), while the instant goes on, and the links a fault holds at a delay; the monitors' memory that judges what is
// to come (the leaders of past terms, a split brain under way, the algorithm's own watchers).
// Not in it: the step count, the metrics, violations already recorded, the trace.
func (s *Sim) AppendState(b []byte) []byte {
	now := s.now
	b = appendBool(b, s.done)
	for i := range s.nodes {
		b = s.appendNode(b, &s.nodes[i])
	}
	b, liveNow := s.appendInputs(b)
	netDraws := s.chooser == nil || len(s.chooser.options) == 0
	b = s.net.AppendState(b, now, s.cluster.Sorted, netDraws)
	if netDraws || s.net.Lossy() {
		b, _ = s.netRand.pcg.AppendBinary(b)
	}
	if c := s.chooser; c != nil {
		if liveNow && c.at == now {
			b = binary.AppendUvarint(b, uint64(len(c.memo)))
			for _, m := range c.memo {
				b = binary.AppendUvarint(b, uint64(m.from))
				b = binary.AppendUvarint(b, uint64(m.to))
				b = append(b, m.opt)
				b = appendBool(b, m.lost)
			}
		} else {
			b = append(b, 0)
		}
		b = binary.AppendUvarint(b, uint64(len(c.held)))
		for _, m := range c.held {
			b = binary.AppendUvarint(b, uint64(m.from))
			b = binary.AppendUvarint(b, uint64(m.to))
			d := s.net.DelayOf(network.Link{From: s.idOf(m.from), To: s.idOf(m.to)})
			b = binary.AppendVarint(b, int64(d.Min))
			b = binary.AppendVarint(b, int64(d.Max))
		}
	}
	return s.appendMonitor(b)
}

// appendNode encodes node n: flags, reported state, the node's own state, its stable storage
// and random source. Its timers are among the inputs.
func (s *Sim) appendNode(b []byte, n *nodeRec) []byte {
	b = appendBool(b, n.down)
	b = appendBool(b, n.paused)
	b = append(b, byte(n.last.Status))
	b = binary.AppendVarint(b, int64(n.last.Leader))
	b = binary.AppendUvarint(b, n.last.Term)
	// A drifting clock's rate shapes what the node does next; the node's own times are
	// relative to its own clock's reading, which is what it compares them with.
	rate := 1.0
	if s.clocks != nil && s.clocks[n.idx].rate != 0 {
		rate = s.clocks[n.idx].rate
	}
	b = binary.AppendUvarint(b, math.Float64bits(rate))
	b = appendBool(b, n.node != nil)
	if n.node != nil {
		b = n.node.AppendState(b, s.localNow(n.idx))
	}
	if s.side == nil {
		return append(b, 0, 0, 0)
	}
	side := &s.side[n.idx]
	keys := make([]string, 0, len(side.disk))
	for k := range side.disk {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = binary.AppendUvarint(b, uint64(len(keys)))
	for _, k := range keys {
		b = appendString(b, k)
		b = binary.AppendUvarint(b, side.disk[k])
	}
	// With draws chosen (ChooseDraws) a draw leaves the source alone: an algorithm that
	// takes its source (Env.Rand) still has it here.
	b = appendBool(b, side.rng != nil)
	if side.rng != nil {
		b, _ = side.rng.pcg.AppendBinary(b)
	}
	return appendPinned(b, side.pinned)
}

// input is an input to come, for the encoding: when, its ordinal, and what.
type input struct {
	at   time.Duration
	ord  uint64
	e    event // timers: node and slot only
	held bool  // held by a paused node: at and ord mean nothing
}

// appendInputs encodes the inputs to come in the order they will come: the queue's, with each
// timer taken from its slot (the queued event of a timer reset since may be early or stale),
// then what each paused node holds, in order. It reports whether an input comes at this very
// instant (a stale timer's event in the queue does not count: it is skipped).
func (s *Sim) appendInputs(b []byte) ([]byte, bool) {
	var in []input
	s.q.each(func(k qkey) {
		if e := s.q.event(k.idx); e.kind != evTimer {
			in = append(in, input{at: k.at, ord: k.ord, e: *e})
		}
	})
	for i := range s.nodes {
		n := &s.nodes[i]
		if n.down {
			continue
		}
		for slot := range int32(len(s.timerNames)) {
			if ts := s.timer(n, slot); ts.armed {
				in = append(in, input{at: ts.deadline, ord: ts.ord, e: event{kind: evTimer, node: n.idx, which: slot}})
			}
		}
	}
	slices.SortFunc(in, func(x, y input) int {
		switch {
		case before(x.at, x.ord, y.at, y.ord):
			return -1
		case before(y.at, y.ord, x.at, x.ord):
			return 1
		}
		return 0
	})
	if s.side != nil {
		for i := range s.side {
			for _, idx := range s.side[i].held {
				in = append(in, input{e: *s.q.event(idx), held: true})
			}
		}
	}
	b = binary.AppendUvarint(b, uint64(len(in)))
	for i := range in {
		b = s.appendInput(b, &in[i])
	}
	// The actions that wait for inputs of their instant: when, and how many inputs more.
	b = binary.AppendUvarint(b, uint64(len(s.mid)))
	for _, i := range s.mid {
		a := &s.actions[i]
		b = binary.AppendVarint(b, int64(a.At-s.now))
		b = binary.AppendUvarint(b, uint64(max(a.After-s.InputsAt(a.At), 0)))
		b = appendString(b, a.String())
	}
	return b, len(in) > 0 && !in[0].held && in[0].at == s.now || len(s.mid) > 0 && s.actions[s.mid[0]].At == s.now
}

func (s *Sim) appendInput(b []byte, in *input) []byte {
	e := &in.e
	b = append(b, byte(e.kind))
	b = appendBool(b, in.held)
	if !in.held {
		b = binary.AppendVarint(b, int64(in.at-s.now))
		b = appendBool(b, in.ord&classRuntime != 0)
	}
	b = binary.AppendUvarint(b, uint64(e.node))
	switch e.kind {
	case evDeliver:
		b = s.message(e).AppendTo(b)
		// Lost to a crash of its receiver since it was sent: what is lost only because the
		// receiver is down now reaches it if it recovers first.
		b = appendBool(b, s.epochs[e.node] > e.epoch)
		b = appendBool(b, e.held())
	case evTimer:
		b = appendString(b, s.timerNames[e.which])
		if in.held { // still armed as it was when it came due: it fires on resume
			ts := s.timer(&s.nodes[e.node], e.which)
			b = appendBool(b, ts.armed && ts.gen == e.gen)
		}
	case evAction: // by what it does: the explorer's actions take indices in the order scheduled
		b = appendString(b, s.actions[e.which].String())
	}
	return b
}

// appendMonitor encodes what the monitors remember that judges what is to come.
func (s *Sim) appendMonitor(b []byte) []byte {
	m := &s.monitor
	b = appendBool(b, m.split != nil)
	terms := make([]uint64, 0, len(m.termLeader))
	for t := range m.termLeader {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	b = binary.AppendUvarint(b, uint64(len(terms)))
	for _, t := range terms {
		b = binary.AppendUvarint(b, t)
		b = binary.AppendVarint(b, int64(m.termLeader[t]))
	}
	for _, w := range m.watchers {
		b = w.judge.AppendState(b)
	}
	return b
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendString(b []byte, v string) []byte {
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}
