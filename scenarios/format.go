package scenarios

import (
	"fmt"
	"strconv"
	"strings"

	"electsim/algo"
	"electsim/sim"
)

// maxInline is the most text Format writes a file's graph in: half of what a scenario file may
// hold (MaxFileSize), some 250,000 edges. A bigger file's graph is written as the file's name.
const maxInline = MaxFileSize / 2

// inlineFits reports whether edges written in take at most maxInline bytes.
func inlineFits(edges [][2]algo.ID) bool {
	n := 0
	for _, e := range edges {
		n += digits(e[0]) + digits(e[1]) + 2
		if n > maxInline {
			return false
		}
	}
	return true
}

// digits is how many digits id is written in.
func digits(id algo.ID) int { return len(strconv.Itoa(int(id))) }

// Format writes s as a canonical scenario file: every directive, one per line, then the
// actions, then the expectations. Comments are not kept. Parse(Format(s)) equals s — but for a
// scenario whose `topology file:PATH` Load read: its graph is written as its edges (`topology
// edges 1-2 …`), so that the text runs the same without the file, and parses back as that —
// unless they would take more than half of what a scenario file may hold.
func Format(s *Scenario) string {
	var b strings.Builder
	line := func(directive, value string) { fmt.Fprintf(&b, "%-7s %s\n", directive, value) }
	if s.Title != "" {
		line("title", formatText(s.Title))
	}
	line("algo", s.Algorithm)
	if s.Contig {
		line("nodes", strconv.Itoa(len(s.IDs)))
	} else {
		ids := make([]string, len(s.IDs))
		for i, id := range s.IDs {
			ids[i] = strconv.Itoa(int(id))
		}
		line("ids", strings.Join(ids, " "))
	}
	line("seed", strconv.FormatUint(s.Seed, 10))
	line("delay", s.Delay.String())
	line("drop", sim.FormatPercent(s.Drop))
	fifo := "on"
	if !s.FIFO {
		fifo = "off"
	}
	line("fifo", fifo)
	switch {
	case s.Topology != "" && s.Edges != nil && (s.Topology == algo.EdgeList || inlineFits(s.Edges)):
		formatEdges(line, s.Edges) // a file's, once read, too: the text stands without the file
	case s.Topology != "":
		line("topology", s.Topology)
	}
	if info, err := s.Info(); err == nil {
		for _, p := range s.Params {
			param, _ := info.Param(p.Key)
			line("set", p.Key+" "+algo.FormatValue(param.Kind, p.Value))
		}
	}
	for _, d := range s.Draws {
		points := make([]string, len(d.Points))
		for i, p := range d.Points {
			points[i] = p.String()
		}
		line("draws", strconv.Itoa(int(d.Node))+" "+strings.Join(points, " "))
	}
	line("run", algo.FormatDuration(s.RunFor))
	if len(s.Actions) > 0 {
		b.WriteString("\n")
	}
	for _, a := range s.Actions {
		fmt.Fprintf(&b, "at %-7s %s\n", FormatWhen(a.Action), a.Action)
	}
	if len(s.Expects) > 0 {
		b.WriteString("\n")
	}
	for _, e := range s.Expects {
		b.WriteString(e.String() + "\n")
	}
	return b.String()
}

// formatText writes a title as it reads back: bare, or quoted when it would not survive bare.
func formatText(s string) string {
	if s != strings.TrimSpace(s) || strings.ContainsAny(s, "#\"\n\r") || strings.HasPrefix(s, "\"") {
		return strconv.Quote(s)
	}
	return s
}
