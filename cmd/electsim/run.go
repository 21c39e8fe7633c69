package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/spf13/pflag"

	"electsim/internal/human"
	"electsim/report"
	"electsim/scenarios"
	"electsim/sim"
)

// outputFlags choose what a headless run prints and writes.
type outputFlags struct {
	json, quiet, all bool
	trace            string
}

func (o *outputFlags) register(fs *pflag.FlagSet) {
	boolVar(fs, &o.json, "json", "", "print the summary as one JSON object on stdout, and no timeline")
	fs.StringVar(&o.trace, "trace", "", "write every trace record to `FILE` as JSON Lines ('-': to stdout, alone)")
	boolVar(fs, &o.quiet, "quiet", "q", "print only the summary, no timeline")
	boolVar(fs, &o.all, "all", "", "show every step in the timeline, routine heartbeats included")
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

// reportedError is a failure already reported on stderr, line by line.
type reportedError struct{}

func (reportedError) Error() string { return "reported" }

// loadScenario loads the scenario arg names, reporting every mistake in it on stderr.
func loadScenario(cmd, arg string, stderr io.Writer) (*scenarios.Scenario, error) {
	sc, err := scenarios.Load(arg)
	var list scenarios.ErrorList
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			fmt.Fprintln(stderr, safe(e.Error()))
		}
		mistakes := human.Plural(list.Count(), "mistake")
		fmt.Fprintf(stderr, "electsim %s: %s in %s; nothing ran\n", cmd, mistakes, safe(arg))
		return nil, reportedError{}
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
func scenarioFor(cmd, demo string, fs *pflag.FlagSet, stderr io.Writer) (*scenarios.Scenario, error) {
	describesRun := []string{"algo", "nodes", "ids"}
	switch {
	case fs.NArg() > 1:
		return nil, usagef("one scenario at a time, got %q", fs.Args())
	case fs.NArg() == 1:
		return loadScenario(cmd, fs.Arg(0), stderr)
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
	usage := func(w io.Writer) {
		if cmd == "run" {
			fmt.Fprintln(w, "Usage: electsim run [SCENARIO] [flags]\n\nRuns a scenario — a .scn file, or the name of a bundled one (electsim scenarios lists them) —\nor a run the flags describe, and prints a timeline (one line per step), a summary and the\nscenario's expectations. Flags override the scenario's own settings; --at adds actions.")
		} else {
			fmt.Fprintln(w, "Usage: electsim [flags]\n\nPlays the default demo — "+demo+": a Bully election whose leader crashes — and prints it;\nwith --algo, --nodes or --ids, plays the run the flags describe, as electsim run does.")
		}
		fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
		fmt.Fprintln(w, "\nExamples:\n  electsim run bully-partition\n  electsim run my-lesson.scn --seed 7 --json\n  electsim run --algo ring --nodes 8 --delay 10ms --at '500ms crash 8' --run 2s\n  electsim run bully-recovery --svg bully-recovery.svg --mermaid bully-recovery.md --from 1s")
	}
	if help, err := parseFlags(fs, args, stdout, usage); help || err != nil {
		return err
	}
	sc, err := scenarioFor(cmd, demo, fs, stderr)
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
	outputs := map[string]string{"--trace": of.trace, "--svg": df.svg, "--mermaid": df.mermaid, "--shiviz": df.shiviz}
	if err := distinctOutputs(sc.File(), outputs); err != nil {
		return err
	}
	if flag := dg.toStdout(); flag != "" {
		switch {
		case of.json:
			return usagef("%s - and --json both write to stdout: write the diagram to a file", flag)
		case of.trace == "-":
			return usagef("%s - and --trace - both write to stdout: write one of them to a file", flag)
		}
	}
	p := colorFor(stdout, rf.noColor, getenv)
	prog := newRunProgress(stderr, getenv, cfg.RunFor, time.Now)
	if prog != nil {
		stdout = hidingWriter{stdout, prog} // stdout may be the same terminal
	}
	showTimeline := !of.json && !of.quiet && of.trace != "-" && dg.toStdout() == ""
	cfg.Trace = showTimeline || of.trace != "" || dg != nil

	temp := &cleanup{}
	if fs.Changed("trace") && of.trace != "-" || dg.writesFiles() {
		stop := temp.onInterrupt()
		defer stop()
	}

	var trace *report.JSONL
	var traceFile *outFile
	switch {
	case !fs.Changed("trace"):
	case of.trace == "-":
		if of.json {
			return usagef("--trace - and --json both write to stdout: write the trace to a file, e.g. --trace run.jsonl")
		}
		trace = report.NewJSONL(stdout)
	default:
		if traceFile, err = createOut("--trace", of.trace, temp); err != nil {
			return err
		}
		defer traceFile.Abort() // a no-op once committed
		trace = report.NewJSONL(traceFile)
	}
	if err := dg.create(temp); err != nil {
		return err
	}
	defer dg.abort() // a no-op for the files committed

	s, err := sim.New(cfg)
	if err != nil {
		return usagef("%v", err)
	}
	defer s.Close()
	for _, w := range cfg.Warnings() {
		fmt.Fprintf(stderr, "electsim: warning: %s\n", safe(w))
	}
	for _, n := range rf.notes {
		fmt.Fprintf(stderr, "electsim: note: %s\n", safe(n))
	}
	tl := report.NewTimeline(stdout, p, cfg.Algorithm, of.all)
	if showTimeline {
		report.WriteRunHeading(stdout, p, sc.Title, sc.Name, cfg)
		tl.Header()
	}
	var writeErr error
	var step func(sim.StepResult) bool // nil: nothing to show step by step, so the run goes in bulk
	if cfg.Trace {
		step = func(r sim.StepResult) bool {
			if showTimeline {
				tl.Step(r)
			}
			if dg != nil && !dg.add(r.Records) {
				return false // too much to draw: the run stops here, and says so
			}
			if trace != nil && writeErr == nil {
				for i := range r.Records {
					if writeErr = trace.Write(&r.Records[i]); writeErr != nil {
						break
					}
				}
				if writeErr == nil && traceFile != nil && traceFile.Borrowed() {
					// The trace goes to stdout with the timeline (--trace /dev/stdout): each
					// step's records go out whole, after its line.
					writeErr = trace.Flush()
				}
			}
			return true
		}
	}
	var tick func()
	if prog != nil {
		tick = func() { prog.update(s.Now(), s.Steps()) }
	}
	sum, results, stopped := play(s, sc.Expects, step, tick)
	prog.hide()
	if stopped {
		tl.Flush()
		return usagef("%s", dg.overflow(s.Now(), cfg.RunFor))
	}
	if writeErr != nil {
		return fmt.Errorf("--trace %s: %v", of.trace, writeErr)
	}
	tl.Flush()
	if trace != nil {
		if err := trace.Flush(); err != nil {
			return fmt.Errorf("--trace %s: %v", of.trace, err)
		}
	}
	if traceFile != nil {
		if err := traceFile.Commit(); err != nil {
			return err
		}
	}
	if err := dg.write(stdout); err != nil {
		return err
	}
	switch {
	case of.json:
		var name *string
		if sc.Name != "" {
			name = &sc.Name
		}
		if err := report.WriteJSON(stdout, report.RunJSONOf(name, sum, results)); err != nil {
			return err
		}
	case of.trace == "-" || dg.toStdout() != "":
		// stdout carries the trace, or the diagram, alone
	default:
		if showTimeline {
			fmt.Fprintln(stdout)
		}
		report.WriteSummary(stdout, p, sum)
		verdicts := report.Judge(sum, results)
		verdicts.WriteExpectations(stdout, p)
	}
	if sum.Halted != "" {
		return haltedError(sc, sum)
	}
	for _, r := range results {
		if !r.OK {
			return failedError{}
		}
	}
	return nil
}
