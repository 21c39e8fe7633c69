package bench

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/sim"
)

// Result is one measured election.
type Result struct {
	Algorithm string
	Nodes     int
	Engine    sim.Engine
	Seed      uint64
	Procs     int // GOMAXPROCS during the run, as the caller set it

	Kinds     []string // the algorithm's message kinds, and per kind:
	Sent      []int64
	Delivered []int64
	Theory    []Theory

	Worst bool `json:",omitempty"` // the ids in the theory's worst-case ring order, not a random one
	// Phases is the highest phase (or round) a message carried (sim.Summary.Phases).
	Phases uint32 `json:",omitempty"`
	// Runs, MeanSent and MeanPhases: for a randomised algorithm, how many seeds were run (this
	// one and those after it) and the mean messages and phases over them.
	Runs       int     `json:",omitempty"`
	MeanSent   float64 `json:",omitempty"`
	MeanPhases float64 `json:",omitempty"`
	// MinSent and MaxSent are the fewest and most messages over those seeds; OverBound lists
	// the seeds whose run sent more than its own bound (algo.Theory.Varies).
	MinSent   int64    `json:",omitempty"`
	MaxSent   int64    `json:",omitempty"`
	OverBound []uint64 `json:",omitempty"`

	Leader  algo.ID       // the agreed leader, 0 if none
	Elected time.Duration // virtual time to the first agreed leader, -1 if none
	Stopped string        // why the run ended without a leader, if it did
	Steps   int

	Wall     time.Duration // setting the run up and running it
	PeakHeap uint64        // the most live heap seen, in bytes, sampled every few milliseconds
	PeakRSS  uint64        // the process's peak resident memory during the run, 0 if unknown
}

// Misses lists the counts that differ from their exact theory, as "ELECTION 999 ≠ 1,000", in
// the order of the algorithm's kinds; none for a run that was stopped or not run.
func (r *Result) Misses() []string {
	if r.Stopped != "" || r.Steps == 0 {
		return nil
	}
	var miss []string
	for _, th := range r.Theory {
		if th.Bound > 0 && th.Kind == AllKinds && sumOf(r.Sent) > th.Bound {
			miss = append(miss, fmt.Sprintf("%s %s > %s", th.Kind, human.Thousands(sumOf(r.Sent)), human.Thousands(th.Bound)))
		}
		if th.Exact < 0 {
			continue
		}
		for i, k := range r.Kinds {
			if k == th.Kind && r.Sent[i] != th.Exact {
				miss = append(miss, fmt.Sprintf("%s %s ≠ %s", k, human.Thousands(r.Sent[i]), human.Thousands(th.Exact)))
			}
		}
	}
	if len(r.OverBound) > 0 {
		miss = append(miss, fmt.Sprintf("%s of %s seeds above their own bound (seed %d first)",
			human.Thousands(int64(len(r.OverBound))), human.Thousands(int64(r.Runs)), r.OverBound[0]))
	}
	return miss
}

// SentOf returns how many messages of kind the run sent; of AllKinds, every message; of Phases,
// the highest phase a message carried.
func (r *Result) SentOf(kind string) int64 {
	switch kind {
	case AllKinds:
		return sumOf(r.Sent)
	case Phases:
		return int64(r.Phases)
	}
	for i, k := range r.Kinds {
		if k == kind {
			return r.Sent[i]
		}
	}
	return 0
}

// TheoryOf returns the theory of the count of kind, if there is one.
func (r *Result) TheoryOf(kind string) (Theory, bool) {
	for _, th := range r.Theory {
		if th.Kind == kind {
			return th, true
		}
	}
	return Theory{}, false
}

// DeliveredPerSecond is the delivered messages per second of wall time.
func (r *Result) DeliveredPerSecond() float64 {
	var d int64
	for _, x := range r.Delivered {
		d += x
	}
	if r.Wall <= 0 {
		return 0
	}
	return float64(d) / r.Wall.Seconds()
}

// Options tune a measurement.
type Options struct {
	// MaxMessages ends a run that has sent more messages than this without agreeing on a
	// leader: Lowest-ID among 100,000 nodes sends 10¹⁰ heartbeats every 50ms. 0: no limit.
	MaxMessages int64
	// Worst measures the theory's worst-case ring order of ids (algo.Theory.WorstIDs).
	Worst bool
	// Progress, if set, is called now and then while the run goes: its virtual time and the
	// messages sent so far.
	Progress func(virtual time.Duration, sent int64)
}

// Measure runs the workload of algorithm name among n nodes on engine e and measures it. The
// run itself is deterministic — its counts depend on name, n and seed only — while the wall
// time and memory are the machine's.
func Measure(name string, n int, seed uint64, e sim.Engine, o Options) (Result, error) {
	cfg, err := WorkloadOf(name, n, seed, e, o.Worst)
	if err != nil {
		return Result{}, err
	}
	if why := tooBig(name, &cfg, o); why != "" {
		k := len(cfg.Algorithm.Kinds)
		return Result{Algorithm: name, Nodes: n, Engine: e, Seed: seed, Worst: o.Worst, Theory: theoriesOf(&cfg), Elected: -1,
			Kinds: cfg.Algorithm.Kinds, Sent: make([]int64, k), Delivered: make([]int64, k), Stopped: "not run: " + why}, nil
	}
	if o.MaxMessages > 0 {
		cfg.MaxSent = o.MaxMessages
		// A broadcast can put the whole budget in flight at once, before any check.
		cfg.MaxScheduled = int(min(o.MaxMessages, int64(sim.DefaultMaxScheduled)))
	}
	r := Result{Algorithm: name, Nodes: n, Engine: e, Seed: seed, Worst: o.Worst, Theory: theoriesOf(&cfg)}

	// What an earlier run in this process left is not this one's — as far as the runtime lets
	// go of it: electsim bench measures each run in a process of its own.
	debug.FreeOSMemory()
	rssReset := resetPeakRSS()
	sampler := startHeapSampler()

	start := time.Now()
	s, err := sim.New(cfg)
	if err != nil {
		sampler.stop()
		return Result{}, err
	}
	// Run in slices of virtual time, to check the budget and report progress; the slices do
	// not change the order of events. A slice grows while it takes little wall time.
	slice := time.Millisecond
	for !s.Done() {
		t0 := time.Now()
		s.RunUntil(s.Now() + slice)
		if time.Since(t0) < 20*time.Millisecond {
			slice *= 2
		}
		if o.Progress != nil {
			o.Progress(s.Now(), s.Sent())
		}
	}
	r.Wall = time.Since(start)
	r.PeakHeap = sampler.stop()
	if rssReset {
		r.PeakRSS = peakRSS() // else the process's lifetime peak: not this run's, so unknown
	}

	sum := s.Summary()
	r.Kinds, r.Sent, r.Delivered = sum.Kinds, sum.Sent, sum.Delivered
	r.Leader, r.Steps, r.Phases = sum.Leader, sum.Steps, sum.Phases
	r.Elected = -1
	if sum.Leader != 0 {
		r.Elected = sum.FirstLeader
	}
	switch {
	case r.Stopped != "":
	case o.MaxMessages > 0 && strings.HasPrefix(sum.Halted, fmt.Sprintf("more than %d messages were sent", cfg.MaxSent)):
		r.Stopped = fmt.Sprintf("more than %s messages sent before a leader was agreed", human.Thousands(o.MaxMessages))
	case o.MaxMessages > 0 && strings.HasPrefix(sum.Halted, fmt.Sprintf("more than %d events", cfg.MaxScheduled)):
		r.Stopped = fmt.Sprintf("more than %s messages in flight at once before a leader was agreed", human.Thousands(int64(cfg.MaxScheduled)))
	case sum.Halted != "":
		r.Stopped = sum.Halted
	case sum.Leader == 0:
		r.Stopped = "no leader was agreed"
	}
	if th := cfg.Algorithm.Theory; r.Stopped == "" && th != nil && (th.Expected || th.Varies) {
		if err := sampleMore(&r, cfg, o.Worst); err != nil {
			return Result{}, err
		}
	}
	return r, nil
}

// heapSampler reads the live heap and goroutine stacks every few milliseconds and keeps the
// largest. Stack memory the runtime keeps from earlier runs is not counted: the first sample
// sets the baseline for stacks.
type heapSampler struct {
	done       chan struct{}
	wg         sync.WaitGroup
	peak       uint64
	stackStart uint64
	started    bool
}

func startHeapSampler() *heapSampler {
	h := &heapSampler{done: make(chan struct{})}
	h.sample()
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-h.done:
				return
			case <-tick.C:
				h.sample()
			}
		}
	}()
	return h
}

func (h *heapSampler) sample() {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(samples)
	objects, stacks := samples[0].Value.Uint64(), samples[1].Value.Uint64()
	if !h.started {
		h.started, h.stackStart = true, stacks
	}
	h.peak = max(h.peak, objects+stacks-min(stacks, h.stackStart))
}

// stop ends the sampling and returns the peak: live heap objects and goroutine stacks.
func (h *heapSampler) stop() uint64 {
	close(h.done)
	h.wg.Wait()
	h.sample()
	return h.peak
}

// resetPeakRSS asks Linux to forget the process's peak resident memory so far, so that
// peakRSS reports this run's. It reports whether it could: elsewhere it cannot.
func resetPeakRSS() bool {
	return runtime.GOOS == "linux" && os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// peakRSS returns the process's peak resident memory in bytes (Linux: VmHWM), or 0.
func peakRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// Estimate returns about how many messages algorithm name's election among n nodes sends, and
// the formula, or -1 when there is no estimate (Raft: it depends on how often the vote splits).
func Estimate(name string, n int) (int64, string) {
	m := int64(n)
	switch name {
	case "bully":
		return m * (m - 1), "n(n−1)"
	case "ring":
		return int64(float64(n)*Harmonic(n)) + m, "n·H_n + n"
	case "lowest-id":
		// Every node broadcasts at boot and at every heartbeat before its listening ends:
		// three rounds with the default timing.
		return 3 * m * (m - 1), "3n(n−1)"
	}
	if info, err := algo.Lookup(name); err == nil && info.Theory != nil && info.Theory.Messages != nil {
		return int64(info.Theory.Messages(n)), info.Theory.Bound
	}
	return -1, ""
}

// memoryLimit is the most memory a bench run may be expected to need for what its nodes keep
// that grows with the cluster (algo.Info.NodeMemory): beyond it, the run is not run.
const memoryLimit = 4 << 30

// tooBig says why the run cfg of algorithm name is not worth running, if it is not: its nodes
// would need more than memoryLimit, or it would send more messages than o allows.
func tooBig(name string, cfg *sim.Config, o Options) string {
	if mem, what := nodesMemory(cfg); mem > memoryLimit {
		return fmt.Sprintf("its nodes would need about %s MB (%s), more than the %s MB allowed",
			human.Thousands(mem>>20), what, human.Thousands(memoryLimit>>20))
	}
	est, formula := Estimate(name, len(cfg.IDs))
	if th := cfg.Algorithm.Theory; th != nil && th.OnGraph != nil {
		est = -1 // a bound on the graph is no estimate: the budget stops the run instead
		if cl, err := cfg.Cluster(); err == nil && th.GraphExact {
			est, formula = th.OnGraph(cl), th.GraphBound
		}
	}
	if o.MaxMessages > 0 && est > o.MaxMessages {
		return fmt.Sprintf("it would send about %s messages (%s), more than the %s allowed (--max-messages raises it)",
			human.Thousands(est), formula, human.Thousands(o.MaxMessages))
	}
	return ""
}

// nodesMemory returns about how many bytes the nodes of cfg keep that grow with their number
// (algo.Info.NodeMemory), and what they keep; 0 when that does not grow.
func nodesMemory(cfg *sim.Config) (int64, string) {
	f := cfg.Algorithm.NodeMemory
	if f == nil {
		return 0, ""
	}
	n := len(cfg.IDs)
	per, what := f(n)
	return int64(n) * per, what
}
