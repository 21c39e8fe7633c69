package scenarios

import (
	"strconv"
	"strings"

	"electsim/algo"
	"electsim/network"
)

// header reads a directive that describes the run.
func (p *fileParser) header(lp *parser) {
	t := lp.next()
	sc := p.sc
	switch t.text {
	case "title":
		if p.once(lp, t) {
			sc.Title = lp.text()
			if sc.Title == "" && lp.err != nil {
				lp.err.Msg = "expected the scenario's title, such as title Bully: the leader crashes"
			}
		}
	case "algo":
		a := lp.word("an algorithm (" + strings.Join(algo.Names(), ", ") + ")")
		if a != nil && p.once(lp, t) {
			if _, err := algo.Lookup(a.text); err != nil {
				lp.fail(a, "%v", err)
			}
			sc.Algorithm = a.text
		}
	case "nodes":
		n := lp.word("a number of nodes, such as nodes 5")
		if n != nil && p.once(lp, t) {
			v, err := strconv.Atoi(n.text)
			if err != nil || v < 1 || v > MaxNodes {
				lp.fail(n, "expected a number of nodes from 1 to %d, got %q", MaxNodes, n.text)
				return
			}
			sc.IDs, sc.Contig = contiguous(v), true
		}
	case "ids":
		if !p.once(lp, t) {
			return
		}
		ids := lp.nodes("node ids in ring order, such as ids 3 7 1 9 4", map[algo.ID]bool{})
		lp.end()
		switch {
		case lp.err != nil:
		case len(ids) > MaxNodes:
			lp.fail(t, "at most %d nodes", MaxNodes)
		default:
			sc.IDs, sc.Contig = ids, false
		}
	case "seed":
		n := lp.word("a seed, such as seed 42")
		if n != nil && p.once(lp, t) {
			v, err := strconv.ParseUint(n.text, 10, 64)
			if err != nil {
				lp.fail(n, "a seed is a whole number, 0 or more (at most 18446744073709551615), got %q", n.text)
			}
			sc.Seed = v
		}
	case "delay", "drop", "fifo", "topology":
		if !p.network(lp, t) {
			return
		}
	case "run":
		if !p.once(lp, t) {
			return
		}
		d := lp.duration("how much virtual time to simulate, such as run 2s")
		if lp.err == nil && d <= 0 {
			lp.failAt(t.col+len("run")+1, "expected a positive duration, such as run 2s")
		}
		sc.RunFor, p.runLine = d, lp.line
	default:
		lp.fail(t, "unknown directive %q (expected %s)", t.text, directives)
		return
	}
	lp.end()
}

// network reads a header line about the network — delay, drop, fifo, topology — whose
// directive is t; false when the line ended in a mistake that leaves the rest unread.
func (p *fileParser) network(lp *parser, t *token) bool {
	sc := p.sc
	switch t.text {
	case "delay":
		if u := lp.peek(); u != nil && strings.Contains(u.text, "->") {
			lp.fail(u, "the delay of one link is an action: write it as at 0ms delay %s ...", u.text)
			return false
		}
		d := lp.word("a delay such as 10ms or 5ms..15ms")
		if d != nil && p.once(lp, t) {
			lo, hi, err := algo.ParseRange(d.text)
			if err != nil {
				lp.fail(d, "%v", err)
			}
			sc.Delay = network.Delay{Min: lo, Max: hi}
		}
	case "drop":
		if u := lp.peek(); u != nil && strings.Contains(u.text, "->") {
			lp.fail(u, "the loss of one link is an action: write it as at 0ms drop %s ...", u.text)
			return false
		}
		if p.once(lp, t) {
			sc.Drop = lp.percent()
		}
	case "fifo":
		v := lp.word("on or off")
		if v != nil && p.once(lp, t) {
			switch v.text {
			case "on", "off":
				sc.FIFO = v.text == "on"
			default:
				lp.fail(v, "expected on or off, got %q", v.text)
			}
		}
	case "topology":
		v := lp.word("a topology (" + strings.Join(algo.TopologyNames(), ", ") + ")")
		if v != nil && p.once(lp, t) {
			if err := algo.CheckTopology(sc.resolve(v.text)); err != nil {
				lp.fail(v, "%v", err)
				return false
			}
			sc.Topology = v.text
		}
		lp.end()
	}
	return true
}
