package diagram

import (
	"fmt"
	"io"
	"strings"
	"time"

	"electsim/algo"
	"electsim/report"
	"electsim/sim"
)

// ForRun returns the options of the diagrams of a run of cfg — of the scenario titled title
// and named name, either of which may be empty — showing what happens within [from, to] (to 0:
// to the end) and the message kinds given (nil: all but the routine ones). The title is the
// scenario's, or "electsim · ALGORITHM"; the caption is the run's setup (report.Setup), after
// the scenario's name, with the window shown when it is not the whole run, and the kinds left
// out.
func ForRun(cfg sim.Config, title, name string, from, to time.Duration, kinds []string) Options {
	o := Options{IDs: cfg.IDs, Algorithm: cfg.Algorithm, Title: title, From: from, To: to, Kinds: kinds}
	if o.Title == "" {
		o.Title = "electsim · " + cfg.Algorithm.Name
	}
	o.Caption = report.Setup(cfg)
	if name != "" {
		o.Caption = name + " · " + o.Caption
	}
	if from > 0 || to > 0 {
		if to == 0 {
			to = cfg.RunFor
		}
		o.Caption += fmt.Sprintf(" · shown %s–%s", algo.FormatDuration(from), algo.FormatDuration(to))
	}
	var hidden []string
	for _, k := range cfg.Algorithm.Kinds {
		if !o.ShowsKind(k) {
			hidden = append(hidden, k)
		}
	}
	if len(hidden) > 0 {
		o.Caption += " · not shown: " + strings.Join(hidden, ", ")
	}
	return o
}

// MermaidMarkdown writes the records as a Mermaid diagram (see Mermaid) in a ```mermaid block,
// the Markdown that GitHub renders as the diagram. The block is written whole, or not at all.
func MermaidMarkdown(w io.Writer, recs []sim.Record, o Options) error {
	var b strings.Builder
	b.WriteString("```mermaid\n")
	if err := Mermaid(&b, recs, o); err != nil {
		return err
	}
	b.WriteString("```\n")
	_, err := io.WriteString(w, b.String())
	return err
}
