package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/internal/interrupt"
	"electsim/report"
	"electsim/report/diagram"
	"electsim/sim"
	"electsim/sim/bench"
)

// benchFlags are the flags of electsim bench, as given.
type benchFlags struct {
	algos, nodes, engine, seed, budget, procs, svg string
	json, noColor                                  bool
	worst                                          bool // a child measuring the worst-case ids
}

func (f *benchFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.algos, "algo", "ring", "algorithms, comma-separated: "+strings.Join(bench.Algorithms(), ", "))
	fs.StringVar(&f.nodes, "nodes", "", "node counts, comma-separated, e.g. 1000,10000,100000 (default: per algorithm, up to what runs in seconds)")
	fs.StringVar(&f.engine, "engine", "both", "goroutine, inline or both")
	fs.StringVar(&f.seed, "seed", "1", "seed of the ring's random ids and every other random choice")
	fs.StringVar(&f.budget, "max-messages", "20000000", "give up on a run that sends more messages than this before a leader is agreed")
	fs.StringVar(&f.procs, "procs", "", "GOMAXPROCS for the runs (default: 1 for the goroutine engine, which runs one goroutine at a time, and the machine's for inline)")
	fs.StringVar(&f.svg, "svg", "", "also draw the Bully and ring message counts against the theory, on log–log axes, as an SVG `FILE`")
	boolVar(fs, &f.json, "json", "", "print the results as one JSON object on stdout, and no table")
	boolVar(fs, &f.noColor, "no-color", "", "no colour (also when NO_COLOR is set)")
	boolVar(fs, &f.worst, "worst", "", "measure the worst-case ring order of ids the algorithm's theory gives")
	_ = fs.MarkHidden("worst") // the parent passes it to a child; bench measures both orders itself
}

func benchUsage(fs *pflag.FlagSet) func(io.Writer) {
	return func(w io.Writer) {
		fmt.Fprintf(w, `Usage: electsim bench [flags]

Runs one election from boot per algorithm, node count and engine, with the trace off, and
reports its messages by kind beside the theory's count, the virtual time to the agreed leader,
the wall time, delivered messages per second and the memory it took:

  bully      nodes 1..n, 10ms per message, the top node down from time 0: every other node
             boots into an election (theory: n(n−1)/2 ELECTION, (n−1)(n−2)/2 OK, n−1 COORDINATOR)
  ring       Chang–Roberts: the ids in a random ring order, every node initiating, no ACKs
             (theory: the exact count of that ring, and n·H_n on average)
  lowest-id  to the first agreed leader
  raft       to the first agreed leader

Heartbeats and follower timeouts are stretched past the election, which is what is measured.
Counts depend only on the algorithm, the node count and the seed; times and memory are this
machine's. Exit status 1 when a count differs from its theory.

Flags:
%s
Examples:
  electsim bench
  electsim bench --algo ring --nodes 1000,10000,100000 --engine inline
  electsim bench --algo bully,ring --nodes 1000 --json
  electsim bench --algo bully,ring --nodes 10,100,1k,10k,100k --engine inline --svg counts.svg
`, fs.FlagUsages())
	}
}

// benchPlan is what a bench measures: the flags parsed.
type benchPlan struct {
	names       []string         // algorithms, in the order given
	sizes       map[string][]int // node counts, by algorithm
	engines     []sim.Engine
	seed        uint64
	maxMessages int64
	procs       int // GOMAXPROCS for every run; 0: each engine's default (see procsFor)
	worst       bool
}

// maxProcs bounds --procs: GOMAXPROCS beyond a few hundred measures nothing but the runtime's
// threads.
const maxProcs = 256

// plan parses the flags into what the bench measures.
func (f *benchFlags) plan(fs *pflag.FlagSet) (benchPlan, error) {
	var b benchPlan
	var err error
	if b.names, err = benchAlgorithms(f.algos); err != nil {
		return b, err
	}
	switch f.engine {
	case "both":
		b.engines = []sim.Engine{sim.Goroutine, sim.Inline}
	case "goroutine":
		b.engines = []sim.Engine{sim.Goroutine}
	case "inline":
		b.engines = []sim.Engine{sim.Inline}
	default:
		return b, usagef("--engine %s: expected goroutine, inline or both", f.engine)
	}
	if b.seed, err = strconv.ParseUint(f.seed, 10, 64); err != nil {
		return b, usagef("--seed %s: expected a whole number, 0 or more", f.seed)
	}
	if b.maxMessages, err = parseCount(f.budget); err != nil || b.maxMessages <= 0 {
		return b, usagef("--max-messages %s: expected a positive whole number, e.g. 20000000 or 20m", f.budget)
	}
	if fs.Changed("procs") {
		n, err := strconv.Atoi(f.procs)
		if err != nil || n < 1 || n > maxProcs {
			return b, usagef("--procs %s: expected a number of processors from 1 to %d (this machine has %d)", f.procs, maxProcs, runtime.NumCPU())
		}
		b.procs = n
	}
	b.worst = f.worst
	b.sizes = map[string][]int{}
	for _, name := range b.names {
		b.sizes[name] = bench.DefaultSizes(name)
		if fs.Changed("nodes") {
			if b.sizes[name], err = parseSizes(f.nodes); err != nil {
				return b, err
			}
		}
	}
	return b, nil
}

// procsFor is GOMAXPROCS for a run on engine e: --procs, or 1 for the goroutine engine (it runs
// one goroutine at a time) and the machine's for inline.
func (b *benchPlan) procsFor(e sim.Engine) int {
	switch {
	case b.procs > 0:
		return b.procs
	case e == sim.Goroutine:
		return 1
	}
	return runtime.GOMAXPROCS(0)
}

// benchCommand runs one election per algorithm, size and engine and reports its cost.
func benchCommand(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlagSet("bench")
	var f benchFlags
	f.register(fs)
	if help, err := parseFlags(fs, args, stdout, benchUsage(fs)); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (see -h)", fs.Arg(0))
	}
	b, err := f.plan(fs)
	if err != nil {
		return err
	}
	if getenv(benchChildEnv) != "" {
		return measureChild(&b, stdout, stderr)
	}
	if fs.Changed("svg") && !slices.ContainsFunc(b.names, func(n string) bool { return n == "bully" || n == "ring" }) {
		return usagef("--svg %s: the plot shows Bully's and the ring's counts; add bully or ring to --algo", f.svg)
	}

	// Interrupted, bench kills the child measuring and removes the plot in progress.
	cl := &interrupt.Cleanup{}
	stop := cl.Watch()
	defer stop()
	var plot *outFile
	if fs.Changed("svg") {
		if f.svg == "-" {
			return usagef("--svg -: write the plot to a file; stdout has the table")
		}
		if plot, err = createOut("--svg", f.svg, cl); err != nil {
			return err
		}
		defer plot.Abort()
	}

	p := colorFor(stdout, f.noColor, getenv)
	results, err := measureAll(&b, f.json, stdout, stderr, p, cl)
	if err != nil {
		return err
	}
	if plot != nil {
		if err := diagram.PlotCounts(plot, results); err != nil {
			return fmt.Errorf("--svg %s: %w", f.svg, err)
		}
		if err := plot.Commit(); err != nil {
			return fmt.Errorf("--svg %s: %w", f.svg, err)
		}
	}
	if f.json {
		if err := report.WriteBenchJSON(stdout, results); err != nil {
			return err
		}
		return benchVerdict(stderr, p, results, true)
	}
	report.WriteBenchFootnote(stdout, p)
	return benchVerdict(stdout, p, results, false)
}

// measureAll measures every election of plan b, each in a child process, and — unless asJSON —
// prints each algorithm's table as its runs are done.
func measureAll(b *benchPlan, asJSON bool, stdout, stderr io.Writer, p report.Palette, cl *interrupt.Cleanup) ([]bench.Result, error) {
	var results []bench.Result
	if !asJSON {
		report.WriteBenchHeading(stdout, p)
	}
	for _, name := range b.names {
		if !asJSON {
			report.WriteBenchTitle(stdout, p, name)
		}
		var rows []bench.Result
		orders := []bool{false}
		if info, err := algo.Lookup(name); err == nil && info.Theory != nil && info.Theory.WorstIDs != nil {
			orders = append(orders, true) // random rings, and the theory's worst case
		}
		for _, n := range b.sizes[name] {
			for _, worst := range orders {
				for _, e := range b.engines {
					r, err := measureAlone(name, n, b.seed, e, worst, b.maxMessages, b.procsFor(e), stderr, cl)
					if err != nil {
						return nil, err
					}
					rows = append(rows, r)
					results = append(results, r)
				}
			}
		}
		if !asJSON {
			report.WriteBenchTable(stdout, p, rows)
		}
	}
	return results, nil
}

// measureChild is a child of a bench: it measures the one election of plan b in this process
// and prints it as JSON.
func measureChild(b *benchPlan, stdout, stderr io.Writer) error {
	if len(b.names) != 1 || len(b.sizes[b.names[0]]) != 1 || len(b.engines) != 1 {
		return fmt.Errorf("a bench child measures one algorithm, size and engine")
	}
	name, n, e := b.names[0], b.sizes[b.names[0]][0], b.engines[0]
	o := bench.Options{MaxMessages: b.maxMessages, Worst: b.worst}
	if isTerminal(stderr) {
		line := report.NewProgress(stderr, time.Now, 0)
		o.Progress = func(virtual time.Duration, sent int64) {
			line.Show(func(elapsed time.Duration) string {
				return report.MeasureProgressText(name, n, e, virtual, sent, elapsed)
			})
		}
	}
	r, err := bench.Measure(name, n, b.seed, e, o)
	if isTerminal(stderr) {
		fmt.Fprint(stderr, "\r\x1b[K")
	}
	if err != nil {
		return usagef("--nodes %d: %v", n, err)
	}
	r.Procs = runtime.GOMAXPROCS(0)
	return json.NewEncoder(stdout).Encode(r)
}

// benchVerdict says which counts differ from their theory, if any — after the table, or on
// stderr after the JSON — and then returns failedError (exit 1).
func benchVerdict(w io.Writer, p report.Palette, results []bench.Result, asJSON bool) error {
	misses := report.BenchMisses(results)
	switch {
	case len(misses) == 0:
		return nil
	case asJSON:
		fmt.Fprintf(w, "electsim bench: a count differs from the theory: %s\n", strings.Join(misses, "; "))
	default:
		report.WriteBenchMisses(w, p, misses)
	}
	return failedError{}
}

// benchChildEnv makes `electsim bench` a child that measures one election and prints it as
// JSON: the parent runs every measurement in a process of its own, so that what one run leaves
// in memory — the Go runtime keeps freed memory for a while — does not count in the next.
const benchChildEnv = "ELECTSIM_BENCH_CHILD"

// measureAlone measures one election in a child process with GOMAXPROCS procs, which dies
// with bench (see interrupt.Cleanup.Run). Progress, on a terminal, is the child's to draw on
// stderr.
func measureAlone(name string, n int, seed uint64, e sim.Engine, worst bool, maxMsgs int64, procs int, stderr io.Writer, cl *interrupt.Cleanup) (bench.Result, error) {
	exe, err := os.Executable()
	if err != nil {
		return bench.Result{}, fmt.Errorf("bench runs each measurement in a process of its own, but cannot find its own program: %w", err)
	}
	cmd := exec.Command(exe, "bench", "--algo", name, "--nodes", strconv.Itoa(n), "--engine", e.String(),
		"--seed", strconv.FormatUint(seed, 10), "--max-messages", strconv.FormatInt(maxMsgs, 10))
	if worst {
		cmd.Args = append(cmd.Args, "--worst")
	}
	cmd.Env = append(os.Environ(), benchChildEnv+"=1", "GOMAXPROCS="+strconv.Itoa(procs))
	cmd.Stderr = stderr
	var out bytes.Buffer
	cmd.Stdout = &out
	what := fmt.Sprintf("measuring %s among %s nodes on the %s engine", name, human.Thousands(int64(n)), e)
	switch err := cl.Run(cmd); {
	case err != nil && cmd.Process == nil:
		return bench.Result{}, fmt.Errorf("%s: cannot start: %w", what, err)
	case err != nil:
		return bench.Result{}, fmt.Errorf("%s failed: %w", what, err)
	}
	var r bench.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		return bench.Result{}, fmt.Errorf("%s: unreadable result: %w", what, err)
	}
	return r, nil
}

// benchAlgorithms parses --algo.
func benchAlgorithms(list string) ([]string, error) {
	var names []string
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains(bench.Algorithms(), name) {
			if _, err := algo.Lookup(name); err == nil {
				return nil, usagef("--algo %s: bench has no election defined for %s (it has %s)", name, name, strings.Join(bench.Algorithms(), ", "))
			}
			return nil, usagef("--algo %s: unknown algorithm %q (expected %s)", list, name, strings.Join(bench.Algorithms(), ", "))
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names, nil
}

// parseSizes parses a --nodes list such as 1000,10000,100000 (or 1k,10k,100k).
func parseSizes(list string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(list, ",") {
		n, err := parseCount(strings.TrimSpace(f))
		if err != nil || n < 2 || n > 1_000_000 {
			return nil, usagef("--nodes %s: expected node counts from 2 to 1000000, comma-separated, e.g. 1000,10000,100000 or 1k,10k,100k", list)
		}
		sizes = append(sizes, int(n))
	}
	return sizes, nil
}

// parseCount reads a whole number, with an optional k (thousand) or m (million) and commas:
// 20000000, 20,000,000, 20m.
func parseCount(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "k"), strings.HasSuffix(s, "K"):
		s, mult = s[:len(s)-1], 1_000
	case strings.HasSuffix(s, "m"), strings.HasSuffix(s, "M"):
		s, mult = s[:len(s)-1], 1_000_000
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	if err != nil || n > (1<<62)/mult {
		return 0, fmt.Errorf("not a count: %q", s)
	}
	return n * mult, nil
}

func isTerminal(w io.Writer) bool {
	f, ok := fileOf(w)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
