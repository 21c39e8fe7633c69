package report

import (
	"fmt"
	"io"
	"strings"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/internal/safetext"
	"electsim/network"
	"electsim/scenarios"
	"electsim/sim"
)

// Setup writes a run's setup in one line: "bully · 5 nodes (1..5) · seed 1 · delay 5ms..15ms ·
// run 5s · goroutine engine", with the topology, the loss, the order of delivery, the nodes'
// roles and the parameters set when they are not the defaults.
func Setup(cfg sim.Config) string {
	parts := []string{cfg.Algorithm.Name, nodesText(cfg.IDs)}
	if cfg.Topology != "" && cfg.Topology != algo.Complete {
		parts = append(parts, cfg.Topology+" topology")
	}
	parts = append(parts, fmt.Sprintf("seed %d", cfg.Seed))
	parts = append(parts, networkParts(cfg.Network)...)
	if cfg.Algorithm.Roles != nil {
		if cl, err := cfg.Cluster(); err == nil {
			roles := cfg.Algorithm.Roles(cl)
			for _, id := range cl.Sorted {
				if r := roles[id]; r != "" {
					parts = append(parts, fmt.Sprintf("%s %d", r, id))
				}
			}
		}
	}
	parts = append(parts, paramParts(cfg)...)
	parts = append(parts, "run "+algo.FormatDuration(cfg.RunFor), cfg.Engine.String()+" engine")
	return strings.Join(parts, " · ")
}

// WriteRunHeading writes what heads a run's timeline: the scenario's title and name, if it has
// them, and the run's setup.
func WriteRunHeading(w io.Writer, p Palette, title, name string, cfg sim.Config) {
	if title != "" {
		fmt.Fprintln(w, p.Bold(safetext.EscapeLines(title))+p.Dim(" — "+safetext.EscapeLines(name)))
	}
	fmt.Fprintln(w, p.Bold("electsim · "+Setup(cfg)))
	fmt.Fprintln(w)
}

// nodesText writes "5 nodes (1..5)".
func nodesText(ids []algo.ID) string {
	return fmt.Sprintf("%s (%s)", human.Plural(len(ids), "node"), scenarios.NewMembers(ids))
}

// networkParts writes the network's setup: its delay, and its loss and order of delivery when
// they are not the defaults.
func networkParts(n network.Config) []string {
	parts := []string{"delay " + n.Delay.String()}
	if n.Drop > 0 {
		parts = append(parts, "drop "+sim.FormatPercent(n.Drop*100))
	}
	if !n.FIFO {
		parts = append(parts, "fifo off")
	}
	return parts
}

// paramParts writes the algorithm's parameters that the run sets: "timeout 200ms".
func paramParts(cfg sim.Config) []string {
	var parts []string
	for _, k := range cfg.Params.Keys() {
		p, _ := cfg.Algorithm.Param(k)
		parts = append(parts, k+" "+algo.FormatValue(p.Kind, cfg.Params[k]))
	}
	return parts
}
