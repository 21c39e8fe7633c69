package report

import (
	"fmt"
	"io"
	"strings"

	"electsim/algo"
	"electsim/internal/safetext"
	"electsim/scenarios"
)

// WriteScenarios lists the bundled scenarios, one a line: its name, its algorithm and its
// title. An error says a bundled scenario does not parse: a bug in electsim.
func WriteScenarios(w io.Writer) error {
	names := scenarios.Bundled()
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	list := make([]*scenarios.Scenario, len(names))
	algoWidth := 0
	for i, n := range names {
		sc, err := scenarios.LoadBundled(n)
		if err != nil {
			return fmt.Errorf("the bundled scenario %s does not parse: %w", n, err)
		}
		list[i], algoWidth = sc, max(algoWidth, len(sc.Algorithm))
	}
	for i, n := range names {
		fmt.Fprintf(w, "%-*s  %-*s  %s\n", width, n, algoWidth, list[i].Algorithm, safetext.EscapeLines(list[i].Title))
	}
	return nil
}

// WriteAlgorithms lists the algorithms: each with its summary, the kinds of message it sends,
// and the parameters it takes, with their defaults.
func WriteAlgorithms(w io.Writer) {
	for i, a := range algo.Algorithms() {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s — %s\n", a.Name, a.Summary)
		fmt.Fprintf(w, "  messages    %s\n", strings.Join(a.Kinds, ", "))
		if tops := a.TopologyList(); len(tops) > 1 || tops[0] != algo.Complete {
			fmt.Fprintf(w, "  topologies  %s\n", strings.Join(tops, ", "))
		}
		for j, p := range a.Params {
			label := ""
			if j == 0 {
				label = "parameters"
			}
			fmt.Fprintf(w, "  %-10s  %-20s %-24s %s\n", label, p.Key, p.Default, p.Help)
		}
	}
}
