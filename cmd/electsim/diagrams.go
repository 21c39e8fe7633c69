package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/internal/interrupt"
	"electsim/report/diagram"
	"electsim/scenarios"
	"electsim/sim"
)

// diagramFlags choose the pictures of a run: --svg, --mermaid, --shiviz, and what they show.
type diagramFlags struct {
	svg, mermaid, shiviz string
	from, to, kinds      string
}

func (d *diagramFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&d.svg, "svg", "", "write a space-time diagram of the run to `FILE` as SVG, for slides and web pages ('-': to stdout, alone)")
	fs.StringVar(&d.mermaid, "mermaid", "", "write the run to `FILE` as a Mermaid sequence diagram, which GitHub renders; FILE.md gets a ```mermaid block ('-': to stdout, alone)")
	fs.StringVar(&d.shiviz, "shiviz", "", "write the run to `FILE` as a ShiViz log with vector clocks ('-': to stdout, alone)")
	fs.StringVar(&d.from, "from", "", "diagrams show what happens from virtual time `T` on, e.g. --from 500ms (default 0)")
	fs.StringVar(&d.to, "to", "", "diagrams show what happens up to virtual time `T`, e.g. --to 1s (default: the end of the run)")
	fs.StringVar(&d.kinds, "kinds", "", "message `KINDS` the diagrams show, e.g. --kinds ELECTION,OK, or all (default: all but routine heartbeats)")
}

// diagramFile is one diagram to write.
type diagramFile struct {
	flag, path string
	write      func(io.Writer, []sim.Record, diagram.Options) error
	out        *outFile // nil when path is "-"
}

// diagrams are the diagrams a run writes, and the records they are drawn from.
type diagrams struct {
	opts   diagram.Options
	files  []*diagramFile
	gather *diagram.Gatherer
}

// prepare checks the diagram flags against the run and returns the diagrams to write, or nil
// when none was asked for.
func (d *diagramFlags) prepare(fs *pflag.FlagSet, cfg sim.Config, sc *scenarios.Scenario) (*diagrams, error) {
	dg := &diagrams{}
	for _, f := range []struct {
		name  string
		path  string
		write func(io.Writer, []sim.Record, diagram.Options) error
	}{{"svg", d.svg, diagram.SVG}, {"mermaid", d.mermaid, mermaidFor(d.mermaid)}, {"shiviz", d.shiviz, diagram.ShiViz}} {
		if !fs.Changed(f.name) {
			continue
		}
		if f.path == "" {
			return nil, usagef("--%s needs a file name (or - for stdout)", f.name)
		}
		dg.files = append(dg.files, &diagramFile{flag: "--" + f.name, path: f.path, write: f.write})
	}
	var stdout []string
	for _, f := range dg.files {
		if f.path == "-" {
			stdout = append(stdout, f.flag+" -")
		}
	}
	if len(stdout) > 1 {
		both := "both"
		if len(stdout) > 2 {
			both = "all"
		}
		return nil, usagef("%s %s write to stdout: write all but one to a file", strings.Join(stdout, " and "), both)
	}
	if len(dg.files) == 0 {
		for _, name := range []string{"from", "to", "kinds"} {
			if fs.Changed(name) {
				return nil, usagef("--%s chooses what --svg, --mermaid and --shiviz show; add one of them, e.g. --svg run.svg", name)
			}
		}
		return nil, nil
	}
	for _, f := range dg.files {
		if f.flag == "--shiviz" {
			if err := diagram.ShiVizFits(len(cfg.IDs)); err != nil {
				return nil, usagef("--shiviz %s: %v", f.path, err)
			}
		}
	}
	var from, to time.Duration
	var kinds []string
	if fs.Changed("from") {
		t, err := parseWhen("--from", d.from, cfg.RunFor)
		if err != nil {
			return nil, err
		}
		from = t
	}
	if fs.Changed("to") {
		t, err := parseWhen("--to", d.to, cfg.RunFor)
		switch {
		case err != nil:
			return nil, err
		case t <= from:
			return nil, usagef("--to %s: the window must end after it begins (--from %s); give a later time", d.to, algo.FormatDuration(from))
		}
		to = t
	}
	if fs.Changed("kinds") {
		k, err := parseKinds(d.kinds, cfg.Algorithm)
		if err != nil {
			return nil, err
		}
		kinds = k
	}
	dg.opts = diagram.ForRun(cfg, sc.Title, sc.Name, from, to, kinds)
	dg.gather = diagram.NewGatherer(dg.opts)
	return dg, nil
}

// parseWhen reads a virtual time within the run.
func parseWhen(flag, s string, runFor time.Duration) (time.Duration, error) {
	t, err := algo.ParseDuration(s)
	switch {
	case err != nil:
		return 0, usagef("%s %s: %v", flag, s, err)
	case t > runFor:
		return 0, usagef("%s %s: %s is after the end of the run (%s)", flag, s, algo.FormatDuration(t), algo.FormatDuration(runFor))
	}
	return t, nil
}

// parseKinds reads "ELECTION,OK" (any case, commas or spaces) or "all".
func parseKinds(s string, a *algo.Info) ([]string, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	choices := strings.Join(a.Kinds, ", ")
	for _, item := range strings.Split(s, ",") {
		if strings.TrimSpace(item) == "" && len(fields) > 0 {
			return nil, usagef("--kinds %s: an empty item between commas; expected message kinds of %s (%s), or all", s, a.Name, choices)
		}
	}
	if len(fields) == 0 {
		return nil, usagef("--kinds %s: expected message kinds of %s (%s), or all", s, a.Name, choices)
	}
	if len(fields) == 1 && strings.EqualFold(fields[0], "all") {
		return slices.Clone(a.Kinds), nil
	}
	if slices.ContainsFunc(fields, func(f string) bool { return strings.EqualFold(f, "all") }) {
		return nil, usagef("--kinds %s: all stands alone: give all, or the kinds (%s)", s, choices)
	}
	var kinds []string
	for _, f := range fields {
		i := slices.IndexFunc(a.Kinds, func(k string) bool { return strings.EqualFold(k, f) })
		if i < 0 {
			return nil, usagef("--kinds %s: %s has no message kind %q (its kinds are %s; or all)", s, a.Name, f, choices)
		}
		if !slices.Contains(kinds, a.Kinds[i]) {
			kinds = append(kinds, a.Kinds[i])
		}
	}
	return kinds, nil
}

// mermaidFor is how a Mermaid diagram is written to path: into a Markdown file (FILE.md), as a
// ```mermaid block.
func mermaidFor(path string) func(io.Writer, []sim.Record, diagram.Options) error {
	if strings.EqualFold(filepath.Ext(path), ".md") {
		return diagram.MermaidMarkdown
	}
	return diagram.Mermaid
}

// toStdout returns the flag of the diagram that goes to stdout, if one does.
func (dg *diagrams) toStdout() string {
	for _, f := range dg.list() {
		if f.path == "-" {
			return f.flag
		}
	}
	return ""
}

// writesFiles reports whether a diagram goes to a file.
func (dg *diagrams) writesFiles() bool {
	return slices.ContainsFunc(dg.list(), func(f *diagramFile) bool { return f.path != "-" })
}

// list is the diagrams to write; none when dg is nil.
func (dg *diagrams) list() []*diagramFile {
	if dg == nil {
		return nil
	}
	return dg.files
}

// create opens the files, so that a path that cannot be written fails before the run. When
// one fails, the others are removed.
func (dg *diagrams) create(temp *interrupt.Cleanup) error {
	for _, f := range dg.list() {
		if f.path == "-" {
			continue
		}
		out, err := createOut(f.flag, f.path, temp)
		if err != nil {
			dg.abort()
			return err
		}
		f.out = out
	}
	return nil
}

// abort discards the files not yet committed.
func (dg *diagrams) abort() {
	for _, f := range dg.list() {
		if f.out != nil {
			f.out.Abort()
		}
	}
}

// add keeps what the diagrams need of one step's records (see diagram.Gatherer). It returns
// false once they hold more than they may: the run should stop there (see overflow).
func (dg *diagrams) add(recs []sim.Record) bool {
	for i := range recs {
		dg.gather.Add(&recs[i])
	}
	return !dg.gather.Full()
}

// overflow says why the run stopped at virtual time at, of runFor: its diagrams would hold more
// records than they may.
func (dg *diagrams) overflow(at, runFor time.Duration) string {
	var flags []string
	for _, f := range dg.files {
		flags = append(flags, f.flag+" "+f.path)
	}
	return fmt.Sprintf("%s: the diagram would draw more than %s trace records — that many by %s of virtual time, of the %s asked for: too many to draw, or to read; "+
		"draw a part of the run (--from and --to) or fewer message kinds (--kinds)",
		strings.Join(flags, ", "), human.Thousands(diagram.MaxRecords), human.Brief(at), algo.FormatDuration(runFor))
}

// write draws every diagram, each whole into its file.
func (dg *diagrams) write(stdout io.Writer) error {
	for _, f := range dg.list() {
		w := stdout
		if f.out != nil {
			w = f.out
		}
		if err := f.write(w, dg.gather.Records(), dg.opts); err != nil {
			return fmt.Errorf("%s %s: %w", f.flag, f.path, unwrapPath(err))
		}
		if f.out != nil {
			if err := f.out.Commit(); err != nil {
				return fmt.Errorf("%s %s: %w", f.flag, f.path, err)
			}
		}
	}
	return nil
}
