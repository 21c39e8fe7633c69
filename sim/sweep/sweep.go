package sweep

import (
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// Options configure a sweep.
type Options struct {
	// Base is every run: the algorithm, its nodes and other parameters, the network, the
	// actions (faults), the run's length and engine. Its Seed is the first run's of each value.
	Base    sim.Config
	Param   string       // the parameter varied: one of the algorithm's
	Values  []algo.Value // its values, in the order measured
	Labels  []string     // each value as the user writes it: "60ms"
	Runs    int          // runs per value
	Workers int          // runs at once; 0: one per CPU
}

// Stat is a measure over samples: its mean and its 95th percentile (the nearest rank: the
// smallest sample at least 95% of the samples are no larger than). N is the number of samples;
// with none, Mean and P95 are 0 and mean nothing.
type Stat struct {
	Mean, P95 float64
	N         int
}

// Row is what the runs of one value measured.
type Row struct {
	Value string
	// FalseSuspicions is per run: elections started while the leader was alive and reachable
	// (see FalseSuspicion).
	FalseSuspicions Stat
	// Recovery is per leader crash, in milliseconds: from the crash until every live node
	// names one live leader again. Crashes counts the leaders that crashed in all runs;
	// Unrecovered, those after which no leader was agreed by the end of the run.
	Recovery             Stat
	Crashes, Unrecovered int
	Leaderless           Stat // per run, milliseconds without an agreed leader
	SplitBrain           Stat // per run, milliseconds with two or more leaders
	// PerSecond is the mean over runs of the messages sent per second of virtual time, by kind,
	// parallel to Result.Kinds.
	PerSecond []float64
}

// Result is a sweep's table: one row per value, in order.
type Result struct {
	Algorithm, Param string
	Runs             int
	Kinds            []string // the algorithm's message kinds
	Rows             []Row
}

// Seed returns the seed of run k (from 0) of every value: the first run's seed plus k. Each value
// is run with the same seeds — the same delays drawn, the same losses — so that the rows differ
// by the parameter alone, as far as the runs let them.
func Seed(first uint64, k int) uint64 { return first + uint64(k) }

// Run measures every value's runs, Workers at a time; progress, if not nil, is called on the
// calling goroutine after each run with the runs done and the runs in all. The result is the
// same whatever the number of workers. It errors, before running anything, when a value does
// not make a run (the parameter unknown, the config invalid).
func Run(opts Options, progress func(done, total int)) (*Result, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	total := len(opts.Values) * opts.Runs
	stats := make([]runStats, total)
	jobs := make(chan int)
	done := make(chan int)
	var failed error
	var mu sync.Mutex
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for range min(workers, total) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				st, err := measure(opts.config(j/opts.Runs, j%opts.Runs))
				if err != nil {
					mu.Lock()
					failed = err
					mu.Unlock()
				}
				stats[j] = st
				done <- j
			}
		}()
	}
	go func() {
		for j := range total {
			jobs <- j
		}
		close(jobs)
	}()
	for n := 1; n <= total; n++ {
		<-done
		if progress != nil {
			progress(n, total)
		}
	}
	wg.Wait()
	if failed != nil {
		return nil, failed
	}
	res := &Result{Algorithm: opts.Base.Algorithm.Name, Param: opts.Param, Runs: opts.Runs, Kinds: slices.Clone(opts.Base.Algorithm.Kinds)}
	for v := range opts.Values {
		res.Rows = append(res.Rows, summarize(opts.Labels[v], res.Kinds, stats[v*opts.Runs:(v+1)*opts.Runs]))
	}
	return res, nil
}

// validate checks the options, and that every value makes a run.
func (o *Options) validate() error {
	if o.Base.Algorithm == nil {
		return fmt.Errorf("sweep: no algorithm")
	}
	if _, ok := o.Base.Algorithm.Param(o.Param); !ok {
		return fmt.Errorf("%s has no parameter %q (its parameters are %v)", o.Base.Algorithm.Name, o.Param, o.Base.Algorithm.ParamKeys())
	}
	if len(o.Values) == 0 || len(o.Labels) != len(o.Values) {
		return fmt.Errorf("sweep: %d values and %d labels", len(o.Values), len(o.Labels))
	}
	if o.Runs < 1 {
		return fmt.Errorf("sweep: %d runs a value", o.Runs)
	}
	for v := range o.Values {
		cfg := o.config(v, 0)
		if err := cfg.Validate(); err != nil {
			return fmt.Errorf("%s=%s: %w", o.Param, o.Labels[v], err)
		}
	}
	return nil
}

// config is run k of value v: the base with the value set and its own seed, traced.
func (o *Options) config(v, k int) sim.Config {
	cfg := o.Base
	cfg.Params = maps.Clone(o.Base.Params)
	if cfg.Params == nil {
		cfg.Params = algo.Params{}
	}
	cfg.Params[o.Param] = o.Values[v]
	cfg.Seed = Seed(o.Base.Seed, k)
	cfg.Trace = true
	return cfg
}

// runStats is what one run measured.
type runStats struct {
	falseSuspicions int
	crashes         int // leaders that crashed
	recoveries      []time.Duration
	leaderless      time.Duration
	splitBrain      time.Duration
	end             time.Duration
	sent            []int64 // by kind, in the algorithm's order
}

// FalseSuspicion is the definition a sweep counts by (docs/teaching.md, "Tuning the failure
// detector"): in a step where one of node N's own timers fired — its failure detector, not a
// message from another node drawing it into an election — N gives up the leader L it named
// (it becomes a candidate, or leads, or names another leader) while L is alive and leading,
// neither crashed nor paused, and a message from L to N would get through the partitions and cut
// links in force. Loss and delay do not make L unreachable: a heartbeat that is late or lost is
// the very thing a false suspicion is about. r is N's state record in the step; timer, the node
// whose timer the step is (0: none); believed, the leader N named before; leaderStatus, L's
// status before the step.
func FalseSuspicion(s *sim.Sim, r *sim.Record, timer, believed algo.ID, leaderStatus sim.Status) bool {
	if r.Type != sim.RecState || r.Node != timer || believed == 0 || believed == r.Node {
		return false
	}
	gaveUp := r.New == sim.Candidate || r.New == sim.Leader || r.Leader != believed
	return gaveUp && r.New != sim.Crashed && r.New != sim.Paused && leaderStatus == sim.Leader && s.Reachable(believed, r.Node)
}

// measure runs cfg to its end and measures it.
func measure(cfg sim.Config) (runStats, error) {
	s, err := sim.New(cfg)
	if err != nil {
		return runStats{}, err
	}
	defer s.Close()
	var st runStats
	status := map[algo.ID]sim.Status{}
	belief := map[algo.ID]algo.ID{}
	for {
		step, ok := s.Step()
		if !ok {
			break
		}
		var timer algo.ID
		if len(step.Records) > 0 && step.Records[0].Type == sim.RecTimer {
			timer = step.Records[0].Node
		}
		for i := range step.Records {
			r := &step.Records[i]
			if r.Type != sim.RecState {
				continue
			}
			if FalseSuspicion(s, r, timer, belief[r.Node], status[belief[r.Node]]) {
				st.falseSuspicions++
			}
			if r.Old == sim.Leader && r.New == sim.Crashed {
				st.crashes++
			}
			status[r.Node] = r.New
			if r.New != sim.Crashed && r.New != sim.Paused {
				belief[r.Node] = r.Leader
			} else if r.New == sim.Crashed {
				belief[r.Node] = 0
			}
		}
	}
	sum := s.Summary()
	st.recoveries = sum.Recoveries
	st.leaderless, st.splitBrain, st.end = sum.Leaderless, sum.SplitBrain, sum.End
	for _, kind := range cfg.Algorithm.Kinds {
		sent, _, _ := sum.Count(kind)
		st.sent = append(st.sent, sent)
	}
	return st, nil
}

// summarize is the row of one value's runs.
func summarize(label string, kinds []string, runs []runStats) Row {
	row := Row{Value: label, PerSecond: make([]float64, len(kinds))}
	var susp, recovery, leaderless, split []float64
	for _, st := range runs {
		susp = append(susp, float64(st.falseSuspicions))
		for _, d := range st.recoveries {
			recovery = append(recovery, millis(d))
		}
		row.Crashes += st.crashes
		row.Unrecovered += max(st.crashes-len(st.recoveries), 0)
		leaderless = append(leaderless, millis(st.leaderless))
		split = append(split, millis(st.splitBrain))
		if secs := st.end.Seconds(); secs > 0 {
			for k := range kinds {
				if k < len(st.sent) {
					row.PerSecond[k] += float64(st.sent[k]) / secs / float64(len(runs))
				}
			}
		}
	}
	row.FalseSuspicions, row.Recovery = stat(susp), stat(recovery)
	row.Leaderless, row.SplitBrain = stat(leaderless), stat(split)
	return row
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// stat is the mean and the nearest-rank 95th percentile of samples.
func stat(samples []float64) Stat {
	if len(samples) == 0 {
		return Stat{}
	}
	sorted := slices.Clone(samples)
	slices.Sort(sorted)
	var total float64
	for _, v := range sorted {
		total += v
	}
	rank := int(math.Ceil(0.95*float64(len(sorted)))) - 1
	return Stat{Mean: total / float64(len(sorted)), P95: sorted[max(rank, 0)], N: len(sorted)}
}
