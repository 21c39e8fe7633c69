package main

import (
	"fmt"
	"io"
	"strings"

	"electsim/internal/human"
	"electsim/scenarios"
	"electsim/sim"
)

// haltedError is the error of a run that stopped before its end, printed once its report is
// out (exit 2): the run asked for did not happen. It says why — and, when an action could not
// happen (one naming `leader` at an instant when no node led), which line of the scenario, or
// which --at, it was.
func haltedError(sc *scenarios.Scenario, sum sim.Summary) error {
	a := sum.HaltAction
	if a == nil {
		return usagef("the run stopped early, at %s: %s", human.Duration(sum.End), sum.Halted)
	}
	for _, st := range sc.Actions {
		if st.Line > 0 && st.At == a.At && st.Action.String() == a.String() {
			file := sc.File()
			if file == "" {
				file = sc.Name + ".scn"
			}
			return usagef("%s:%d: at %s %s; the run stopped there", file, st.Line, scenarios.FormatTime(a.At), sum.Halted)
		}
	}
	why := strings.TrimPrefix(sum.Halted, a.String()+": ")
	return usagef("--at '%s': %s; the run stopped there", scenarios.FormatAt(*a), why)
}

// report prints the human summary of a finished run.
func printSummary(w io.Writer, p palette, cfg sim.Config, sum sim.Summary) {
	fmt.Fprintln(w, p.Heading(fmt.Sprintf("Summary — %s, %s, %s of virtual time, %s",
		sum.Algorithm, human.Plural(len(sum.IDs), "node"), human.Duration(sum.End), human.Plural(sum.Steps, "step"))))
	row := func(label, text string) { fmt.Fprintf(w, "  %-12s %s\n", label, text) }
	if sum.Halted != "" {
		// First: everything below is of a run cut short, not of the run asked for.
		row("stopped", p.Red("early, at "+human.Duration(sum.End))+": "+sum.Halted)
	}

	live := 0
	for _, n := range sum.Nodes {
		if n.Status != sim.Crashed {
			live++
		}
	}
	switch {
	case sum.Leader != 0:
		row("leader", p.Status(sim.Leader, "★ "+id(sum.Leader))+" — every live node names it")
	case live == 0:
		row("leader", p.Red("none")+" — every node is crashed")
	default:
		row("leader", p.Red("none agreed")+" — the live nodes do not all name one live leader")
	}
	row("nodes", nodesLine(p, sum.Nodes))

	width := len("kind")
	for _, k := range sum.Kinds {
		width = max(width, len(k))
	}
	row("messages", p.Dim(fmt.Sprintf("%-*s %9s %10s %8s %10s", width, "kind", "sent", "delivered", "dropped", "in flight")))
	for i, k := range sum.Kinds {
		inFlight := sum.Sent[i] - sum.Delivered[i] - sum.Dropped[i]
		row("", fmt.Sprintf("%-*s %9d %10d %8d %10d", width, k, sum.Sent[i], sum.Delivered[i], sum.Dropped[i], inFlight))
	}
	row("elections", fmt.Sprintf("a node became a candidate %s · a leader %s", human.Plural(sum.Elections, "time"), human.Plural(sum.LeaderChanges, "time")))
	first := "no leader was ever agreed by every live node"
	if sum.FirstLeader >= 0 {
		first = "first agreed leader at " + human.Duration(sum.FirstLeader)
	}
	row("timing", fmt.Sprintf("%s · no agreed leader for %s in all · two or more leaders for %s",
		first, human.Duration(sum.Leaderless), human.Duration(sum.SplitBrain)))
	if len(sum.Recoveries) > 0 {
		var r []string
		for _, d := range sum.Recoveries {
			r = append(r, human.Duration(d))
		}
		row("recovery", "after a leader crash, a new leader was agreed in "+strings.Join(r, ", "))
	}
	var props []string
	for _, pr := range sum.Properties {
		switch {
		case !pr.Applies:
			props = append(props, p.Dim("– "+pr.Name+" (no terms)"))
		case pr.Holds:
			props = append(props, p.Green("✓ "+pr.Name))
		default:
			props = append(props, p.Red("✗ "+pr.Name))
		}
	}
	row("properties", strings.Join(props, "   "))
	for i, v := range sum.Violations {
		label := ""
		if i == 0 {
			label = "violations"
		}
		row(label, p.Red(v.String()))
	}
}

// nodesLine lists every node's status and leader — or, for a big cluster, how many nodes are
// in each state.
func nodesLine(p palette, nodes []sim.NodeView) string {
	describe := func(n sim.NodeView) string {
		s := n.Status.String()
		if n.Role != "" && n.Status != sim.Crashed && n.Status != sim.Paused {
			s = "(" + n.Role + ")"
			if n.Leader != 0 {
				s += "→" + id(n.Leader)
			}
			return s
		}
		switch n.Status {
		case sim.Crashed, sim.Leader:
		default:
			if n.Leader != 0 {
				s += "→" + id(n.Leader)
			} else {
				s += "→?"
			}
		}
		if n.Term != 0 {
			s += fmt.Sprintf(" t%d", n.Term)
		}
		return s
	}
	if len(nodes) <= 16 {
		var parts []string
		for _, n := range nodes {
			parts = append(parts, p.Status(n.Status, id(n.ID)+" "+describe(n)))
		}
		return strings.Join(parts, "  ")
	}
	count := map[string]int{}
	var order []string
	status := map[string]sim.Status{}
	for _, n := range nodes {
		d := describe(n)
		if n.Status == sim.Leader {
			d = "leader " + id(n.ID)
		}
		if count[d] == 0 {
			order = append(order, d)
			status[d] = n.Status
		}
		count[d]++
	}
	var parts []string
	for _, d := range order {
		parts = append(parts, p.Status(status[d], fmt.Sprintf("%d× %s", count[d], d)))
	}
	return strings.Join(parts, "  ")
}

// reportExpectations prints the verdict on each of the scenario's expectations.
func reportExpectations(w io.Writer, p palette, results []scenarios.Result) {
	if len(results) == 0 {
		return
	}
	hold := 0
	for _, r := range results {
		if r.OK {
			hold++
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.Heading(fmt.Sprintf("Expectations — %d of %d hold", hold, len(results))))
	for _, r := range results {
		mark, text := p.Green("✓"), safe(r.Expectation.String())
		if !r.OK {
			mark = p.Red("✗")
			if r.Detail != "" {
				text += p.Red(" — " + safe(r.Detail))
			}
		}
		fmt.Fprintf(w, "  %s %s  %s\n", mark, p.Dim(fmt.Sprintf("line %-3d", r.Line)), text)
	}
}
