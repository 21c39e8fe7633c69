package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/report"
	"electsim/report/diagram"
	"electsim/sim"
	"electsim/sim/bench"
)

// benchCommand runs one election per algorithm, size and engine and reports its cost.
func benchCommand(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlagSet("bench")
	algos := fs.String("algo", "ring", "algorithms, comma-separated: "+strings.Join(bench.Algorithms(), ", "))
	nodes := fs.String("nodes", "", "node counts, comma-separated, e.g. 1000,10000,100000 (default: per algorithm, up to what runs in seconds)")
	engine := fs.String("engine", "both", "goroutine, inline or both")
	seed := fs.String("seed", "1", "seed of the ring's random ids and every other random choice")
	budget := fs.String("max-messages", "20000000", "give up on a run that sends more messages than this before a leader is agreed")
	procs := fs.String("procs", "", "GOMAXPROCS for the runs (default: 1 for the goroutine engine, which runs one goroutine at a time, and the machine's for inline)")
	svg := fs.String("svg", "", "also draw the Bully and ring message counts against the theory, on log–log axes, as an SVG `FILE`")
	var asJSON, noColor bool
	boolVar(fs, &asJSON, "json", "", "print the results as one JSON object on stdout, and no table")
	boolVar(fs, &noColor, "no-color", "", "no colour (also when NO_COLOR is set)")
	usage := func(w io.Writer) {
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
	if help, err := parseFlags(fs, args, stdout, usage); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (see -h)", fs.Arg(0))
	}
	names, err := benchAlgorithms(*algos)
	if err != nil {
		return err
	}
	var engines []sim.Engine
	switch *engine {
	case "both":
		engines = []sim.Engine{sim.Goroutine, sim.Inline}
	case "goroutine":
		engines = []sim.Engine{sim.Goroutine}
	case "inline":
		engines = []sim.Engine{sim.Inline}
	default:
		return usagef("--engine %s: expected goroutine, inline or both", *engine)
	}
	s, err := strconv.ParseUint(*seed, 10, 64)
	if err != nil {
		return usagef("--seed %s: expected a whole number, 0 or more", *seed)
	}
	maxMsgs, err := parseCount(*budget)
	if err != nil || maxMsgs <= 0 {
		return usagef("--max-messages %s: expected a positive whole number, e.g. 20000000 or 20m", *budget)
	}
	// GOMAXPROCS beyond a few hundred measures nothing but the runtime's threads.
	const maxProcs = 256
	procsFor := func(e sim.Engine) int {
		if e == sim.Goroutine {
			return 1
		}
		return runtime.GOMAXPROCS(0)
	}
	if fs.Changed("procs") {
		n, err := strconv.Atoi(*procs)
		if err != nil || n < 1 || n > maxProcs {
			return usagef("--procs %s: expected a number of processors from 1 to %d (this machine has %d)", *procs, maxProcs, runtime.NumCPU())
		}
		procsFor = func(sim.Engine) int { return n }
	}
	sizes := map[string][]int{}
	for _, name := range names {
		sizes[name] = bench.DefaultSizes(name)
		if fs.Changed("nodes") {
			if sizes[name], err = parseSizes(*nodes); err != nil {
				return err
			}
		}
	}

	if getenv(benchChildEnv) != "" {
		// A child of a bench: one election, measured alone in this process.
		if len(names) != 1 || len(sizes[names[0]]) != 1 || len(engines) != 1 {
			return fmt.Errorf("a bench child measures one algorithm, size and engine")
		}
		name, n, e := names[0], sizes[names[0]][0], engines[0]
		o := bench.Options{MaxMessages: maxMsgs}
		if isTerminal(stderr) {
			o.Progress = progressLine(stderr, name, n, e)
		}
		r, err := bench.Measure(name, n, s, e, o)
		if isTerminal(stderr) {
			fmt.Fprint(stderr, "\r\x1b[K")
		}
		if err != nil {
			return usagef("--nodes %d: %v", n, err)
		}
		r.Procs = runtime.GOMAXPROCS(0)
		return json.NewEncoder(stdout).Encode(r)
	}
	if fs.Changed("svg") && !slices.ContainsFunc(names, func(n string) bool { return n == "bully" || n == "ring" }) {
		return usagef("--svg %s: the plot shows Bully's and the ring's counts; add bully or ring to --algo", *svg)
	}

	// Interrupted, bench kills the child measuring and removes the plot in progress.
	cl := &cleanup{}
	stop := cl.onInterrupt()
	defer stop()
	var plot *outFile
	if fs.Changed("svg") {
		if *svg == "-" {
			return usagef("--svg -: write the plot to a file; stdout has the table")
		}
		if plot, err = createOut("--svg", *svg, cl); err != nil {
			return err
		}
		defer plot.Abort()
	}

	p := colorFor(stdout, noColor, getenv)
	var results []bench.Result
	if !asJSON {
		report.WriteBenchHeading(stdout, p)
	}
	for _, name := range names {
		if !asJSON {
			report.WriteBenchTitle(stdout, p, name)
		}
		var rows []bench.Result
		for _, n := range sizes[name] {
			for _, e := range engines {
				r, err := measureAlone(name, n, s, e, maxMsgs, procsFor(e), stderr, cl)
				if err != nil {
					return err
				}
				rows = append(rows, r)
				results = append(results, r)
			}
		}
		if !asJSON {
			report.WriteBenchTable(stdout, p, rows)
		}
	}
	if plot != nil {
		if err := diagram.PlotCounts(plot, results); err != nil {
			return fmt.Errorf("--svg %s: %v", *svg, err)
		}
		if err := plot.Commit(); err != nil {
			return fmt.Errorf("--svg %s: %v", *svg, err)
		}
	}
	if asJSON {
		if err := report.WriteBenchJSON(stdout, results); err != nil {
			return err
		}
		return benchVerdict(stderr, p, results, true)
	}
	report.WriteBenchFootnote(stdout, p)
	return benchVerdict(stdout, p, results, false)
}

// benchVerdict says which counts differ from their theory, if any — after the table, or on
// stderr after the JSON — and then returns failedError (exit 1).
func benchVerdict(w io.Writer, p palette, results []bench.Result, asJSON bool) error {
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

// measureAlone measures one election in a child process with GOMAXPROCS procs. Progress, on a
// terminal, is the child's to draw on stderr. The child dies with bench: killed if bench is
// interrupted (cl), and, on Linux, at once if bench dies any other way, even by SIGKILL (see
// childDies). A child ended by an interrupt — ctrl+c reaches it with bench — ends bench as
// the interrupt would.
func measureAlone(name string, n int, seed uint64, e sim.Engine, maxMsgs int64, procs int, stderr io.Writer, cl *cleanup) (bench.Result, error) {
	exe, err := os.Executable()
	if err != nil {
		return bench.Result{}, fmt.Errorf("bench runs each measurement in a process of its own, but cannot find its own program: %v", err)
	}
	cmd := exec.Command(exe, "bench", "--algo", name, "--nodes", strconv.Itoa(n), "--engine", e.String(),
		"--seed", strconv.FormatUint(seed, 10), "--max-messages", strconv.FormatInt(maxMsgs, 10))
	cmd.Env = append(os.Environ(), benchChildEnv+"=1", "GOMAXPROCS="+strconv.Itoa(procs))
	cmd.Stderr = stderr
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.SysProcAttr = childDies()
	// The parent-death signal is tied to the thread that starts the child: that thread must
	// live as long as the child does.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cmd.Start(); err != nil {
		return bench.Result{}, fmt.Errorf("measuring %s among %s nodes on the %s engine: cannot start: %v", name, human.Thousands(int64(n)), e, err)
	}
	cl.addChild(cmd.Process)
	err = cmd.Wait()
	cl.forgetChild(cmd.Process)
	if s, ok := interruptedBy(err); ok {
		cl.exit(s)
	}
	if err != nil {
		return bench.Result{}, fmt.Errorf("measuring %s among %s nodes on the %s engine failed: %v", name, human.Thousands(int64(n)), e, err)
	}
	var r bench.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		return bench.Result{}, fmt.Errorf("measuring %s among %s nodes on the %s engine: unreadable result: %v", name, human.Thousands(int64(n)), e, err)
	}
	return r, nil
}

// interruptedBy reports whether a child's error says it was ended by an interrupt, a
// termination or a hang-up, and which.
func interruptedBy(err error) (syscall.Signal, bool) {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 0, false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return 0, false
	}
	switch s := ws.Signal(); s {
	case syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP:
		return s, true
	}
	return 0, false
}

// progressLine returns a progress report that redraws one line on w.
func progressLine(w io.Writer, name string, n int, e sim.Engine) func(time.Duration, int64) {
	label := fmt.Sprintf("  %s · %s nodes · %s engine", name, human.Thousands(int64(n)), e)
	start := time.Now()
	var last time.Time
	return func(virtual time.Duration, sent int64) {
		if time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		fmt.Fprintf(w, "\r\x1b[K%s … %s messages, %s virtual, %.1fs", label, human.Thousands(sent),
			algo.FormatDuration(virtual), time.Since(start).Seconds())
	}
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
