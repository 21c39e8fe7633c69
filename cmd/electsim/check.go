package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/internal/interrupt"
	"electsim/report"
	"electsim/scenarios"
	"electsim/sim"
	"electsim/sim/check"
)

// maxRuns bounds --runs: a day of checking at the speeds measured here.
const maxRuns = 100_000_000

// checkFlags are the flags of electsim check beyond the run flags.
type checkFlags struct {
	faults, property, runs, out, drift string
	matrix, json                       bool

	faultSet check.Faults // --faults, parsed

	ex exhaustiveFlags // --exhaustive and its bounds (exhaustive.go)
}

func (f *checkFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.faults, "faults", "", "fault classes to inject: "+strings.Join(check.FaultNames(), ",")+" (any of them, comma-separated), or none")
	fs.StringVar(&f.property, "property", "", "the property to check: at-most-one-leader (default), one-leader-per-term, agreement, eventual-leader, no-stale-write (lease)")
	fs.StringVar(&f.runs, "runs", "", fmt.Sprintf("how many random schedules to run (default %d; %d a cell with --matrix)", check.DefaultRuns, check.DefaultMatrixRuns))
	fs.StringVar(&f.drift, "drift", "", fmt.Sprintf("the drift class's bound: clock rates from 1−B to 1+B, e.g. --drift 0.2 (default %g)", check.DefaultDriftBound))
	fs.StringVar(&f.out, "out", "", "write the shrunk counterexample to `FILE` as a scenario that electsim run and electsim tui replay")
	boolVar(fs, &f.matrix, "matrix", "", "check every algorithm under every fault class and print the property matrix")
	boolVar(fs, &f.json, "json", "", "print the result as one JSON object on stdout")
	f.ex.register(fs)
}

func checkUsage(fs *pflag.FlagSet) func(io.Writer) {
	return func(w io.Writer) {
		fmt.Fprintln(w, `Usage: electsim check [flags] --faults LIST
       electsim check --matrix [flags]
       electsim check --exhaustive [flags] --faults LIST --budget K

Runs an algorithm under many random fault schedules and checks a property in every run. Each
schedule injects faults of the classes asked for at random times, undoes them (heal, resume,
recover, delays and losses back to normal), and gives the algorithm time to settle. Run k has
seed --seed + k. The first run that breaks the property is shrunk — fewer actions, earlier and
shorter ones, fewer nodes — and printed before and after; --out writes it as a scenario.
Exit 0 when the property held in every run, 1 when a run broke it. With --matrix: every
algorithm under every fault class, exit 1 when a cell disagrees with the theory (docs/properties.md).
With --exhaustive (at most 5 nodes): every schedule instead, breadth first — each message's delay
one of --delays, at most --budget faults each at any boundary between two steps, at most --depth
steps — so the first counterexample found is the shortest; exit 1 when one is found.`)
		fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
		fmt.Fprintln(w, `
Examples:
  electsim check --algo bully --faults partition,crash --runs 1000 --seed 1
  electsim check --algo raft --faults crash,recover,partition,delay,pause,loss --property one-leader-per-term
  electsim check --algo lease --set fencing=off --faults pause --property no-stale-write --out stale.scn
  electsim check --matrix
  electsim check --exhaustive --algo bully --nodes 3 --faults partition --budget 1 --out split.scn
  electsim check --exhaustive --algo raft --nodes 3 --faults crash,recover --budget 2 --property one-leader-per-term --delays 10ms --depth 300`)
	}
}

// checkCommand is electsim check: a property under random fault schedules (or, with --matrix,
// every algorithm under every fault class).
func checkCommand(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlagSet("check")
	var rf runFlags
	var cf checkFlags
	cf.register(fs)
	rf.register(fs)
	fs.Lookup("run").Usage = "virtual time of each run: faults, then the algorithm's settle time (default 2s of faults, then the settle time)"
	fs.Lookup("engine").Usage = "inline (the default here: fastest) or goroutine"
	fs.Lookup("seed").Usage = "seed of the first run; run k has seed+k (default 1)"
	fs.Lookup("at").Usage = "an action every run has besides the random ones, never shrunk, e.g. --at '0ms crash 5' (repeatable)"
	if help, err := parseFlags(fs, args, stdout, checkUsage(fs)); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("check takes no scenario: it draws its own schedules (got %q); electsim run plays a scenario", fs.Args())
	}
	if cf.ex.on {
		return exhaustiveCommand(fs, &rf, &cf, &cf.ex, stdout, stderr, getenv)
	}
	for _, name := range exhaustiveOnly {
		if fs.Changed(name) {
			return usagef("--%s bounds an exhaustive exploration: add --exhaustive, or leave out --%s", name, name)
		}
	}
	runs, err := cf.runCount(fs)
	if err != nil {
		return err
	}
	if cf.matrix {
		return matrixCommand(fs, &rf, &cf, runs, stdout, stderr, getenv)
	}
	c, err := newCheck(fs, &rf, &cf, runs, stderr)
	if err != nil {
		return err
	}
	out, closeOut, err := cf.openOut(fs)
	if err != nil {
		return err
	}
	defer closeOut()

	p := colorFor(stdout, rf.noColor, getenv)
	if !cf.json {
		report.WriteCheckHeading(stdout, p, c, cf.faultSet, runs)
	}
	found := runCheck(c, runs, newProgress(stderr, getenv), reproduceCommand(fs, &rf, c.Base(), cf.faultSet, c.Property()))
	written, err := found.write(out, cf.out, c.Property(), stderr)
	if err != nil {
		return err
	}
	if cf.json {
		err = report.WriteJSON(stdout, report.CheckJSONOf(c, cf.faultSet, found.res, found.cx, found.reproduce, written, found.elapsed))
	} else {
		report.WriteCheck(stdout, p, c, found.res, found.cx, found.reproduce, written)
		fmt.Fprintln(stdout)
		fmt.Fprintln(stdout, p.Dim(report.WallClock(found.res.Runs, found.elapsed, found.shrinking)))
	}
	if err == nil && found.res.Failed > 0 {
		return failedError{}
	}
	return err
}

// runCount returns how many runs a check does: --runs, or the default (a cell's with --matrix).
func (f *checkFlags) runCount(fs *pflag.FlagSet) (int, error) {
	if !fs.Changed("runs") {
		if f.matrix {
			return check.DefaultMatrixRuns, nil
		}
		return check.DefaultRuns, nil
	}
	n, err := strconv.Atoi(f.runs)
	if err != nil || n < 1 || n > maxRuns {
		return 0, usagef("--runs %s: expected a number of runs from 1 to %d, e.g. --runs 1000", f.runs, maxRuns)
	}
	return n, nil
}

// newCheck prepares the check the flags describe — the run flags applied to an empty run, the
// property, the faults (kept in f.faultSet) — and warns on stderr of the timing assumptions
// its runs break.
func newCheck(fs *pflag.FlagSet, rf *runFlags, f *checkFlags, runs int, stderr io.Writer) (*check.Check, error) {
	cfg, err := checkBase(fs, rf)
	if err != nil {
		return nil, err
	}
	property := check.Properties(cfg.Algorithm)[0] // at-most-one-leader, but for groups
	if fs.Changed("property") {
		if err := check.ValidateProperty(cfg.Algorithm, f.property); err != nil {
			return nil, usagef("--property %s: %v", f.property, err)
		}
		property = f.property
	}
	if !fs.Changed("faults") {
		return nil, usagef("--faults: say which faults to inject, e.g. --faults crash,partition (classes: %s; or none)", strings.Join(check.FaultNames(), ", "))
	}
	if f.faultSet, err = check.ParseFaults(f.faults); err != nil {
		return nil, usagef("--faults %s: %v", f.faults, err)
	}
	drift := 0.0
	if fs.Changed("drift") {
		if drift, err = strconv.ParseFloat(f.drift, 64); err != nil || !(drift > 0 && drift < 1-sim.MinRate) {
			return nil, usagef("--drift %s: expected a bound on clock rates' distance from 1, more than 0 and less than %g, e.g. --drift 0.2", f.drift, 1-sim.MinRate)
		}
		if !f.faultSet.Has(check.Drift) {
			return nil, usagef("--drift bounds the drift class's clock rates: add drift to --faults, e.g. --faults drift")
		}
	}
	c, err := check.New(check.Options{Base: cfg, Faults: f.faultSet, Property: property, Runs: runs, DriftBound: drift})
	if err != nil {
		if fs.Changed("run") {
			return nil, usagef("--run %s: %v", rf.runFor, err)
		}
		return nil, usagef("%v", err)
	}
	for _, text := range rf.ats {
		if a, err := scenarios.ParseAt(text, scenarios.NewMembers(cfg.IDs)); err == nil && a.At > c.RunFor() {
			return nil, usagef("--at '%s': %s is after the end of a run (%s); lengthen the runs with --run",
				text, algo.FormatDuration(a.At), human.Seconds(c.RunFor()))
		}
	}
	printWarnings(stderr, cfg.Warnings(), nil)
	return c, nil
}

// checkFound is what a check found: its result, its first failure shrunk and the command that
// reproduces it, and the wall-clock time each took.
type checkFound struct {
	res                check.Result
	cx                 *check.Counterexample // nil: no run broke the property
	reproduce          string                // the command that runs the first failure again
	elapsed, shrinking time.Duration
}

// runCheck runs check c, showing its progress (nil: not shown), and shrinks its first failure;
// repro is the command that reproduces a run, less its seed.
func runCheck(c *check.Check, runs int, progress *report.Progress, repro string) checkFound {
	var found checkFound
	start := time.Now()
	found.res = c.Run(func(done, failed int) {
		progress.Show(func(time.Duration) string { return report.CheckProgressText(done, runs, failed) })
	})
	progress.Hide()
	found.elapsed = time.Since(start)
	if len(found.res.Failures) > 0 {
		start := time.Now()
		first := found.res.Failures[0]
		cx := c.Shrink(first)
		found.cx, found.shrinking = &cx, time.Since(start)
		found.reproduce = reproduceRun(repro, first.Seed)
	}
	return found
}

// write writes the counterexample as a scenario to out (--out path), if there is one, and
// returns the path written; when no run broke property, stderr says there is nothing to write.
func (found *checkFound) write(out *outFile, path, property string, stderr io.Writer) (string, error) {
	switch {
	case out == nil:
		return "", nil
	case found.cx == nil:
		fmt.Fprintf(stderr, "electsim check: no run broke %s, so there is no counterexample; %s was not written\n", property, path)
		return "", nil
	}
	sc, err := found.cx.Scenario(strings.TrimSuffix(filepath.Base(path), ".scn"), found.reproduce)
	if err != nil {
		panic(err.Error()) // a bug: the guard reports it in one line
	}
	if _, err := io.WriteString(out, scenarios.Format(sc)); err != nil {
		return "", fmt.Errorf("--out %s: %w", path, err)
	}
	if err := out.Commit(); err != nil {
		return "", err
	}
	return path, nil
}

// checkBase is the run every schedule of a check is added to: the run flags applied to an
// empty run, on the inline engine unless --engine says otherwise. Its length is --run, else
// the check's own: the fault window and the settle time.
func checkBase(fs *pflag.FlagSet, rf *runFlags) (sim.Config, error) {
	unbounded := scenarios.New("")
	unbounded.RunFor = algo.MaxDuration // the runs' length is checked once it is known
	cfg, err := rf.apply(fs, unbounded)
	if !fs.Changed("run") {
		cfg.RunFor = 0
	}
	if !fs.Changed("engine") {
		cfg.Engine = sim.Inline
	}
	return cfg, err
}

// reproduceCommand is the command line that runs the failing run again — one run, with the
// same seed — and shrinks it the same way: the flags given, with --seed and --runs replaced.
func reproduceCommand(fs *pflag.FlagSet, rf *runFlags, cfg sim.Config, faults check.Faults, property string) string {
	parts := []string{"electsim check", "--algo " + cfg.Algorithm.Name}
	if fs.Changed("ids") {
		parts = append(parts, "--ids "+rf.ids)
	} else if len(cfg.IDs) != scenarios.DefaultNodes {
		parts = append(parts, fmt.Sprintf("--nodes %d", len(cfg.IDs)))
	}
	if fs.Changed("topology") {
		parts = append(parts, "--topology "+rf.topology)
	}
	parts = append(parts, "--faults "+faults.String())
	if fs.Changed("drift") {
		parts = append(parts, "--drift "+fs.Lookup("drift").Value.String())
	}
	if property != sim.AtMostOneLeader {
		parts = append(parts, "--property "+property)
	}
	parts = append(parts, rf.setupFlags(fs)...)
	for _, kv := range rf.sets {
		parts = append(parts, "--set "+kv)
	}
	for _, at := range rf.ats {
		parts = append(parts, "--at '"+at+"'")
	}
	return strings.Join(parts, " ")
}

// setupFlags are the network's flags and --run as given, for a command that reproduces a run.
func (rf *runFlags) setupFlags(fs *pflag.FlagSet) []string {
	var parts []string
	for _, flag := range []struct{ name, value string }{{"delay", rf.delay}, {"drop", rf.drop}, {"fifo", rf.fifo}, {"run", rf.runFor}} {
		if fs.Changed(flag.name) {
			parts = append(parts, "--"+flag.name+" "+flag.value)
		}
	}
	return parts
}

// reproduceRun is reproduce with the seed of one run and --runs 1.
func reproduceRun(repro string, seed uint64) string {
	return fmt.Sprintf("%s --seed %d --runs 1", repro, seed)
}

// --- the matrix -----------------------------------------------------------------------------

func matrixCommand(fs *pflag.FlagSet, rf *runFlags, cf *checkFlags, runs int, stdout, stderr io.Writer, getenv env) error {
	for _, name := range []string{"ids", "set", "at", "faults", "property", "out"} {
		if fs.Changed(name) {
			return usagef("--matrix checks every algorithm (or the one --algo names) under every fault class, each with its property: leave out --%s (or leave out --matrix to check one)", name)
		}
	}
	cfg, err := checkBase(fs, rf)
	if err != nil {
		return err
	}
	var algorithms []*algo.Info // every one's rows, or --algo's
	rows := check.Rows()
	if fs.Changed("algo") {
		algorithms = []*algo.Info{cfg.Algorithm}
		if rows = check.RowsOf(algorithms); len(rows) == 0 {
			return usagef("--algo %s: it declares no rows of the matrix (no Guarantees)", cfg.Algorithm.Name)
		}
	}
	if len(cfg.IDs) < 3 {
		return usagef("--nodes %d: the matrix has rows for lease, which needs at least 3 nodes (4 for two candidates); expected --nodes 4 or more", len(cfg.IDs))
	}
	p := colorFor(stdout, rf.noColor, getenv)
	progress := newProgress(stderr, getenv)
	cells := len(rows) * len(check.Columns())
	start := time.Now()
	m, err := check.MeasureMatrix(check.MatrixOptions{Base: cfg, Algorithms: algorithms, Runs: runs, Progress: func(cell, cells, done int) {
		progress.Show(func(time.Duration) string { return report.MatrixProgressText(cell, cells, done, runs) })
	}})
	progress.Hide()
	if err != nil {
		if fs.Changed("run") {
			return usagef("--run %s: %v", rf.runFor, err)
		}
		return usagef("%v", err)
	}
	elapsed := time.Since(start)
	mx := matrixCommands(fs, rf, m)
	if cf.json {
		if err := report.WriteJSON(stdout, report.MatrixJSONOf(m, cfg, runs, mx, elapsed)); err != nil {
			return err
		}
	} else {
		report.WriteMatrix(stdout, p, m, cfg, runs, mx)
		fmt.Fprintln(stdout)
		fmt.Fprintln(stdout, p.Dim(report.WallClock(cells*runs, elapsed, 0)))
	}
	if !m.Agrees() {
		return failedError{}
	}
	return nil
}

// matrixCommands returns, by row and column, the command that reproduces each failing cell's
// smallest counterexample ("" for a cell that held).
func matrixCommands(fs *pflag.FlagSet, rf *runFlags, m *check.Matrix) [][]string {
	out := make([][]string, len(m.Rows))
	for r, row := range m.Rows {
		out[r] = make([]string, len(m.Columns))
		for col := range m.Columns {
			cell := &m.Cells[r][col]
			if cell.Failure == nil {
				continue
			}
			parts := []string{"electsim check --algo " + row.Algorithm}
			if fs.Changed("nodes") {
				parts = append(parts, "--nodes "+rf.nodes)
			}
			parts = append(parts, "--faults "+cell.Column.Faults.String())
			if row.Property != sim.AtMostOneLeader {
				parts = append(parts, "--property "+row.Property)
			}
			for _, s := range row.Params {
				parts = append(parts, "--set "+s.Key+"="+s.Value)
			}
			parts = append(parts, rf.setupFlags(fs)...)
			out[r][col] = reproduceRun(strings.Join(parts, " "), cell.Failure.Seed)
		}
	}
	return out
}

// openOut opens --out's file for the counterexample, if --out was given: out is nil without it.
// done removes the file unless it was committed, and stops watching for an interrupt.
func (cf *checkFlags) openOut(fs *pflag.FlagSet) (out *outFile, done func(), err error) {
	if !fs.Changed("out") {
		return nil, func() {}, nil
	}
	if cf.out == "-" {
		return nil, nil, usagef("--out -: the report goes to stdout; write the counterexample to a file, e.g. --out counterexample.scn")
	}
	temp := &interrupt.Cleanup{}
	stop := temp.Watch()
	if out, err = createOut("--out", cf.out, temp); err != nil {
		stop()
		return nil, nil, err
	}
	return out, func() { out.Abort(); stop() }, nil
}
