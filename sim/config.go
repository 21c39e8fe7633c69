package sim

import (
	"fmt"
	"strings"
	"time"

	"electsim/algo"
	"electsim/network"
)

// Engine selects how nodes are run.
type Engine uint8

// The engines.
const (
	Goroutine Engine = iota // one goroutine per node, in lockstep (the default)
	Inline                  // the state machines called directly from the event loop
)

// String returns "goroutine" or "inline".
func (e Engine) String() string {
	if e == Inline {
		return "inline"
	}
	return "goroutine"
}

// ParseEngine reads "goroutine" or "inline".
func ParseEngine(s string) (Engine, error) {
	switch s {
	case "goroutine":
		return Goroutine, nil
	case "inline":
		return Inline, nil
	}
	return 0, fmt.Errorf("unknown engine %q (choose goroutine or inline)", s)
}

// DefaultRunFor is how much virtual time a run simulates unless told otherwise.
const DefaultRunFor = 5 * time.Second

// Config is everything a run depends on. Two runs with equal Configs produce the same trace.
type Config struct {
	Algorithm *algo.Info
	IDs       []algo.ID   // distinct and positive, in ring order
	Params    algo.Params // validated by the caller with Info.ParseParam
	Seed      uint64
	Network   network.Config
	Actions   []Action      // in any order; actions at the same time keep their order
	RunFor    time.Duration // virtual time to simulate; events after it do not run
	Engine    Engine
	Trace     bool // record trace records and notes (Step returns them)
	// TimerStarts keeps when each node last set each timer, for a picture of the run to show
	// how much of a timer has run (Sim.AppendTimers): a session being watched sets it.
	TimerStarts bool
	// Topology names the edges messages may travel (algo.TopologyNames), laid over IDs in
	// ring order; "" is the complete graph. The algorithm must run on it (Info.Topologies).
	Topology string
	// Edges are the edges of a topology given as data — file:PATH's, read once by whoever
	// named the file, or a scenario's `topology edges` — each two ids, undirected
	// (algo.NewClusterGraph); nil for any other topology. A run reads no file: a run replayed,
	// copied or started again has the same edges. Shared between copies: never changed.
	Edges [][2]algo.ID
	// Draws pins the first draws (algo.Draw) of some nodes to points of their ranges: how a
	// counterexample found with draws as choices replays. Nil: every draw is the node's
	// random source's.
	Draws []NodeDraws

	// UntilLeader ends the run at its first agreed leader — the end of the step after which
	// every live node names one live leader — rather than at RunFor, which stays the limit.
	// Messages still in flight then are counted as in flight. For measuring one election.
	UntilLeader bool

	// Guards against runs that cannot finish: the engine ends a run early, saying why in
	// Summary.Halted, when more than StallSteps steps run at one virtual instant (an algorithm
	// in a loop that never lets time pass), or when more than MaxScheduled events are scheduled
	// at once (Bully among many thousands of nodes). Zero means the default.
	StallSteps   int
	MaxScheduled int
	// MaxSent, if positive, ends a run that has sent more messages than this, saying so in
	// Summary.Halted: a budget for runs whose cost is not known in advance.
	MaxSent int64
	// MaxMemory bounds, in bytes, the memory the run holds as the engine reckons it
	// (Sim.MemoryUse): its nodes — a fixed cost per node on each engine, and what the
	// algorithm's nodes keep that grows with the cluster (algo.Info.NodeMemory) — the events
	// queued, and the network's bookkeeping of the links used. New refuses a run whose nodes
	// alone would hold more; a run that grows past it ends early, saying so in Summary.Halted.
	// The reckoning is deterministic: the same run ends at the same step wherever it runs with
	// the same bound. Zero means DefaultMaxMemory.
	MaxMemory int64
}

// DefaultConfig returns a run of algorithm a on nodes 1..n with the defaults of docs/model.md.
func DefaultConfig(a *algo.Info, n int) Config {
	ids := make([]algo.ID, n)
	for i := range ids {
		ids[i] = algo.ID(i + 1)
	}
	return Config{Algorithm: a, IDs: ids, Seed: 1, Network: network.DefaultConfig(), RunFor: DefaultRunFor,
		Topology: DefaultTopology(a)}
}

// DefaultTopology is the topology a run of a takes when none is given: the first a names, its
// usual one ("" for the complete graph).
func DefaultTopology(a *algo.Info) string {
	if top := a.TopologyList()[0]; top != algo.Complete {
		return top
	}
	return ""
}

// Validate says what is wrong with c.
func (c *Config) Validate() error {
	_, err := c.validate()
	return err
}

// validate is Validate, returning the cluster the configuration makes.
func (c *Config) validate() (*algo.Cluster, error) {
	if c.Algorithm == nil {
		return nil, fmt.Errorf("sim: no algorithm")
	}
	if c.RunFor <= 0 {
		return nil, fmt.Errorf("sim: run length %s: expected a positive duration", algo.FormatDuration(c.RunFor))
	}
	if err := c.Network.Validate(); err != nil {
		return nil, err
	}
	if err := c.Algorithm.CheckTopology(c.Topology); err != nil {
		return nil, err
	}
	cl, err := c.Cluster()
	if err != nil {
		return nil, err
	}
	if c.Algorithm.Validate != nil {
		if err := c.Algorithm.Validate(cl); err != nil {
			return nil, err
		}
	}
	for _, key := range c.Params.Keys() {
		if _, ok := c.Algorithm.Param(key); !ok {
			return nil, fmt.Errorf("%s has no parameter %q (its parameters are %s)",
				c.Algorithm.Name, key, strings.Join(c.Algorithm.ParamKeys(), ", "))
		}
	}
	known := func(id algo.ID) bool { return cl.Index(id) >= 0 }
	for _, a := range c.Actions {
		if err := a.validate(known); err != nil {
			when := algo.FormatDuration(a.At)
			switch {
			case a.After == 1:
				when += " after 1 input"
			case a.After > 1:
				when += fmt.Sprintf(" after %d inputs", a.After)
			}
			return nil, fmt.Errorf("at %s %w", when, err)
		}
	}
	if err := validateDraws(c.Draws, known); err != nil {
		return nil, err
	}
	return cl, nil
}

// Cluster returns the cluster c describes, as its nodes will see it.
func (c *Config) Cluster() (*algo.Cluster, error) {
	return algo.NewClusterGraph(c.IDs, c.Topology, c.Edges, c.Seed, c.Network.Delay.Max, c.Params)
}

// Warnings lists the algorithm's timing assumptions that c breaks, with the largest delay
// the network has at any time of the run — at the start, or set by a delay action.
func (c *Config) Warnings() []string {
	cl, err := c.Cluster()
	if err != nil || c.Algorithm.Warnings == nil {
		return nil
	}
	for _, a := range c.Actions {
		if a.Op == SetDelay {
			cl.MaxDelay = max(cl.MaxDelay, a.Delay.Max)
		}
	}
	return c.Algorithm.Warnings(cl)
}
