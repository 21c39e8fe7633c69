package report

import (
	"fmt"
	"io"
	"strings"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/sim"
)

// WriteSummary writes the summary of a finished run (the heading "Summary — ..." and a row a
// topic: stopped early, leader, unfinished (an election still in flight at the end), nodes,
// messages by kind, elections, timing, recoveries, properties, violations), as electsim run
// prints it after the timeline.
func WriteSummary(w io.Writer, p Palette, sum sim.Summary) {
	fmt.Fprintln(w, p.Heading(fmt.Sprintf("Summary — %s, %s, %s of virtual time, %s",
		sum.Algorithm, human.Plural(len(sum.IDs), "node"), human.Duration(sum.End), human.Plural(sum.Steps, "step"))))
	row := func(label, text string) { fmt.Fprintf(w, "  %-12s %s\n", label, text) }
	v := Judge(sum, nil)
	if v.Halted != "" {
		// First: everything below is of a run cut short, not of the run asked for.
		row("stopped", p.Red("early, at "+human.Duration(sum.End))+": "+v.Halted)
	}
	switch {
	case v.Leader != 0:
		row("leader", p.Status(sim.Leader, "★ "+ID(v.Leader))+" — every live node names it")
	case v.AllCrashed:
		row("leader", p.Red("none")+" — every node is crashed")
	default:
		row("leader", p.Red("none agreed")+" — the live nodes do not all name one live leader")
	}
	if v.Unfinished > 0 {
		row("unfinished", fmt.Sprintf("the run ended at %s with %s of the election still in flight: give it more "+
			"virtual time (--run 1m, or `run 1m` in a scenario)",
			human.Duration(sum.End), human.Plural(int(v.Unfinished), "message")))
	}
	row("nodes", nodesLine(p, sum.Nodes))
	writeMessages(row, p, sum)
	row("elections", fmt.Sprintf("a node became a candidate %s · a leader %s",
		human.Plural(sum.Elections, "time"), human.Plural(sum.LeaderChanges, "time")))
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
	for i, line := range GroupsLines(sum.Groups, sum.Halted == "") {
		label := ""
		if i == 0 {
			label = "groups"
		}
		row(label, line)
	}
	row("properties", strings.Join(v.PropertyMarks(p), "   "))
	for i, vi := range v.Violations {
		label := ""
		if i == 0 {
			label = "violations"
		}
		row(label, p.Red(vi.String()))
	}
}

// electionInFlight counts the messages in flight at the end of a run, its routine ones
// (heartbeats) aside: an election still under way.
func electionInFlight(sum sim.Summary) int64 {
	info, err := algo.Lookup(sum.Algorithm)
	var n int64
	for i, k := range sum.Kinds {
		if err == nil && info.IsRoutine(k) {
			continue
		}
		n += sum.Sent[i] - sum.Delivered[i] - sum.Dropped[i]
	}
	return n
}

// writeMessages writes the table of messages by kind: sent, delivered, dropped, in flight.
func writeMessages(row func(label, text string), p Palette, sum sim.Summary) {
	width := len("kind")
	for _, k := range sum.Kinds {
		width = max(width, len(k))
	}
	row("messages", p.Dim(fmt.Sprintf("%-*s %9s %10s %8s %10s", width, "kind", "sent", "delivered", "dropped", "in flight")))
	for i, k := range sum.Kinds {
		inFlight := sum.Sent[i] - sum.Delivered[i] - sum.Dropped[i]
		row("", fmt.Sprintf("%-*s %9d %10d %8d %10d", width, k, sum.Sent[i], sum.Delivered[i], sum.Dropped[i], inFlight))
	}
}

// nodesLine lists every node's status and leader — or, for a big cluster, how many nodes are
// in each state.
func nodesLine(p Palette, nodes []sim.NodeView) string {
	if len(nodes) <= 16 {
		var parts []string
		for _, n := range nodes {
			parts = append(parts, p.Status(n.Status, ID(n.ID)+" "+nodeState(n)))
		}
		return strings.Join(parts, "  ")
	}
	count := map[string]int{}
	var order []string
	status := map[string]sim.Status{}
	for _, n := range nodes {
		d := nodeState(n)
		if n.Status == sim.Leader {
			d = "leader " + ID(n.ID)
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

// nodeState writes a node's state for the summary: "follower→5 t2", "crashed", "(lock
// service)→3".
func nodeState(n sim.NodeView) string {
	s := n.Status.String()
	if n.Role != "" && n.Status != sim.Crashed && n.Status != sim.Paused {
		s = "(" + n.Role + ")"
		if n.Leader != 0 {
			s += "→" + ID(n.Leader)
		}
		return s
	}
	switch n.Status {
	case sim.Crashed, sim.Leader:
	default:
		if n.Leader != 0 {
			s += "→" + ID(n.Leader)
		} else {
			s += "→?"
		}
	}
	if n.Term != 0 {
		s += fmt.Sprintf(" t%d", n.Term)
	}
	return s
}
