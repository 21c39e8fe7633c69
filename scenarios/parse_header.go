package scenarios

import (
	"fmt"
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
	case algo.EdgeList:
		if _, ok := p.seen[algo.EdgeList]; !ok {
			p.seen[algo.EdgeList] = lp.line
		}
		p.edges(lp)
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
		v := lp.word("a topology (" + topologyNames() + ")")
		if v != nil && p.once(lp, t) {
			if err := algo.CheckTopology(v.text); err != nil {
				lp.fail(v, "%v", strings.Replace(err.Error(), strings.Join(algo.TopologyNames(), ", "), topologyNames(), 1))
				return false
			}
			sc.Topology, sc.topologyAt = v.text, place{p.file, lp.line, v.col}
			if v.text == algo.EdgeList {
				p.edges(lp)
			}
		}
		lp.end()
	}
	return true
}

// topologyNames lists the topologies a scenario's topology line takes, for errors.
func topologyNames() string {
	return strings.Join(algo.TopologyNames(), ", ") + ", edges A-B …"
}

// edges reads the edges of a graph given as data, to the end of the line: `topology edges 1-2
// 2-3` and the `edges 3-4 4-1` lines that add to it. Each is two node ids joined by '-', apart
// from the next by spaces or a comma. Which nodes there are is checked once every line is read
// (checkEdges): the nodes line may come after.
func (p *fileParser) edges(lp *parser) {
	for {
		t := lp.next()
		if t == nil {
			return
		}
		if t.kind == tComma {
			continue
		}
		if t.kind != tWord {
			lp.fail(t, "expected an edge such as 1-2, got %q", t.text)
			return
		}
		a, b, ok := strings.Cut(t.text, "-")
		switch {
		case strings.Contains(t.text, "->"):
			lp.fail(t, "expected an edge such as 1-2, got %q: an edge joins two nodes both ways; write it with -", t.text)
			return
		case !ok || !isID(a) || !isID(b):
			lp.fail(t, "expected an edge such as 1-2 (two node ids joined by -), got %q", t.text)
			return
		}
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		if x == y {
			lp.fail(t, "the edge %s joins a node to itself", t.text)
			return
		}
		p.sc.Edges = append(p.sc.Edges, [2]algo.ID{algo.ID(x), algo.ID(y)})
		p.sc.edgeAt = append(p.sc.edgeAt, place{p.file, lp.line, t.col})
	}
}

// checkEdges reports, at their places, the edges of a graph given as data that name nodes not
// in the run; `edges` lines without `topology edges`; and `topology edges` without edges.
func (p *fileParser) checkEdges(members *Members) {
	sc := p.sc
	if sc.Topology != algo.EdgeList {
		if line, ok := p.seen[algo.EdgeList]; ok && !p.broken["topology"] {
			p.errs = append(p.errs, &Error{Line: line, Col: 1,
				Msg: "an edges line adds edges to topology edges: write topology edges first (topology edges 1-2 2-3)"})
		}
		return
	}
	if len(sc.Edges) == 0 {
		p.errs = append(p.errs, &Error{Line: sc.topologyAt.line, Col: sc.topologyAt.col,
			Msg: "topology edges needs its edges: write them after it, two node ids joined by - (topology edges 1-2 2-3 3-1)"})
		return
	}
	if members == nil {
		return
	}
	for i, e := range sc.Edges {
		for k, id := range e {
			if members.have[id] {
				continue
			}
			at := sc.edgeAt[i]
			col := at.col
			if k == 1 {
				col += len(strconv.Itoa(int(e[0]))) + 1
			}
			msg := fmt.Sprintf("unknown node %d (nodes are %s)", id, members)
			if members.by != "" {
				msg = fmt.Sprintf("unknown node %d (nodes are %s, set by %s)", id, members, members.by)
			}
			p.errs = append(p.errs, &Error{Line: at.line, Col: col, Msg: msg})
			break
		}
	}
}
