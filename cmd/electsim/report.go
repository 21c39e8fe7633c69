package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// report prints the human summary of a finished run.
func report(w io.Writer, p palette, cfg sim.Config, sum sim.Summary) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.heading(fmt.Sprintf("Summary — %s, %d nodes, %s of virtual time, %d steps",
		sum.Algorithm, len(sum.IDs), fmtDur(sum.End), sum.Steps)))
	row := func(label, text string) { fmt.Fprintf(w, "  %-12s %s\n", label, text) }

	if sum.Leader != 0 {
		row("leader", p.status(sim.Leader, "★ "+id(sum.Leader))+" — every live node names it")
	} else {
		row("leader", p.red("none agreed")+" — the live nodes do not all name one live leader")
	}
	var nodes []string
	for _, n := range sum.Nodes {
		s := id(n.ID) + " " + n.Status.String()
		if n.Status != sim.Crashed && n.Status != sim.Leader {
			if n.Leader != 0 {
				s += "→" + id(n.Leader)
			} else {
				s += "→?"
			}
		}
		if n.Term != 0 {
			s += fmt.Sprintf(" t%d", n.Term)
		}
		nodes = append(nodes, p.status(n.Status, s))
	}
	row("nodes", strings.Join(nodes, "  "))

	width := len("kind")
	for _, k := range sum.Kinds {
		width = max(width, len(k))
	}
	row("messages", p.dim(fmt.Sprintf("%-*s %9s %10s %8s", width, "kind", "sent", "delivered", "dropped")))
	for i, k := range sum.Kinds {
		row("", fmt.Sprintf("%-*s %9d %10d %8d", width, k, sum.Sent[i], sum.Delivered[i], sum.Dropped[i]))
	}
	row("elections", fmt.Sprintf("%d started · a node became leader %s", sum.Elections, plural(sum.LeaderChanges, "time")))
	first := "never"
	if sum.FirstLeader >= 0 {
		first = fmtDur(sum.FirstLeader)
	}
	row("timing", fmt.Sprintf("first agreed leader at %s · leaderless %s · split brain %s",
		first, fmtDur(sum.Leaderless), fmtDur(sum.SplitBrain)))
	if len(sum.Recoveries) > 0 {
		var r []string
		for _, d := range sum.Recoveries {
			r = append(r, fmtDur(d))
		}
		row("recovery", "after a leader crash, a new leader was agreed in "+strings.Join(r, ", "))
	}
	var props []string
	for _, pr := range sum.Properties {
		switch {
		case !pr.Applies:
			props = append(props, p.dim("– "+pr.Name+" (no terms)"))
		case pr.Holds:
			props = append(props, p.green("✓ "+pr.Name))
		default:
			props = append(props, p.red("✗ "+pr.Name))
		}
	}
	row("properties", strings.Join(props, "   "))
	for i, v := range sum.Violations {
		label := ""
		if i == 0 {
			label = "violations"
		}
		row(label, p.red(v.String()))
	}
}

// fmtDur writes a virtual duration in milliseconds, or seconds from 10s up: "61.2ms", "2s".
func fmtDur(d time.Duration) string {
	if d == 0 {
		return "0ms"
	}
	if d%time.Millisecond == 0 {
		return algo.FormatDuration(d)
	}
	s := strconv.FormatFloat(float64(d)/1e6, 'f', 3, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + "ms"
}

// plural writes "1 time" or "3 times".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
