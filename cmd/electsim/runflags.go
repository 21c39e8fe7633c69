package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"electsim/algo"
	"electsim/internal/memlimit"
	"electsim/network"
	"electsim/scenarios"
	"electsim/sim"
)

// maxNodes bounds --nodes and --ids: enough for the 100,000-node benchmarks, with room, and
// within what a goroutine per node fits in memory.
const maxNodes = 200_000

// runFlags are the flags that configure a run (README, "The run flags"). Each overrides the
// scenario's own setting only when given.
type runFlags struct {
	algo, nodes, ids, seed, delay, drop, fifo, runFor, engine string
	topology                                                  string
	sets, ats                                                 []string
	noColor                                                   bool

	notes    []string            // what apply left out of the scenario, for the user to be told
	edgeFile *scenarios.EdgeList // --topology file:PATH's edges, read once
}

func (f *runFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.algo, "algo", "", "algorithm: "+strings.Join(algo.Names(), ", ")+" (default bully)")
	fs.StringVar(&f.nodes, "nodes", "", "number of nodes, with ids 1..N in ring order (default 5)")
	fs.StringVar(&f.ids, "ids", "", "node ids in ring order, e.g. 3,7,1,9,4")
	fs.StringVar(&f.seed, "seed", "", "seed of every random choice in the run (default 1)")
	fs.StringVar(&f.delay, "delay", "", "network delay, fixed (10ms) or uniform (5ms..15ms) (default 5ms..15ms)")
	fs.StringVar(&f.drop, "drop", "", "probability that the network loses a message, e.g. 5% (default 0%)")
	fs.StringVar(&f.fifo, "fifo", "", "on: links deliver in order; off: a message may overtake another (default on)")
	fs.StringVar(&f.topology, "topology", "", "the edges messages may travel: "+strings.Join(algo.TopologyNames(), ", ")+", or 'edges 1-2 2-3 …' (laid over the order of --ids; default: the algorithm's usual one)")
	fs.StringArrayVar(&f.sets, "set", nil, "algorithm parameter key=value, e.g. --set timeout=200ms (repeatable)")
	fs.StringVar(&f.runFor, "run", "", "virtual time to simulate (default 5s)")
	fs.StringVar(&f.engine, "engine", "", "goroutine (a goroutine per node) or inline (default goroutine)")
	fs.StringArrayVar(&f.ats, "at", nil, "an action at a time, e.g. --at '1s crash 5' --at '2s partition 1 2 | 3 4 5' (repeatable)")
	boolVar(fs, &f.noColor, "no-color", "", "no colour (also when NO_COLOR is set)")
}

// boolVar defines a boolean flag whose error, for --flag=maybe, says what it takes.
func boolVar(fs *pflag.FlagSet, p *bool, name, short, usage string) {
	fs.VarPF(&boolFlag{p: p, name: name}, name, short, usage).NoOptDefVal = "true"
}

type boolFlag struct {
	p    *bool
	name string
}

func (b *boolFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("expected true or false, or just --%s", b.name)
	}
	*b.p = v
	return nil
}

func (b *boolFlag) String() string {
	if b.p == nil {
		return "false"
	}
	return strconv.FormatBool(*b.p)
}

func (b *boolFlag) Type() string     { return "bool" }
func (b *boolFlag) IsBoolFlag() bool { return true }

// apply returns the run sc describes with the given flags applied, or a usage error naming the
// flag (or the line of sc that the flags make wrong). With --algo naming another algorithm, it
// leaves sc's expectations out, and says so in f.notes.
func (f *runFlags) apply(fs *pflag.FlagSet, sc *scenarios.Scenario) (sim.Config, error) {
	cfg := sc.Config() // a copy: its parameters and actions are its own
	for _, set := range []func(*pflag.FlagSet, *sim.Config, *scenarios.Scenario) error{
		f.applyAlgorithm, f.applyTopology, f.applyNodes, f.applySetup, f.applyParams, f.applyLength,
	} {
		if err := set(fs, &cfg, sc); err != nil {
			return cfg, err
		}
	}
	if f.edgeFile != nil { // the file's edges, at their place in it, against the nodes as the flags make them
		if err := f.edgeFile.Check(cfg.IDs, ""); err != nil {
			return cfg, usagef("--topology %s: %v", shown(f.topology), err)
		}
	}
	if _, err := cfg.Cluster(); err != nil && fs.Changed("topology") {
		// The topology does not fit the nodes: a grid of the wrong size, a file naming others.
		return cfg, usagef("--topology %s: %v", shown(f.topology), err)
	}
	cfg.MaxMemory = memlimit.Budget()
	if err := f.fits(fs, cfg, sc); err != nil {
		return cfg, err
	}
	if err := f.applyActions(&cfg, sc); err != nil {
		return cfg, err
	}
	// Actions of the scenario that name nodes the flags removed are caught here.
	if err := cfg.Validate(); err != nil {
		return cfg, usagef("%v", err)
	}
	return cfg, nil
}

// applyAlgorithm applies --algo. Another algorithm's parameters and expectations mean nothing
// here: they are left out, and the expectations' loss is noted.
func (f *runFlags) applyAlgorithm(fs *pflag.FlagSet, cfg *sim.Config, sc *scenarios.Scenario) error {
	if !fs.Changed("algo") {
		return nil
	}
	a, err := algo.Lookup(f.algo)
	if err != nil {
		return usagef("--algo %s: %v", shown(f.algo), err)
	}
	if cfg.Algorithm == nil || a.Name != cfg.Algorithm.Name {
		cfg.Params = algo.Params{}
		if len(sc.Expects) > 0 {
			f.notes = append(f.notes, fmt.Sprintf("the %d expectations of %s are left out: they were written for %s, not %s",
				len(sc.Expects), sc.Name, sc.Algorithm, a.Name))
			sc.Expects = nil
		}
	}
	cfg.Algorithm = a
	return nil
}

// applyTopology applies --topology; with --algo alone, the run takes the scenario's topology
// or, when it names none, the new algorithm's usual one. An algorithm that does not run on the
// topology is a usage error naming what it takes.
func (f *runFlags) applyTopology(fs *pflag.FlagSet, cfg *sim.Config, sc *scenarios.Scenario) error {
	switch {
	case fs.Changed("topology"):
		if f.topology == "" {
			return usagef("--topology: expected a topology: %s", strings.Join(algo.TopologyNames(), ", "))
		}
		if err := f.readTopology(cfg); err != nil {
			return err
		}
	case fs.Changed("algo"):
		cfg.Topology = sc.TopologyFor(cfg.Algorithm)
	}
	if err := cfg.Algorithm.CheckTopology(cfg.Topology); err != nil {
		switch {
		case fs.Changed("topology"):
			return usagef("--topology %s: %v", shown(f.topology), err)
		case fs.Changed("algo"):
			return usagef("--algo %s: %v (give --topology %s)", shown(f.algo), err, cfg.Algorithm.TopologyList()[0])
		}
		return usagef("%v", err)
	}
	return nil
}

// readTopology reads --topology: a topology's name; file:PATH, whose file is read here, once,
// and its edges given to the run as data (scenarios.ReadEdgeFile); or edges A-B …, the edges
// written out as a scenario's topology line writes them.
func (f *runFlags) readTopology(cfg *sim.Config) error {
	if text, ok := strings.CutPrefix(f.topology, algo.EdgeList+" "); ok {
		edges, err := scenarios.ParseEdges(text)
		if err != nil {
			return usagef("--topology %s: %v", shown(f.topology), err)
		}
		cfg.Topology, cfg.Edges = algo.EdgeList, edges
		return nil
	}
	if err := algo.CheckTopology(f.topology); err != nil {
		return usagef("--topology %s: %v", shown(f.topology), err)
	}
	cfg.Topology, cfg.Edges = f.topology, nil
	if path, ok := strings.CutPrefix(f.topology, algo.File+":"); ok {
		l, err := scenarios.ReadEdgeFile(path)
		if err != nil {
			return usagef("--topology %s: %v", shown(f.topology), err)
		}
		cfg.Edges, f.edgeFile = l.Edges, l
	}
	return nil
}

// applyNodes applies --nodes or --ids.
func (f *runFlags) applyNodes(fs *pflag.FlagSet, cfg *sim.Config, _ *scenarios.Scenario) error {
	if fs.Changed("nodes") {
		n, err := strconv.Atoi(f.nodes)
		if err != nil || n < 1 || n > maxNodes {
			return usagef("--nodes %s: expected a number of nodes from 1 to %d, e.g. --nodes 5", shown(f.nodes), maxNodes)
		}
		if fs.Changed("ids") {
			return usagef("--nodes and --ids both given: --ids alone names the nodes and their ring order")
		}
		cfg.IDs = make([]algo.ID, n)
		for i := range cfg.IDs {
			cfg.IDs[i] = algo.ID(i + 1)
		}
	}
	if fs.Changed("ids") {
		ids, err := parseIDs(f.ids)
		if err != nil {
			return usagef("--ids %s: %v", shown(f.ids), err)
		}
		cfg.IDs = ids
	}
	return nil
}

// applySetup applies --seed and the network's flags: --delay, --drop, --fifo.
func (f *runFlags) applySetup(fs *pflag.FlagSet, cfg *sim.Config, _ *scenarios.Scenario) error {
	if fs.Changed("seed") {
		s, err := strconv.ParseUint(f.seed, 10, 64)
		if err != nil {
			return usagef("--seed %s: expected a whole number from 0 to 18446744073709551615", shown(f.seed))
		}
		cfg.Seed = s
	}
	if fs.Changed("delay") {
		lo, hi, err := algo.ParseRange(f.delay)
		if err != nil {
			return usagef("--delay %s: %v", shown(f.delay), err)
		}
		cfg.Network.Delay = network.Delay{Min: lo, Max: hi}
	}
	if fs.Changed("drop") {
		p, err := parsePercent(f.drop)
		if err != nil {
			return usagef("--drop %s: %v", shown(f.drop), err)
		}
		cfg.Network.Drop = p / 100
	}
	if fs.Changed("fifo") {
		switch f.fifo {
		case "on":
			cfg.Network.FIFO = true
		case "off":
			cfg.Network.FIFO = false
		default:
			return usagef("--fifo %s: expected on or off", shown(f.fifo))
		}
	}
	return nil
}

// applyParams applies each --set key=value, each key once.
func (f *runFlags) applyParams(_ *pflag.FlagSet, cfg *sim.Config, _ *scenarios.Scenario) error {
	given := map[string]string{}
	for _, kv := range f.sets {
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return usagef("--set %s: expected key=value, e.g. --set timeout=200ms", shown(kv))
		}
		if first, twice := given[key]; twice {
			return usagef("--set %s: %s is set twice (--set %s first); give each parameter once", shown(kv), shown(key), shown(first))
		}
		given[key] = kv
		v, err := cfg.Algorithm.ParseParam(key, value)
		if err != nil {
			return usagef("--set %s: %v", shown(kv), err)
		}
		for _, pair := range v.NodeNumbers() { // a number for each of some nodes: they must be nodes
			if !slices.Contains(cfg.IDs, pair.ID) {
				return usagef("--set %s: %s: unknown node %d (nodes are %s)", kv, key, pair.ID, scenarios.NewMembers(cfg.IDs))
			}
		}
		cfg.Params[key] = v
	}
	return nil
}

// applyLength applies --run and --engine.
func (f *runFlags) applyLength(fs *pflag.FlagSet, cfg *sim.Config, _ *scenarios.Scenario) error {
	if fs.Changed("run") {
		d, err := algo.ParseDuration(f.runFor)
		switch {
		case err != nil:
			return usagef("--run %s: %v", shown(f.runFor), err)
		case d <= 0:
			return usagef("--run %s: expected a positive duration such as 2s or 500ms", shown(f.runFor))
		}
		cfg.RunFor = d
	}
	if fs.Changed("engine") {
		e, err := sim.ParseEngine(f.engine)
		if err != nil {
			return usagef("--engine %s: %v", shown(f.engine), err)
		}
		cfg.Engine = e
	}
	return nil
}

// fits says which flag makes the nodes too few for the algorithm, and reports, each at its
// place as a mistake in the file would be, every action of sc that what the flags change makes
// wrong.
func (f *runFlags) fits(fs *pflag.FlagSet, cfg sim.Config, sc *scenarios.Scenario) error {
	if v := cfg.Algorithm.Validate; v != nil {
		if cl, err := cfg.Cluster(); err == nil {
			if err := v(cl); err != nil {
				for _, flag := range []struct{ name, value string }{{"nodes", f.nodes}, {"ids", f.ids}, {"algo", f.algo}} {
					if fs.Changed(flag.name) {
						return usagef("--%s %s: %v", flag.name, shown(flag.value), err)
					}
				}
			}
		}
	}
	if !fs.Changed("algo") && !fs.Changed("nodes") && !fs.Changed("ids") && !fs.Changed("run") {
		return nil
	}
	var o scenarios.Override
	var flags []string
	if fs.Changed("algo") {
		o.Algorithm = cfg.Algorithm.Name
		flags = append(flags, "--algo "+f.algo)
	}
	if fs.Changed("nodes") {
		o.IDs, o.NodesFlag = cfg.IDs, "--nodes "+f.nodes
		flags = append(flags, o.NodesFlag)
	}
	if fs.Changed("ids") {
		o.IDs, o.NodesFlag = cfg.IDs, "--ids "+f.ids
		flags = append(flags, o.NodesFlag)
	}
	if fs.Changed("run") {
		o.RunFor, o.RunForFlag = cfg.RunFor, "--run "+f.runFor
		flags = append(flags, o.RunForFlag)
	}
	if err := sc.Recheck(o); err != nil {
		var list scenarios.ErrorList
		if errors.As(err, &list) {
			return mistakesError{list: list, what: fmt.Sprintf("%s with %s", list[0].File, strings.Join(flags, " "))}
		}
		return usagef("%v", err)
	}
	return nil
}

// applyActions sets the run's actions: the scenario's, each of which must still name nodes
// of the run and fall within it, then those of --at.
func (f *runFlags) applyActions(cfg *sim.Config, sc *scenarios.Scenario) error {
	cfg.Actions = append([]sim.Action(nil), cfg.Actions...)
	members := scenarios.NewMembers(cfg.IDs)
	for _, a := range sc.Actions {
		for _, id := range a.Action.NodeIDs() {
			if !slices.Contains(cfg.IDs, id) {
				return usagef("%s.scn:%d: at %s %s names node %d, which the nodes you chose (%s) leave out",
					sc.Name, a.Line, scenarios.FormatWhen(a.Action), a.Action, id, members)
			}
		}
		if a.At > cfg.RunFor {
			return usagef("%s.scn:%d: at %s %s comes after the end of the run you chose (%s)",
				sc.Name, a.Line, scenarios.FormatWhen(a.Action), a.Action, algo.FormatDuration(cfg.RunFor))
		}
	}
	for _, text := range f.ats {
		a, err := scenarios.ParseAt(text, members)
		if err != nil {
			return usagef("--at '%s': %v", shown(text), err)
		}
		if a.At > cfg.RunFor {
			return usagef("--at '%s': %s is after the end of the run (%s); lengthen the run with --run",
				shown(text), algo.FormatDuration(a.At), algo.FormatDuration(cfg.RunFor))
		}
		cfg.Actions = append(cfg.Actions, a)
	}
	return nil
}

// parseIDs reads "3,7,1" (or spaces): distinct positive ids.
func parseIDs(s string) ([]algo.ID, error) {
	var fields []string
	parts := strings.Split(s, ",")
	for i, part := range parts {
		ids := strings.Fields(part)
		if len(ids) == 0 && len(parts) > 1 {
			where := "between two commas"
			switch i {
			case 0:
				where = "before the first comma"
			case len(parts) - 1:
				where = "after the last comma"
			}
			return nil, fmt.Errorf("expected a node id %s, e.g. --ids 3,7,1,9,4", where)
		}
		fields = append(fields, ids...)
	}
	if len(fields) == 0 {
		return nil, fmt.Errorf("expected node ids in ring order, e.g. --ids 3,7,1,9,4")
	}
	if len(fields) > maxNodes {
		return nil, fmt.Errorf("at most %d nodes", maxNodes)
	}
	seen := map[algo.ID]bool{}
	ids := make([]algo.ID, 0, len(fields))
	for _, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("expected positive whole numbers, got %q", f)
		}
		if seen[algo.ID(n)] {
			return nil, fmt.Errorf("node %d appears twice; ids must be distinct", n)
		}
		seen[algo.ID(n)] = true
		ids = append(ids, algo.ID(n))
	}
	return ids, nil
}

// parsePercent reads "5%" or "12.5%" (0 to 100).
func parsePercent(s string) (float64, error) {
	num, ok := strings.CutSuffix(s, "%")
	v, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || !(v >= 0 && v <= 100) {
		return 0, fmt.Errorf("expected a percentage from 0%% to 100%%, e.g. 5%%")
	}
	return v, nil
}
