package check

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/sim"
)

// Options configure a check.
type Options struct {
	// Base is the run every schedule is added to: the algorithm, nodes, parameters, network and
	// engine (sim.Inline is the fast one). Its Seed is the seed of run 0; run k has Seed+k. Its
	// Actions are part of every run and never shrunk. Its RunFor is the whole run, faults and
	// settle time; 0 means DefaultWindow of faults, then the settle time.
	Base     sim.Config
	Faults   Faults
	Property string // one of Properties(Base.Algorithm); "" is at-most-one-leader
	Runs     int    // at least 1

	// Workers is how many runs go at once; 0 is GOMAXPROCS. The result does not depend on it.
	Workers int
	// Keep is how many failing runs the result keeps, the first ones; 0 is 1.
	Keep int
	// ShrinkBudget is the most runs shrinking one failure may take; 0 is DefaultShrinkBudget.
	ShrinkBudget int
	// StopAfter, when positive, ends the check at the run that makes that many failures: the
	// result covers the runs up to it, as if Runs had been that many.
	StopAfter int
	// DriftBound is how far from 1 the Drift class draws clock rates: from 1−DriftBound to
	// 1+DriftBound; 0 is DefaultDriftBound.
	DriftBound float64
}

// DefaultDriftBound is the drift class's bound on clock rates unless told otherwise: ±10%.
const DefaultDriftBound = 0.1

// DefaultRuns is how many runs a check does, and DefaultMatrixRuns how many a cell of the
// matrix does, unless told otherwise (electsim check --runs).
const (
	DefaultRuns       = 1000
	DefaultMatrixRuns = 300
)

// DefaultShrinkBudget bounds the runs shrinking takes: a few tenths of a second for Bully.
const DefaultShrinkBudget = 4000

// Guards of a checked run: an algorithm that loops or floods under some schedule ends early,
// and the run is reported as halted, not as a violation.
const (
	stallSteps   = 200_000
	maxScheduled = 1_000_000
)

// Check is a prepared check: the options validated, the fault window and settle time worked out.
type Check struct {
	base      sim.Config
	info      *algo.Info
	faults    Faults
	property  string
	runs      int
	workers   int
	keep      int
	budget    int
	stopAfter int
	drift     float64

	scale, settle, window time.Duration
}

// New validates opts and prepares the check. The errors say what to change.
func New(opts Options) (*Check, error) {
	base := opts.Base
	if base.Algorithm == nil {
		return nil, fmt.Errorf("check: no algorithm")
	}
	if opts.Runs < 1 {
		return nil, fmt.Errorf("check: %d runs: expected at least 1", opts.Runs)
	}
	if opts.Property == "" {
		opts.Property = Properties(base.Algorithm)[0]
	}
	if err := ValidateProperty(base.Algorithm, opts.Property); err != nil {
		return nil, err
	}
	c := &Check{info: base.Algorithm, faults: opts.Faults, property: opts.Property, runs: opts.Runs,
		workers: opts.Workers, keep: max(opts.Keep, 1), budget: opts.ShrinkBudget, stopAfter: opts.StopAfter}
	if c.workers <= 0 {
		c.workers = runtime.GOMAXPROCS(0)
	}
	if c.budget <= 0 {
		c.budget = DefaultShrinkBudget
	}
	switch c.drift = opts.DriftBound; {
	case c.drift == 0:
		c.drift = DefaultDriftBound
	case !(c.drift > 0 && 1-c.drift >= sim.MinRate && 1+c.drift <= sim.MaxRate):
		return nil, fmt.Errorf("a drift bound of %g: expected more than 0 and less than %g", c.drift, 1-sim.MinRate)
	}
	base.Trace = false
	base.StallSteps, base.MaxScheduled = stallSteps, maxScheduled
	base.Actions = slices.Clone(base.Actions)
	slices.SortStableFunc(base.Actions, func(a, b sim.Action) int { return cmpTime(a.At, b.At) })
	c.scale, c.settle = timescale(&base), Settle(&base)
	if base.RunFor == 0 {
		base.RunFor = DefaultWindow + c.settle
	}
	c.window = base.RunFor - c.settle
	if c.window < minWindow {
		return nil, fmt.Errorf("a run of %s leaves no time for faults: %s needs %s to settle after them; expected a run of at least %s",
			human.Seconds(base.RunFor), base.Algorithm.Name, human.Seconds(c.settle), human.Seconds(c.settle+minWindow))
	}
	if err := base.Validate(); err != nil {
		return nil, err
	}
	c.base = base
	return c, nil
}

// DriftBound returns how far from 1 the drift class draws clock rates.
func (c *Check) DriftBound() float64 { return c.drift }

// Window returns how long faults may fall in a run, from its start.
func (c *Check) Window() time.Duration { return c.window }

// Settle returns the time the algorithm gets after the faults.
func (c *Check) Settle() time.Duration { return c.settle }

// RunFor returns the length of a run: the window and the settle time.
func (c *Check) RunFor() time.Duration { return c.window + c.settle }

// Property returns the property judged.
func (c *Check) Property() string { return c.property }

// Base returns the base run, as the check runs it.
func (c *Check) Base() sim.Config { return c.base }

// Result is what a check found.
type Result struct {
	Runs   int // runs done
	Failed int // runs that broke the property
	// Failures are the first failing runs, as many as Options.Keep, lowest run first.
	Failures []Failure
	// Halted counts runs that a guard ended early (an algorithm in a loop); they are not
	// judged. FirstHalted is the lowest of them, when there is one.
	Halted      int
	FirstHalted *Halt
}

// Halt is a run that a guard ended early.
type Halt struct {
	Run  int
	Seed uint64
	Why  string
}

// Failure is a run that broke the property.
type Failure struct {
	Run       int
	Seed      uint64
	Schedule  Schedule      // as drawn
	Violation sim.Violation // the first violation of the property in it
	plan      plan
}

// Seed returns the seed of run k.
func (c *Check) Seed(k int) uint64 { return c.base.Seed + uint64(k) }

// outcome is what one run gave.
type outcome struct {
	run      int
	failed   bool
	p        plan
	halted   string
	panicked any
}

// Run runs the check. progress, if not nil, is called as runs finish with the runs done and
// the failures so far, on the goroutine that called Run. Outcomes are taken in the order of the
// runs, whichever worker finished first, so the result is the same for any number of workers.
// A panic in a run — a bug — is raised again on that goroutine, naming the run's seed.
func (c *Check) Run(progress func(done, failed int)) Result {
	var next, limit atomic.Int64
	limit.Store(int64(c.runs))
	out := make(chan outcome, 4*c.workers)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range min(c.workers, c.runs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := next.Add(1) - 1
				if k >= limit.Load() {
					return
				}
				select {
				case out <- c.one(int(k)):
				case <-stop:
					return
				}
			}
		}()
	}
	defer func() {
		close(stop)
		wg.Wait()
	}()
	var res Result
	total := c.runs
	early := map[int]outcome{} // outcomes that finished before a run with a lower number
	for res.Runs < total {
		o := <-out
		early[o.run] = o
		for {
			o, ok := early[res.Runs]
			if !ok {
				break
			}
			delete(early, res.Runs)
			c.take(&res, o)
			if c.stopAfter > 0 && res.Failed == c.stopAfter {
				limit.Store(int64(res.Runs)) // no run after this one counts
				total = res.Runs
			}
			if res.Runs == total {
				break
			}
		}
		if progress != nil {
			progress(res.Runs, res.Failed)
		}
	}
	return res
}

// take adds the outcome of the next run to res.
func (c *Check) take(res *Result, o outcome) {
	if o.panicked != nil {
		panic(fmt.Sprintf("check: run %d (seed %d) of %s: %v", o.run, c.Seed(o.run), c.info.Name, o.panicked))
	}
	res.Runs++
	switch {
	case o.halted != "":
		res.Halted++
		if res.FirstHalted == nil {
			res.FirstHalted = &Halt{Run: o.run, Seed: c.Seed(o.run), Why: o.halted}
		}
	case o.failed:
		res.Failed++
		if len(res.Failures) < c.keep {
			// The run stopped where it broke the property: run it whole for the violation.
			seed := c.Seed(o.run)
			sum, err := c.play(o.p, seed, nil)
			v, ok := violation(&sum, c.info, c.property)
			if err != nil || !ok {
				panic(fmt.Sprintf("check: run %d (seed %d) of %s broke %s, and run again it does not", o.run, seed, c.info.Name, c.property))
			}
			res.Failures = append(res.Failures, Failure{Run: o.run, Seed: seed, Violation: v, plan: o.p, Schedule: c.schedule(o.p)})
		}
	}
}

// one draws and runs run k.
func (c *Check) one(k int) (o outcome) {
	o.run = k
	defer func() {
		if p := recover(); p != nil {
			o.panicked = p
		}
	}()
	seed := c.Seed(k)
	o.p = c.generate(pcgSource{rand.New(rand.NewPCG(seed, streamSchedule))})
	var err error
	o.failed, o.halted, err = c.breaks(c.config(o.p, seed, nil))
	if err != nil {
		panic(fmt.Sprintf("a drawn schedule does not run: %v", err))
	}
	return o
}

// checkEvery is how often, in virtual time, a run is looked at for a broken safety property.
const checkEvery = 100 * time.Millisecond

// breaks runs cfg until it breaks the property or ends, and reports whether it broke it, or
// why a guard stopped it. A safety property — one a run breaks at an instant — is looked at
// every checkEvery of virtual time, and the run goes no further once it is broken; agreement
// and eventual-leader are judged at the end.
func (c *Check) breaks(cfg sim.Config) (broken bool, halted string, err error) {
	s, err := sim.New(cfg)
	if err != nil {
		return false, "", err
	}
	defer s.Close()
	if c.property != sim.Agreement && c.property != EventualLeader {
		for t := checkEvery; t < cfg.RunFor && !s.Done(); t += checkEvery {
			s.RunUntil(t)
			if sum := s.Summary(); sum.Halted == "" {
				if _, bad := violation(&sum, c.info, c.property); bad {
					return true, "", nil
				}
			}
		}
	}
	s.RunUntil(cfg.RunFor)
	sum := s.Summary()
	if sum.Halted != "" {
		return false, sum.Halted, nil
	}
	_, bad := violation(&sum, c.info, c.property)
	return bad, "", nil
}

// config returns the run of plan p with seed, and the narration actions, in order, when there
// are any: at the time of the first, after every action of the schedule due by then.
func (c *Check) config(p plan, seed uint64, narration []sim.Action) sim.Config {
	cfg := c.base
	sc := c.schedule(p)
	cfg.IDs = sc.IDs
	cfg.Actions = sc.Actions
	if len(narration) > 0 {
		at := narration[0].At
		i, _ := slices.BinarySearchFunc(cfg.Actions, at+1, func(a sim.Action, t time.Duration) int { return cmpTime(a.At, t) })
		cfg.Actions = slices.Insert(slices.Clone(cfg.Actions), i, narration...)
	}
	cfg.RunFor = sc.RunFor
	cfg.Seed = seed
	return cfg
}

// play runs plan p with seed to the end.
func (c *Check) play(p plan, seed uint64, narration []sim.Action) (sim.Summary, error) {
	s, err := sim.New(c.config(p, seed, narration))
	if err != nil {
		return sim.Summary{}, err
	}
	return s.Run(), nil
}
