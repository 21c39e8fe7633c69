package explore

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
	"electsim/sim/check"
)

// Options configure an exploration.
type Options struct {
	// Base is the run explored: the algorithm, nodes (at most MaxNodes), parameters, network,
	// seed (the nodes' random draws are that seed's) and actions every schedule has. Its engine,
	// length and tracing are the explorer's: the run is as long as the depth bound makes it.
	Base sim.Config
	// Property is the safety property judged: at-most-one-leader, one-leader-per-term, or one
	// of the algorithm's own monitors. "" is at-most-one-leader.
	Property string
	// Faults are the classes a schedule may inject: crash, recover, partition, delay, pause,
	// loss (a link loses its messages of an instant; not drift).
	Faults check.Faults
	// Delays are the delays a message may take; nil means the two bounds of the base network's
	// delay (one when it is fixed).
	Delays []time.Duration
	// Spike is the delay fault's delay: a delay fault sets one link's delay to it until another
	// fault sets it back to the first of Delays (each is a fault action). 0 means twice the
	// algorithm's timescale (check.Timescale), beyond each of its timeouts.
	Spike time.Duration
	// Budget is the most fault actions a schedule may take.
	Budget int
	// Depth is the most steps (events) a schedule may have; 0 means DefaultDepth.
	Depth int
	// MaxStates bounds the distinct states kept; 0 means DefaultMaxStates.
	MaxStates int64
	// Draws is how the nodes' random draws (algo.Draw) are taken: DrawsSeed, the node's source
	// seeded by Base.Seed, as in any run; DrawsEnds, a choice of the two ends of the range;
	// DrawsMiddle, of its ends and its middle. 0 is DrawsEnds.
	Draws Draws
	// MaxTerm, if positive, bounds the terms explored: a state in which some node has
	// reported a term above it is judged, and not expanded. 0: no bound. Unless TermBound is
	// set, an algorithm with terms takes DefaultMaxTerm.
	MaxTerm   uint64
	TermBound bool
	// MaxStored, if positive, bounds the numbers nodes keep on stable storage (Env.Store: Raft's
	// term and vote, the lease's request number, the resource's highest token): a state in
	// which one is above it is judged, and not expanded. 0: no bound.
	MaxStored uint64
	// Workers is how many goroutines expand states; 0 is GOMAXPROCS. The result does not
	// depend on it.
	Workers int
}

// Draws says how an exploration takes the nodes' random draws.
type Draws uint8

// The ways to take draws.
const (
	DrawsEnds   Draws = iota + 1 // each draw a choice of the two ends of its range
	DrawsMiddle                  // each draw a choice of its ends and its middle
	DrawsSeed                    // each draw the node's seeded source's, as in a run
)

// String returns "ends", "ends,middle" or "seed": how --draws names it.
func (d Draws) String() string {
	switch d {
	case DrawsMiddle:
		return "ends,middle"
	case DrawsSeed:
		return "seed"
	}
	return "ends"
}

// ParseDraws reads how --draws names a way to take draws.
func ParseDraws(s string) (Draws, error) {
	for d := DrawsEnds; d <= DrawsSeed; d++ {
		if s == d.String() {
			return d, nil
		}
	}
	return 0, fmt.Errorf("unknown draws %q (choose ends, ends,middle or seed)", s)
}

// The defaults and limits of an exploration.
const (
	MaxNodes         = 5
	DefaultDepth     = 30
	DefaultMaxStates = 10_000_000
	// DefaultMaxTerm bounds the terms of an algorithm with terms unless told: terms enough for
	// an election, a split vote, and the elections after two faults.
	DefaultMaxTerm = 4
	// lossSpan is how long a counterexample's drop of 100% lasts, for a link that lost its
	// messages of an instant: it is set back before the next instant's inputs.
	lossSpan = time.Microsecond
)

// Explorer is a prepared exploration.
type Explorer struct {
	base      sim.Config
	info      *algo.Info
	property  string
	classes   check.Faults
	faults    []sim.Action // the fault actions a schedule may take, in a fixed order
	delays    []time.Duration
	spike     time.Duration // the delay fault's delay; 0 without delay faults
	budget    int
	depth     int
	maxStates int64
	draws     Draws
	maxTerm   uint64
	maxStored uint64
	workers   int
}

// SafetyProperties returns the properties an exploration of algorithm a can judge: those a run
// breaks at an instant.
func SafetyProperties(a *algo.Info) []string {
	var props []string
	if !a.Groups { // an algorithm of groups has a coordinator per group, by design
		props = append(props, sim.AtMostOneLeader)
	}
	if a.Terms {
		props = append(props, sim.OneLeaderPerTerm)
	}
	for _, m := range a.Monitors {
		if m.Watch != nil { // a Final judge speaks of the end of a run, not of an instant
			props = append(props, m.Property)
		}
	}
	return props
}

// New validates opts and prepares the exploration. The errors say what to change.
func New(opts Options) (*Explorer, error) {
	base := opts.Base
	if base.Algorithm == nil {
		return nil, fmt.Errorf("explore: no algorithm")
	}
	if n := len(base.IDs); n > MaxNodes {
		return nil, fmt.Errorf("%d nodes: exhaustive exploration takes at most %d (the schedules of more are too many to try)", n, MaxNodes)
	}
	x := &Explorer{info: base.Algorithm, property: opts.Property, classes: opts.Faults, budget: opts.Budget,
		depth: opts.Depth, maxStates: opts.MaxStates, draws: opts.Draws, maxTerm: opts.MaxTerm, maxStored: opts.MaxStored, workers: opts.Workers}
	if x.draws == 0 {
		x.draws = DrawsEnds
	}
	if !opts.TermBound && x.info.Terms {
		x.maxTerm = DefaultMaxTerm
	}
	if len(base.Draws) > 0 {
		return nil, fmt.Errorf("the run pins draws (a draws line): an exploration chooses them itself (--draws seed takes the seed's)")
	}
	if x.property == "" {
		x.property = SafetyProperties(x.info)[0]
	}
	if !slices.Contains(SafetyProperties(x.info), x.property) {
		if err := check.ValidateProperty(x.info, x.property); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s is judged at the end of a run, and an exploration has no end: choose a property a run breaks at an instant (%s)",
			x.property, strings.Join(SafetyProperties(x.info), ", "))
	}
	if opts.Faults.Has(check.Drift) {
		return nil, fmt.Errorf("drift is not explored exhaustively: choose among crash, recover, partition, delay, pause, loss (the random checker draws clock rates)")
	}
	if x.budget < 0 {
		return nil, fmt.Errorf("a budget of %d faults: expected 0 or more", x.budget)
	}
	if x.depth == 0 {
		x.depth = DefaultDepth
	}
	if x.depth < 1 {
		return nil, fmt.Errorf("a depth of %d events: expected at least 1", x.depth)
	}
	if x.maxStates == 0 {
		x.maxStates = DefaultMaxStates
	}
	if x.maxStates < 1 {
		return nil, fmt.Errorf("at most %d states: expected at least 1", x.maxStates)
	}
	if x.workers <= 0 {
		x.workers = runtime.GOMAXPROCS(0)
	}
	base.Engine, base.Trace, base.UntilLeader = sim.Inline, false, false
	base.RunFor = algo.MaxDuration
	base.Actions = slices.Clone(base.Actions)
	if err := base.Validate(); err != nil {
		return nil, err
	}
	x.base = base
	x.delays = opts.Delays
	if x.delays == nil {
		d := base.Network.Delay
		x.delays = []time.Duration{d.Min}
		if d.Max != d.Min {
			x.delays = append(x.delays, d.Max)
		}
	}
	if len(x.delays) == 0 {
		return nil, fmt.Errorf("no delays: expected at least one delay a message may take")
	}
	for i, d := range x.delays {
		if d < 0 || d > algo.MaxDuration {
			return nil, fmt.Errorf("a delay of %s: expected a non-negative duration", algo.FormatDuration(d))
		}
		if slices.Contains(x.delays[:i], d) {
			return nil, fmt.Errorf("the delay %s is given twice", algo.FormatDuration(d))
		}
	}
	if len(x.delays) > 16 {
		return nil, fmt.Errorf("%d delays: expected at most 16", len(x.delays))
	}
	if opts.Faults.Has(check.Delay) {
		x.spike = opts.Spike
		if x.spike == 0 {
			x.spike = 2 * check.Timescale(&base)
		}
		if slices.Contains(x.delays, x.spike) {
			return nil, fmt.Errorf("the delay fault's spike %s is one of the delays: choose a longer one", algo.FormatDuration(x.spike))
		}
	}
	x.faults = faultActions(opts.Faults, base.IDs, x.spike, x.delays[0])
	return x, nil
}

// faultActions lists the fault actions of the classes in set on the cluster ids, in a fixed
// order: crash each node, recover each node, split the nodes in two each way, cut each link
// one way, heal (all of it), delay
// each link by spike and set it back to normal, pause and resume each node.
func faultActions(set check.Faults, ids []algo.ID, spike, normal time.Duration) []sim.Action {
	sorted := slices.Sorted(slices.Values(ids))
	var out []sim.Action
	each := func(op sim.Op) {
		for _, id := range sorted {
			out = append(out, sim.Action{Op: op, Nodes: []algo.ID{id}})
		}
	}
	if set.Has(check.Crash) {
		each(sim.Crash)
	}
	if set.Has(check.Recover) {
		each(sim.Recover)
	}
	if set.Has(check.Partition) && len(sorted) > 1 {
		// Every split in two: the groups that hold the first node, then the rest.
		last := len(sorted) - 1
		for mask := 1; mask < 1<<last; mask++ {
			var a, b []algo.ID
			for i, id := range sorted {
				if i < last && mask&(1<<i) != 0 {
					a = append(a, id)
				} else {
					b = append(b, id)
				}
			}
			out = append(out, sim.Action{Op: sim.Partition, Groups: [][]algo.ID{a, b}})
		}
		for _, from := range sorted {
			for _, to := range sorted {
				if from != to {
					out = append(out, sim.Action{Op: sim.Cut, Link: &network.Link{From: from, To: to}})
				}
			}
		}
		out = append(out, sim.Action{Op: sim.Heal})
	}
	if set.Has(check.Delay) {
		for _, d := range []time.Duration{spike, normal} {
			for _, from := range sorted {
				for _, to := range sorted {
					if from != to {
						out = append(out, sim.Action{Op: sim.SetDelay, Link: &network.Link{From: from, To: to},
							Delay: network.Delay{Min: d, Max: d}})
					}
				}
			}
		}
	}
	if set.Has(check.Pause) {
		each(sim.Pause)
		each(sim.Resume)
	}
	return out
}

// applies reports whether fault a would change the run s: crash a node that is up, recover
// one that is down, partition when none is in force, cut a link that is not cut, heal when
// anything is, delay a link that is not
// delayed, set one back that is, pause a running node, resume a paused one.
func (x *Explorer) applies(s *sim.Sim, a *sim.Action) bool {
	switch a.Op {
	case sim.Crash:
		return s.StatusOf(a.Nodes[0]) != sim.Crashed
	case sim.Recover:
		return s.StatusOf(a.Nodes[0]) == sim.Crashed
	case sim.Partition:
		return !s.Partitioned()
	case sim.Cut:
		return !slices.Contains(s.Cuts(), *a.Link)
	case sim.Heal:
		return s.Partitioned() || len(s.Cuts()) > 0
	case sim.Pause:
		st := s.StatusOf(a.Nodes[0])
		return st != sim.Crashed && st != sim.Paused
	case sim.Resume:
		return s.StatusOf(a.Nodes[0]) == sim.Paused
	case sim.SetDelay:
		return s.DelayHeld(*a.Link) == (a.Delay.Min != x.spike)
	}
	return false
}

// Property returns the property judged.
func (x *Explorer) Property() string { return x.property }

// Bounds returns what the exploration is bounded by, for its summary.
func (x *Explorer) Bounds() Bounds {
	b := Bounds{Delays: slices.Clone(x.delays), Budget: x.budget, Depth: x.depth, MaxStates: x.maxStates,
		Faults: x.classes, Seed: x.base.Seed, Draws: x.draws, MaxTerm: x.maxTerm, MaxStored: x.maxStored}
	b.Spike = x.spike
	return b
}

// Base returns the run explored, as the explorer runs it.
func (x *Explorer) Base() sim.Config { return x.base }

// Bounds are what an exploration's verdict covers: every schedule of at most Depth steps,
// each message's delay one of Delays, at most Budget fault actions of the classes Faults (a
// delay fault sets a link's delay to Spike until another sets it back), the nodes' random
// draws those of Seed or chosen among the points of their ranges (Draws), the terms at most
// MaxTerm and the numbers on stable storage at most MaxStored (0: any); and the states it may
// keep.
type Bounds struct {
	Draws     Draws
	MaxTerm   uint64
	MaxStored uint64
	Delays    []time.Duration
	Spike     time.Duration // 0: no delay faults
	Budget    int
	Faults    check.Faults
	Depth     int
	MaxStates int64
	Seed      uint64
}

// root returns the run at its start, delays chosen.
func (x *Explorer) root() *sim.Sim {
	s, err := sim.New(x.base)
	if err != nil {
		panic(fmt.Sprintf("explore: the base run does not start: %v", err)) // validated in New
	}
	if err := s.ChooseDelays(x.delays); err != nil {
		panic(err.Error())
	}
	if x.draws != DrawsSeed {
		points := 2
		if x.draws == DrawsMiddle {
			points = 3
		}
		if err := s.ChooseDraws(points); err != nil {
			panic(err.Error())
		}
	}
	return s
}

// A transition is encoded in 32 bits: the fault applied before the step in the top 8 (0 for
// none; else its index in x.faults plus one, and lateBit when it falls at the next instant),
// the step's choices as a code (sim.StepChoosing) in the low 24.
const (
	faultShift = 24
	vecMask    = 1<<faultShift - 1
	lateBit    = 0x80
)

// begin applies fault code f (0: none) to s at the boundary before its next step, as that
// step (Sim.Interject): at this instant, after the inputs handled so far (between two inputs
// of the instant, or after its last), or with lateBit at the next instant, before its inputs —
// the two ends of a quiet stretch. It returns the action as it happens.
func (x *Explorer) begin(s *sim.Sim, f uint32) sim.Action {
	if f == 0 {
		return sim.Action{}
	}
	a := x.faults[f&^lateBit-1]
	a.At = s.Now()
	if f&lateBit != 0 {
		a.At, _ = s.NextInput()
	}
	a, err := s.Interject(a)
	if err != nil {
		panic(fmt.Sprintf("explore: %s: %v", a, err))
	}
	if a.Op == sim.SetDelay {
		s.HoldDelay(*a.Link, a.Delay.Min == x.spike)
	}
	return a
}

// lateToo reports whether a fault may also fall at the next instant: the inputs of this one
// are over, and another comes.
func lateToo(s *sim.Sim) bool {
	next, ok := s.NextInput()
	return ok && next > s.Now()
}

// cost is the faults transition t takes.
func cost(t uint32) int {
	if t>>faultShift != 0 {
		return 1
	}
	return 0
}

// apply takes transition t on s, which has taken faults fault actions before it, reporting
// false if the run has no step to take.
func (x *Explorer) apply(s *sim.Sim, t uint32, faults int) bool {
	x.begin(s, t>>faultShift)
	x.allow(s, faults+cost(t))
	_, ok := s.StepChoosing(t & vecMask)
	return ok
}

// allow lets s's next step lose what the budget has left, with loss among the classes: s has
// taken faults fault actions, and lost the messages of s.Losses() links.
func (x *Explorer) allow(s *sim.Sim, faults int) {
	if x.classes.Has(check.Loss) {
		s.AllowLosses(x.budget - faults - s.Losses())
	}
}
