package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"electsim/sim"
	"electsim/sim/export"
)

// outputFlags choose what a headless run prints and writes.
type outputFlags struct {
	json, quiet, all bool
	trace            string
}

func (o *outputFlags) register(fs *pflag.FlagSet) {
	boolVar(fs, &o.json, "json", "", "print the summary as one JSON object on stdout, and no timeline")
	fs.StringVar(&o.trace, "trace", "", "write every trace record to FILE as JSON Lines ('-': to stdout, alone)")
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
	return headless("run", defaultConfig(), nil, args, stdout, stderr, getenv)
}

func demoCommand(args []string, stdout, stderr io.Writer, getenv env) error {
	name := "bully-leader-crash"
	return headless("electsim", demoConfig(), &name, args, stdout, stderr, getenv)
}

// headless runs base with the flags in args applied, and prints it.
func headless(cmd string, base sim.Config, scenario *string, args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlagSet(cmd)
	var rf runFlags
	var of outputFlags
	rf.register(fs)
	of.register(fs)
	usage := func(w io.Writer) {
		if cmd == "run" {
			fmt.Fprintln(w, "Usage: electsim run [flags]\n\nRuns an election headless and prints a timeline (one line per step) and a summary.")
		} else {
			fmt.Fprintln(w, "Usage: electsim [flags]\n\nRuns the default demo — a Bully election whose leader crashes — and prints it.")
		}
		fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
		fmt.Fprintln(w, "\nExample:\n  electsim run --algo bully --nodes 5 --delay 10ms --at '1s crash 5' --run 2s")
	}
	if help, err := parseFlags(fs, args, stdout, usage); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q: scenario files are not built yet; configure the run with flags (see -h)", fs.Arg(0))
	}
	cfg, err := rf.apply(fs, base)
	if err != nil {
		return err
	}
	for _, w := range cfg.Warnings() {
		fmt.Fprintf(stderr, "electsim: warning: %s\n", w)
	}
	p := colorFor(stdout, rf.noColor, getenv)
	showTimeline := !of.json && !of.quiet && of.trace != "-"
	cfg.Trace = showTimeline || of.trace != ""

	var trace *export.JSONL
	var traceFile *outFile
	switch {
	case !fs.Changed("trace"):
	case of.trace == "-":
		if of.json {
			return usagef("--trace - and --json both write to stdout: write the trace to a file, e.g. --trace run.jsonl")
		}
		trace = export.NewJSONL(stdout)
	default:
		temp := &tempFiles{}
		stop := temp.onInterrupt()
		defer stop()
		if traceFile, err = createOut("--trace", of.trace, temp); err != nil {
			return err
		}
		defer traceFile.Abort() // a no-op once committed
		trace = export.NewJSONL(traceFile)
	}

	s, err := sim.New(cfg)
	if err != nil {
		return usagef("%v", err)
	}
	defer s.Close()
	tl := &timeline{w: stdout, p: p, info: cfg.Algorithm, all: of.all}
	if showTimeline {
		fmt.Fprintln(stdout, p.bold("electsim · "+describe(cfg)))
		fmt.Fprintln(stdout)
		tl.header()
	}
	if !cfg.Trace {
		s.RunUntil(cfg.RunFor) // nothing to show step by step: run in bulk
	}
	for {
		r, ok := s.Step()
		if !ok {
			break
		}
		if showTimeline {
			tl.step(r)
		}
		if trace != nil {
			for i := range r.Records {
				if err := trace.Write(&r.Records[i]); err != nil {
					return fmt.Errorf("--trace %s: %v", of.trace, err)
				}
			}
		}
	}
	tl.flush()
	sum := s.Summary()
	if sum.Halted != "" {
		fmt.Fprintf(stderr, "electsim: warning: the run stopped early, at %s: %s\n", fmtDur(sum.End), sum.Halted)
	}
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
	switch {
	case of.json:
		return writeJSON(stdout, summaryJSON(scenario, sum))
	case of.trace == "-":
		// stdout carries the trace alone
	default:
		if showTimeline {
			fmt.Fprintln(stdout)
		}
		report(stdout, p, cfg, sum)
	}
	return nil
}
