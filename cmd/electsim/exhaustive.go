package main

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/report"
	"electsim/scenarios"
	"electsim/sim"
	"electsim/sim/check"
	"electsim/sim/explore"
)

// exhaustiveFlags are the flags of electsim check --exhaustive.
type exhaustiveFlags struct {
	on                                        bool
	delays, budget, depth, maxStates, workers string
	draws, maxTerm, maxStored                 string
}

func (f *exhaustiveFlags) register(fs *pflag.FlagSet) {
	boolVar(fs, &f.on, "exhaustive", "", "try every schedule within bounds, breadth first, instead of random ones: the shortest counterexample, or a proof within the bounds")
	fs.StringVar(&f.delays, "delays", "", "with --exhaustive: the delays a message may take, e.g. 5ms,15ms (default the bounds of --delay)")
	fs.StringVar(&f.budget, "budget", "", "with --exhaustive: the most fault actions a schedule takes (default 1; 0 with --faults none)")
	fs.StringVar(&f.depth, "depth", "", fmt.Sprintf("with --exhaustive: the most steps (events) a schedule has (default %d)", explore.DefaultDepth))
	fs.StringVar(&f.maxStates, "max-states", "", fmt.Sprintf("with --exhaustive: the most distinct states kept, the memory bound: 10,000,000 peak at about 1.6 GB (default %d)", explore.DefaultMaxStates))
	fs.StringVar(&f.draws, "draws", "", "with --exhaustive: the nodes' random draws: ends (each draw a choice of its range's two ends, the default), ends,middle, or seed (--seed's draws)")
	fs.StringVar(&f.maxTerm, "max-term", "", fmt.Sprintf("with --exhaustive: explore no state past term T (default %d for algorithms with terms; 0: no bound)", explore.DefaultMaxTerm))
	fs.StringVar(&f.maxStored, "max-stored", "", "with --exhaustive: explore no state in which a node keeps a number above N on stable storage (the lease's request numbers; default 0: no bound)")
	fs.StringVar(&f.workers, "workers", "", "with --exhaustive: how many goroutines explore (default: every core); the result is the same")
}

// exhaustiveOnly are the flags that mean something only with --exhaustive.
var exhaustiveOnly = []string{"delays", "budget", "depth", "max-states", "workers", "draws", "max-term", "max-stored"}

// exhaustiveCommand is electsim check --exhaustive.
func exhaustiveCommand(fs *pflag.FlagSet, rf *runFlags, cf *checkFlags, ef *exhaustiveFlags, stdout, stderr io.Writer, getenv env) error {
	for _, name := range []string{"runs", "matrix", "engine", "run"} {
		if fs.Changed(name) {
			return usagef("--%s: --exhaustive tries every schedule up to --depth steps, on the inline engine: leave out --%s", name, name)
		}
	}
	x, err := newExplorer(fs, rf, cf, ef)
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
		report.WriteExhaustiveHeading(stdout, p, x)
	}
	// Many short-lived copies of a run and a large set that lives: collect garbage less often,
	// within a bound on the heap that grows with the states kept — a bound below what they
	// hold would have the collector run without end.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(heapLimit(x.Bounds().MaxStates)))
	progress := newProgress(stderr, getenv)
	start := time.Now()
	e := &report.Exhaustive{Explorer: x, Reproduce: exhaustiveReproduce(fs, rf, cf, ef, x)}
	e.Result = x.Run(func(pr explore.Progress) {
		progress.Show(func(time.Duration) string { return report.ExhaustiveProgressText(pr) })
	})
	progress.Hide()
	e.Elapsed = time.Since(start)
	if cx := e.Result.Counterexample; cx != nil && out != nil {
		sc, err := cx.Scenario(strings.TrimSuffix(filepath.Base(cf.out), ".scn"), e.Reproduce)
		if err != nil {
			panic(err.Error()) // a bug: the guard reports it in one line
		}
		if _, err := io.WriteString(out, scenarios.Format(sc)); err != nil {
			return fmt.Errorf("--out %s: %w", cf.out, err)
		}
		if err := out.Commit(); err != nil {
			return err
		}
		e.Written = cf.out
	} else if out != nil {
		fmt.Fprintf(stderr, "electsim check: no schedule breaks %s, so there is no counterexample; %s was not written\n", x.Property(), cf.out)
	}
	if cf.json {
		if err := report.WriteJSON(stdout, report.ExhaustiveJSONOf(e)); err != nil {
			return err
		}
	} else {
		report.WriteExhaustive(stdout, p, e)
		fmt.Fprintln(stdout)
		fmt.Fprintln(stdout, p.Dim(report.ExhaustiveWallClock(e)))
	}
	if e.Result.Counterexample != nil {
		return failedError{}
	}
	return nil
}

// newExplorer prepares the exploration the flags describe.
func newExplorer(fs *pflag.FlagSet, rf *runFlags, cf *checkFlags, ef *exhaustiveFlags) (*explore.Explorer, error) {
	cfg, err := checkBase(fs, rf)
	if err != nil {
		return nil, err
	}
	opts := explore.Options{Base: cfg} // its first safety property: at-most-one-leader, mostly
	if fs.Changed("property") {
		opts.Property = cf.property
	}
	if !fs.Changed("faults") {
		return nil, usagef("--faults: say which faults a schedule may take, e.g. --faults crash,partition (classes: crash, recover, partition, delay, pause, loss; or none)")
	}
	if opts.Faults, err = check.ParseFaults(cf.faults); err != nil {
		return nil, usagef("--faults %s: %v", cf.faults, err)
	}
	if opts.Faults != check.None {
		opts.Budget = 1
	}
	ints := []struct {
		name string
		text string
		min  int64
		max  int64
		eg   string // an example value
		into func(int64)
	}{
		{"budget", ef.budget, 0, 100, "2", func(v int64) { opts.Budget = int(v) }},
		{"depth", ef.depth, 1, 10_000, "60", func(v int64) { opts.Depth = int(v) }},
		{"max-states", ef.maxStates, 1, 1 << 31, "1000000", func(v int64) { opts.MaxStates = v }},
		{"workers", ef.workers, 1, 1024, "2", func(v int64) { opts.Workers = int(v) }},
		{"max-term", ef.maxTerm, 0, 1 << 31, "4", func(v int64) { opts.MaxTerm = uint64(v); opts.TermBound = true }},
		{"max-stored", ef.maxStored, 0, 1 << 31, "6", func(v int64) { opts.MaxStored = uint64(v) }},
	}
	for _, f := range ints {
		if !fs.Changed(f.name) {
			continue
		}
		v, err := strconv.ParseInt(strings.ReplaceAll(f.text, ",", ""), 10, 64)
		if err != nil || v < f.min || v > f.max {
			return nil, usagef("--%s %s: expected a whole number from %d to %s, e.g. --%s %s", f.name, f.text, f.min, human.Thousands(f.max), f.name, f.eg)
		}
		f.into(v)
	}
	if fs.Changed("delays") {
		for _, word := range strings.Split(ef.delays, ",") {
			d, err := algo.ParseDuration(strings.TrimSpace(word))
			if err != nil {
				return nil, usagef("--delays %s: %v; give durations separated by commas, e.g. --delays 5ms,15ms", ef.delays, err)
			}
			opts.Delays = append(opts.Delays, d)
		}
	}
	if fs.Changed("draws") {
		if opts.Draws, err = explore.ParseDraws(ef.draws); err != nil {
			return nil, usagef("--draws %s: %v", ef.draws, err)
		}
	}
	x, err := explore.New(opts)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return x, nil
}

// exhaustiveReproduce is the command line that runs the exploration again: it finds the same
// counterexample.
func exhaustiveReproduce(fs *pflag.FlagSet, rf *runFlags, cf *checkFlags, ef *exhaustiveFlags, x *explore.Explorer) string {
	cfg, b := x.Base(), x.Bounds()
	parts := []string{"electsim check --exhaustive", "--algo " + cfg.Algorithm.Name}
	if fs.Changed("ids") {
		parts = append(parts, "--ids "+rf.ids)
	} else if len(cfg.IDs) != scenarios.DefaultNodes {
		parts = append(parts, fmt.Sprintf("--nodes %d", len(cfg.IDs)))
	}
	parts = append(parts, "--faults "+b.Faults.String(), fmt.Sprintf("--budget %d", b.Budget))
	if x.Property() != sim.AtMostOneLeader {
		parts = append(parts, "--property "+x.Property())
	}
	for _, flag := range []struct{ name, value string }{{"delays", ef.delays}, {"depth", ef.depth}, {"max-states", ef.maxStates}, {"draws", ef.draws}, {"max-term", ef.maxTerm}, {"max-stored", ef.maxStored}} {
		if fs.Changed(flag.name) {
			parts = append(parts, "--"+flag.name+" "+flag.value)
		}
	}
	parts = append(parts, rf.setupFlags(fs)...)
	for _, kv := range rf.sets {
		parts = append(parts, "--set "+kv)
	}
	for _, at := range rf.ats {
		parts = append(parts, "--at '"+at+"'")
	}
	if fs.Changed("seed") {
		parts = append(parts, fmt.Sprintf("--seed %d", cfg.Seed))
	}
	return strings.Join(parts, " ")
}

// heapLimit is the soft bound on the heap while an exploration keeps at most states distinct
// states: 1.5 GB (docs/properties.md, "Measured"), or, if more, what the set and the tree hold
// at their peak as they grow (80 bytes a state) and 0.7 GB for the replays' garbage — more
// from about 10,700,000 states. Below that the collector would run without end.
func heapLimit(states int64) int64 {
	return max(1536<<20, states*80+700<<20)
}
