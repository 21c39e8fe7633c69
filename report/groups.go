package report

import (
	"fmt"
	"strings"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/sim"
)

// maxMembers is how many members of a group GroupsText lists before it says how many in all.
const maxMembers = 12

// GroupsText writes the groups of an algorithm of groups at one moment: "2 groups: {1 2 3}
// led by 3, {4 5} led by 5", with the nodes between groups: "; 4 joining a group".
func GroupsText(g sim.GroupsAt) string {
	var parts []string
	for _, gr := range g.Groups {
		s := "{" + members(gr.Members) + "} "
		if gr.Led {
			s += "led by " + ID(gr.Coordinator)
		} else {
			s += fmt.Sprintf("naming %s, which does not lead it", ID(gr.Coordinator))
		}
		parts = append(parts, s)
	}
	s := human.Plural(len(g.Groups), "group")
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	if len(g.Joining) > 0 {
		verb := "are"
		if len(g.Joining) == 1 {
			verb = "is"
		}
		s += fmt.Sprintf("; {%s} %s forming or joining a group", members(g.Joining), verb)
	}
	return s
}

// GroupsLines writes each moment of a run's groups (sim.Summary's Groups): "at 1.5s, before
// heal: 2 groups: …", the last "at the end, 3s: 1 group: …" once the run is over, or "now".
func GroupsLines(groups []sim.GroupsAt, over bool) []string {
	var lines []string
	for i, g := range groups {
		when := "at " + human.Duration(g.At)
		switch {
		case g.Before != "":
			when += ", before " + g.Before
		case i == len(groups)-1 && over:
			when = "at the end, " + human.Duration(g.At)
		case i == len(groups)-1:
			when = "now, " + human.Duration(g.At)
		}
		lines = append(lines, when+": "+GroupsText(g))
	}
	return lines
}

// members writes ids separated by spaces, the first maxMembers of them and how many in all.
func members(ids []algo.ID) string {
	n := min(len(ids), maxMembers)
	parts := make([]string, n)
	for i := range n {
		parts[i] = ID(ids[i])
	}
	s := strings.Join(parts, " ")
	if len(ids) > maxMembers {
		s += " … (" + human.Thousands(int64(len(ids))) + " in all)"
	}
	return s
}
