package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/spf13/pflag"

	"electsim/internal/interrupt"
	"electsim/internal/safetext"
	"electsim/report"
	"electsim/scenarios"
	"electsim/sim"
)

// outputFlags choose what a headless run prints and writes.
type outputFlags struct {
	json, quiet, all bool
	trace, html      string
}

func (o *outputFlags) register(fs *pflag.FlagSet) {
	boolVar(fs, &o.json, "json", "", "print the summary as one JSON object on stdout, and no timeline")
	fs.StringVar(&o.trace, "trace", "", "write every trace record to `FILE` as JSON Lines ('-': to stdout, alone)")
	boolVar(fs, &o.quiet, "quiet", "q", "print only the summary, no timeline")
	boolVar(fs, &o.all, "all", "", "show every step in the timeline, routine heartbeats included")
	fs.StringVar(&o.html, "html", "", "write the run as one self-contained web page to `FILE`: it plays the run in a browser, offline")
}

func newFlagSet(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	return fs
}

// parseFlags parses args, turning pflag's errors into usage errors. It reports whether help
// was asked for (and printed).
func parseFlags(fs *pflag.FlagSet, args []string, stdout io.Writer, usage func(io.Writer)) (help bool, err error) {
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			usage(stdout)
			return true, nil
		}
		return false, usagef("%v (see -h)", err)
	}
	return false, nil
}

func runCommand(args []string, stdout, stderr io.Writer, getenv env) error {
	return headless("run", "", args, stdout, stderr, getenv)
}

func demoCommand(args []string, stdout, stderr io.Writer, getenv env) error {
	return headless("electsim", scenarios.DefaultDemo, args, stdout, stderr, getenv)
}

// loadScenario loads the scenario arg names; its mistakes are an error that lists them all.
func loadScenario(arg string) (*scenarios.Scenario, error) {
	sc, err := scenarios.Load(arg)
	var list scenarios.ErrorList
	switch {
	case errors.As(err, &list):
		return nil, mistakesError{list: list, what: arg}
	case err != nil:
		return nil, usagef("%v", err)
	}
	return sc, nil
}

// scenarioFor returns what a command plays: the scenario named on the command line; else the
// demo, unless the flags describe a run of their own; else an empty scenario, which the flags
// make into the run they describe (runFlags.apply). The flags that describe a run say what runs
// — which algorithm, on which nodes — rather than tune it: the demo, a Bully scenario written
// for nodes 1..5, would not fit them.
func scenarioFor(demo string, fs *pflag.FlagSet) (*scenarios.Scenario, error) {
	describesRun := []string{"algo", "nodes", "ids"}
	switch {
	case fs.NArg() > 1:
		return nil, usagef("one scenario at a time, got %q", fs.Args())
	case fs.NArg() == 1:
		return loadScenario(fs.Arg(0))
	case demo != "" && !slices.ContainsFunc(describesRun, fs.Changed):
		return scenarios.LoadBundled(demo)
	}
	return scenarios.New(""), nil
}

// headless plays a scenario — the one named on the command line, the bundled demo, or an empty
// one — with the flags in args applied, and prints it.
func headless(cmd, demo string, args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlagSet(cmd)
	var rf runFlags
	var of outputFlags
	var df diagramFlags
	rf.register(fs)
	of.register(fs)
	df.register(fs)
	if help, err := parseFlags(fs, args, stdout, headlessUsage(cmd, demo, fs)); help || err != nil {
		return err
	}
	sc, err := scenarioFor(demo, fs)
	if err != nil {
		return err
	}
	cfg, err := rf.apply(fs, sc)
	if err != nil {
		return err
	}
	dg, err := df.prepare(fs, cfg, sc)
	if err != nil {
		return err
	}
	if err := of.check(sc, &df, dg); err != nil {
		return err
	}
	p := colorFor(stdout, rf.noColor, getenv)
	prog := newRunProgress(stderr, getenv, cfg.RunFor, time.Now)
	if prog != nil {
		stdout = hidingWriter{stdout, prog} // stdout may be the same terminal
	}
	showTimeline := !of.json && !of.quiet && of.trace != "-" && dg.toStdout() == ""
	cfg.Trace = showTimeline || of.trace != "" || dg != nil

	temp := &interrupt.Cleanup{}
	if fs.Changed("trace") && of.trace != "-" || dg.writesFiles() || of.html != "" {
		stop := temp.Watch()
		defer stop()
	}
	out := &runOutput{diagrams: dg}
	defer out.abort() // a no-op for the files committed
	if err := out.open(fs.Changed("trace"), of.trace, stdout, temp); err != nil {
		return err
	}

	s, err := sim.New(cfg)
	if err != nil {
		return usagef("%v", err)
	}
	defer s.Close()
	printWarnings(stderr, cfg.Warnings(), rf.notes)
	if showTimeline {
		report.WriteRunHeading(stdout, p, sc.Title, sc.Name, cfg)
		out.timeline = report.NewTimeline(stdout, p, cfg.Algorithm, of.all)
		out.timeline.Header()
	}
	var step func(sim.StepResult) bool // nil: nothing to show step by step, so the run goes in bulk
	if cfg.Trace || prog != nil {
		step = func(r sim.StepResult) bool {
			if cfg.Trace && !out.step(r) {
				return false // too much to draw: the run stops here, and says so
			}
			if prog != nil {
				prog.Update(s.Now(), s.Steps())
			}
			return true
		}
	}
	sum, results, stopped := scenarios.PlaySteps(s, sc.Expects, step)
	prog.Hide()
	if stopped {
		out.flushTimeline()
		return usagef("%s", dg.overflow(s.Now(), cfg.RunFor))
	}
	if err := out.finish(of.trace, stdout); err != nil {
		return err
	}
	if of.html != "" {
		if err := writeHTML(of.html, cfg, sc, temp); err != nil {
			return err
		}
	}
	return printRun(stdout, p, &of, showTimeline, dg.toStdout() != "", sc, sum, results)
}

// headlessUsage is the help of electsim run (cmd "run") or of bare electsim, which plays demo.
func headlessUsage(cmd, demo string, fs *pflag.FlagSet) func(io.Writer) {
	return func(w io.Writer) {
		if cmd == "run" {
			fmt.Fprintln(w, "Usage: electsim run [SCENARIO] [flags]\n\nRuns a scenario — a .scn file, or the name of a bundled one (electsim scenarios lists them) —\nor a run the flags describe, and prints a timeline (one line per step), a summary and the\nscenario's expectations. Flags override the scenario's own settings; --at adds actions.")
		} else {
			fmt.Fprintln(w, "Usage: electsim [flags]\n\nPlays the default demo — "+demo+": a Bully election whose leader crashes — and prints it;\nwith --algo, --nodes or --ids, plays the run the flags describe, as electsim run does.")
		}
		fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
		fmt.Fprintln(w, "\nExamples:\n  electsim run bully-partition\n  electsim run my-lesson.scn --seed 7 --json\n  electsim run --algo ring --nodes 8 --delay 10ms --at '500ms crash 8' --run 2s\n  electsim run bully-recovery --svg bully-recovery.svg --mermaid bully-recovery.md --from 1s")
	}
}

// check refuses outputs that clash: two of them, or one and the scenario being run, naming one
// file; two of them going to stdout.
func (o *outputFlags) check(sc *scenarios.Scenario, df *diagramFlags, dg *diagrams) error {
	outputs := map[string]string{"--trace": o.trace, "--html": o.html, "--svg": df.svg, "--mermaid": df.mermaid, "--shiviz": df.shiviz}
	if err := distinctOutputs(sc.File(), outputs); err != nil {
		return err
	}
	if flag := dg.toStdout(); flag != "" {
		switch {
		case o.json:
			return usagef("%s - and --json both write to stdout: write the diagram to a file", flag)
		case o.trace == "-":
			return usagef("%s - and --trace - both write to stdout: write one of them to a file", flag)
		}
	}
	if o.trace == "-" && o.json {
		return usagef("--trace - and --json both write to stdout: write the trace to a file, e.g. --trace run.jsonl")
	}
	return nil
}

// printWarnings writes, on stderr, the timing assumptions the run breaks and what the flags
// left out of the scenario.
func printWarnings(stderr io.Writer, warnings, notes []string) {
	for _, w := range warnings {
		fmt.Fprintf(stderr, "electsim: warning: %s\n", safetext.EscapeLines(w))
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "electsim: note: %s\n", safetext.EscapeLines(n))
	}
}

// runOutput is where a headless run's records go, step by step: its timeline, its trace, its
// diagrams.
type runOutput struct {
	timeline  *report.Timeline // nil: not shown
	trace     *report.JSONL    // nil: no --trace
	traceFile *outFile         // nil: the trace goes to stdout, or nowhere
	diagrams  *diagrams        // nil: none
	err       error            // the first error writing the trace
}

// open opens the trace (when asked for: to stdout, or to the file path) and the diagrams'
// files, so that a path that cannot be written fails before the run.
func (o *runOutput) open(trace bool, path string, stdout io.Writer, temp *interrupt.Cleanup) error {
	switch {
	case !trace:
	case path == "-":
		o.trace = report.NewJSONL(stdout)
	default:
		f, err := createOut("--trace", path, temp)
		if err != nil {
			return err
		}
		o.traceFile, o.trace = f, report.NewJSONL(f)
	}
	return o.diagrams.create(temp)
}

// abort discards the files not committed.
func (o *runOutput) abort() {
	if o.traceFile != nil {
		o.traceFile.Abort()
	}
	o.diagrams.abort()
}

// step shows one step, and reports whether the run may go on: not once its diagrams would hold
// more than they may.
func (o *runOutput) step(r sim.StepResult) bool {
	if o.timeline != nil {
		o.timeline.Step(r)
	}
	if o.diagrams != nil && !o.diagrams.add(r.Records) {
		return false
	}
	if o.trace == nil || o.err != nil {
		return true
	}
	for i := range r.Records {
		if o.err = o.trace.Write(&r.Records[i]); o.err != nil {
			return true
		}
	}
	if o.traceFile != nil && o.traceFile.Borrowed() {
		// The trace goes to stdout with the timeline (--trace /dev/stdout): each step's records
		// go out whole, after its line.
		o.err = o.trace.Flush()
	}
	return true
}

func (o *runOutput) flushTimeline() {
	if o.timeline != nil {
		o.timeline.Flush()
	}
}

// finish writes what is left of the timeline and the trace (path: --trace's), commits the
// trace's file, and draws the diagrams.
func (o *runOutput) finish(path string, stdout io.Writer) error {
	if o.err != nil {
		return fmt.Errorf("--trace %s: %w", path, o.err)
	}
	o.flushTimeline()
	if o.trace != nil {
		if err := o.trace.Flush(); err != nil {
			return fmt.Errorf("--trace %s: %w", path, err)
		}
	}
	if o.traceFile != nil {
		if err := o.traceFile.Commit(); err != nil {
			return err
		}
	}
	return o.diagrams.write(stdout)
}

// printRun prints what a finished run shows on stdout — its JSON, or its summary and verdicts,
// unless stdout carries the trace or a diagram alone — and returns how it ended: a run that
// stopped early is an error (exit 2), a failed expectation a failure (exit 1).
func printRun(stdout io.Writer, p report.Palette, of *outputFlags, timeline, diagram bool, sc *scenarios.Scenario, sum sim.Summary, results []scenarios.Result) error {
	verdicts := report.Judge(sum, results)
	switch {
	case of.json:
		var name *string
		if sc.Name != "" {
			name = &sc.Name
		}
		if err := report.WriteJSON(stdout, report.RunJSONOf(name, sum, results)); err != nil {
			return err
		}
	case of.trace == "-" || diagram:
		// stdout carries the trace, or the diagram, alone
	default:
		if timeline {
			fmt.Fprintln(stdout)
		}
		report.WriteSummary(stdout, p, sum)
		verdicts.WriteExpectations(stdout, p)
	}
	switch {
	case sum.Halted != "":
		return haltedError(sc, sum)
	case verdicts.Failed():
		return failedError{}
	}
	return nil
}

// haltedError is the error of a run that stopped before its end, printed once its report is
// out (exit 2): the run asked for did not happen. It says why, and where the action that
// could not happen came from (report.Halted).
func haltedError(sc *scenarios.Scenario, sum sim.Summary) error {
	return usagef("%s", report.Halted(sc, sum))
}
