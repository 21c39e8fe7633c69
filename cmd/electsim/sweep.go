package main

import (
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"electsim/algo"
	"electsim/internal/interrupt"
	"electsim/report"
	"electsim/report/diagram"
	"electsim/sim"
	"electsim/sim/sweep"
)

// The bounds of a sweep's flags.
const (
	maxSteps       = 1000
	maxSweepRuns   = 1_000_000
	defaultSteps   = 10
	defaultRunsPer = 20
)

// sweepFlags are the flags of electsim sweep beyond the run flags.
type sweepFlags struct {
	param, steps, runs, workers, svg string
	json                             bool
}

func (f *sweepFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.param, "param", "", "the parameter to vary and its values: key=LOW..HIGH (with --steps), or key=V1,V2,V3")
	fs.StringVar(&f.steps, "steps", "", fmt.Sprintf("how many values from LOW to HIGH, both included (default %d)", defaultSteps))
	fs.StringVar(&f.runs, "runs", "", fmt.Sprintf("seeded runs per value: run k of every value has seed --seed + k (default %d)", defaultRunsPer))
	fs.StringVar(&f.workers, "workers", "", "runs at once (default: one per CPU); the table is the same whatever it is")
	fs.StringVar(&f.svg, "svg", "", "write the trade-off curve to `FILE` as SVG: false suspicions and recovery time against the parameter ('-': to stdout, alone)")
	boolVar(fs, &f.json, "json", "", "print the table as one JSON object on stdout")
}

func sweepUsage(fs *pflag.FlagSet) func(io.Writer) {
	return func(w io.Writer) {
		fmt.Fprintln(w, `Usage: electsim sweep [SCENARIO] --param KEY=VALUES [flags]

Varies one parameter of an algorithm across a range and runs each value many times, with seeds
--seed, --seed+1, ..., under the run's network and faults (--delay, --drop, --at, or a scenario's
own). For each value it measures false suspicions (elections started while the leader was alive
and reachable), the time from a leader's crash to a new agreed leader, the time with no leader
and with two, and the messages per second of virtual time by kind (docs/teaching.md, "Tuning
the failure detector"). The same seed gives the same table, whatever --workers is.`)
		fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
		fmt.Fprintln(w, `
Examples:
  electsim sweep --algo bully --param timeout=60ms..600ms --steps 10 --runs 100 --delay 5ms..80ms --at '2s crash 5'
  electsim sweep --algo raft --param heartbeat=20ms,50ms,100ms --runs 50 --delay 5ms..40ms --json
  electsim sweep bully-leader-crash --param timeout=100ms..400ms --steps 4 --svg tradeoff.svg`)
	}
}

// sweepCommand is electsim sweep: one parameter across a range, many runs each.
func sweepCommand(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlagSet("sweep")
	var rf runFlags
	var f sweepFlags
	f.register(fs)
	rf.register(fs)
	fs.Lookup("engine").Usage = "inline (the default here: fastest) or goroutine"
	fs.Lookup("seed").Usage = "seed of the first run of each value; run k has seed+k (default 1)"
	if help, err := parseFlags(fs, args, stdout, sweepUsage(fs)); help || err != nil {
		return err
	}
	sc, err := scenarioFor("", fs)
	if err != nil {
		return err
	}
	cfg, err := rf.apply(fs, sc)
	if err != nil {
		return err
	}
	if !fs.Changed("engine") {
		cfg.Engine = sim.Inline
	}
	opts, err := f.options(fs, cfg)
	if err != nil {
		return err
	}
	var svg io.Writer
	var svgFile *outFile
	switch {
	case fs.Changed("svg") && f.svg == "-":
		if f.json {
			return usagef("--svg - and --json both write to stdout: write the plot to a file, e.g. --svg tradeoff.svg")
		}
		svg = stdout // the plot alone
	case fs.Changed("svg"):
		temp := &interrupt.Cleanup{}
		stop := temp.Watch()
		defer stop()
		if svgFile, err = createOut("--svg", f.svg, temp); err != nil {
			return err
		}
		defer svgFile.Abort() // a no-op once committed
		svg = svgFile
	}
	toStdout := svg == stdout
	printWarnings(stderr, cfg.Warnings(), rf.notes)
	p := colorFor(stdout, rf.noColor, getenv)
	if !f.json && !toStdout {
		report.WriteSweepHeading(stdout, p, cfg, opts.Param, opts.Labels, opts.Runs)
	}
	progress := newProgress(stderr, getenv)
	res, err := sweep.Run(opts, func(done, total int) {
		progress.Show(func(time.Duration) string { return report.SweepProgressText(done, total) })
	})
	progress.Hide()
	if err != nil {
		return usagef("%v", err)
	}
	if svg != nil {
		if err := diagram.PlotSweep(svg, res, report.SweepSetup(cfg, opts.Param, opts.Runs)); err != nil {
			return fmt.Errorf("--svg %s: %w", f.svg, err)
		}
		if svgFile != nil {
			if err := svgFile.Commit(); err != nil {
				return err
			}
		}
	}
	switch {
	case toStdout:
		return nil
	case f.json:
		return report.WriteJSON(stdout, report.SweepJSONOf(res))
	}
	report.WriteSweep(stdout, p, res)
	return nil
}

// options builds the sweep the flags describe on the run cfg.
func (f *sweepFlags) options(fs *pflag.FlagSet, cfg sim.Config) (sweep.Options, error) {
	opts := sweep.Options{Base: cfg, Runs: defaultRunsPer}
	if !fs.Changed("param") {
		return opts, usagef("--param: say which parameter to vary and across what, e.g. --param timeout=60ms..600ms (%s has %s)",
			cfg.Algorithm.Name, strings.Join(cfg.Algorithm.ParamKeys(), ", "))
	}
	var err error
	if opts.Param, opts.Values, opts.Labels, err = f.values(fs, cfg.Algorithm); err != nil {
		return opts, err
	}
	if fs.Changed("runs") {
		if opts.Runs, err = strconv.Atoi(f.runs); err != nil || opts.Runs < 1 || opts.Runs > maxSweepRuns {
			return opts, usagef("--runs %s: expected a number of runs per value from 1 to %d, e.g. --runs 100", f.runs, maxSweepRuns)
		}
	}
	opts.Workers = runtime.GOMAXPROCS(0)
	if fs.Changed("workers") {
		if opts.Workers, err = strconv.Atoi(f.workers); err != nil || opts.Workers < 1 || opts.Workers > 1024 {
			return opts, usagef("--workers %s: expected a number of runs at once from 1 to 1024, e.g. --workers 2", f.workers)
		}
	}
	return opts, nil
}

// values parses --param (with --steps): the parameter, its values and how each is written.
func (f *sweepFlags) values(fs *pflag.FlagSet, info *algo.Info) (string, []algo.Value, []string, error) {
	key, spec, ok := strings.Cut(f.param, "=")
	if !ok || key == "" || spec == "" {
		return "", nil, nil, usagef("--param %s: expected key=LOW..HIGH or key=V1,V2,..., e.g. --param timeout=60ms..600ms", f.param)
	}
	p, ok := info.Param(key)
	if !ok {
		return "", nil, nil, usagef("--param %s: %s has no parameter %q (its parameters are %s)", f.param, info.Name, key, strings.Join(info.ParamKeys(), ", "))
	}
	lo, hi, isRange := strings.Cut(spec, "..")
	if isRange && p.Kind == algo.DurationParam && !strings.Contains(spec, ",") {
		return f.stepped(fs, info, key, lo, hi)
	}
	if fs.Changed("steps") {
		return "", nil, nil, usagef("--steps goes with --param KEY=LOW..HIGH; %s lists its values", f.param)
	}
	var values []algo.Value
	var labels []string
	for _, text := range strings.Split(spec, ",") {
		v, err := info.ParseParam(key, text)
		if err != nil {
			return "", nil, nil, usagef("--param %s: %v", f.param, err)
		}
		values = append(values, v)
		labels = append(labels, algo.FormatValue(p.Kind, v))
	}
	return key, values, labels, nil
}

// stepped is --param key=LOW..HIGH --steps N: N durations evenly spaced from LOW to HIGH.
func (f *sweepFlags) stepped(fs *pflag.FlagSet, info *algo.Info, key, lo, hi string) (string, []algo.Value, []string, error) {
	steps := defaultSteps
	if fs.Changed("steps") {
		n, err := strconv.Atoi(f.steps)
		if err != nil || n < 2 || n > maxSteps {
			return "", nil, nil, usagef("--steps %s: expected a number of values from 2 to %d, e.g. --steps 10", f.steps, maxSteps)
		}
		steps = n
	}
	low, err := info.ParseParam(key, lo)
	if err != nil {
		return "", nil, nil, usagef("--param %s: %v", f.param, err)
	}
	high, err := info.ParseParam(key, hi)
	if err != nil {
		return "", nil, nil, usagef("--param %s: %v", f.param, err)
	}
	if high.Min <= low.Min {
		return "", nil, nil, usagef("--param %s: the range runs from %s to %s: write the smaller value first", f.param, lo, hi)
	}
	var values []algo.Value
	var labels []string
	span := high.Min - low.Min
	for i := range steps {
		d := low.Min + time.Duration(int64(span)*int64(i)/int64(steps-1))
		d = d.Round(time.Microsecond)
		values = append(values, algo.Value{Min: d, Max: d})
		labels = append(labels, algo.FormatDuration(d))
	}
	return key, values, labels, nil
}
