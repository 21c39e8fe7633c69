package scenarios

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// Scenario is a parsed scenario file: the run it describes, what happens during it, and what its
// author expects. Parse fills in the defaults (docs/scenarios.md) for the directives a file leaves
// out, and Format writes every directive, so that Parse(Format(s)) equals s.
type Scenario struct {
	Name  string // what it is called: the bundled name, or the file's name without .scn
	Title string

	Algorithm string    // a registered algorithm's name
	IDs       []algo.ID // in ring order
	Contig    bool      // the ids are 1..n, written `nodes n`
	Seed      uint64
	Delay     network.Delay
	Drop      float64 // percent
	FIFO      bool
	// Topology is the `topology` line's: the edges messages may travel (algo.TopologyNames);
	// "" when the file has none, and the run takes its algorithm's usual one.
	Topology string
	// Edges are the edges of a graph given as data, in the order written: those of `topology
	// edges 1-2 2-3 …` and the `edges` lines after it, or those of the edge-list file
	// `topology file:PATH` names, once Load has read it. Nil for any other topology. Read them,
	// do not change them: copies of the scenario share them.
	Edges  [][2]algo.ID
	Params []Setting // in the order given
	// Draws are the `draws` lines: nodes' first random draws pinned to points of their
	// ranges, in the order given (sim.Config.Draws).
	Draws  []sim.NodeDraws
	RunFor time.Duration

	Actions []Step        // in the order given; times never decrease
	Expects []Expectation // in the order given

	file       string // the file Parse read it from, and its text: for Recheck
	src        []byte
	bundled    bool    // read from the library, not a file
	topologyAt place   // where the topology line's topology is written, for errors about its file
	edgeAt     []place // where each of Edges was written
}

// Setting is a `set KEY VALUE` line.
type Setting struct {
	Key   string
	Value algo.Value
}

// Step is an `at TIME ACTION` line: the action, and the line it came from (0 when it was made
// by a program, not read from a file).
type Step struct {
	sim.Action
	Line int
}

// Defaults of a scenario that leaves a directive out (docs/scenarios.md, "Describing the run").
const (
	DefaultAlgorithm = "bully"
	DefaultNodes     = 5
	DefaultSeed      = 1
)

// New returns a scenario with every default: Bully on nodes 1..5, seed 1, delay 5ms..15ms, no
// loss, FIFO links, a run of 5s.
func New(name string) *Scenario {
	n := network.DefaultConfig()
	return &Scenario{
		Name: name, Algorithm: DefaultAlgorithm, IDs: contiguous(DefaultNodes), Contig: true,
		Seed: DefaultSeed, Delay: n.Delay, Drop: n.Drop * 100, FIFO: n.FIFO, RunFor: sim.DefaultRunFor,
	}
}

func contiguous(n int) []algo.ID {
	ids := make([]algo.ID, n)
	for i := range ids {
		ids[i] = algo.ID(i + 1)
	}
	return ids
}

// Info returns the scenario's algorithm.
func (s *Scenario) Info() (*algo.Info, error) { return algo.Lookup(s.Algorithm) }

// Config returns the run the scenario describes. The scenario must have parsed without errors.
func (s *Scenario) Config() sim.Config {
	info, err := s.Info()
	if err != nil {
		panic("scenarios: Config of a scenario that did not parse: " + err.Error())
	}
	params := algo.Params{}
	for _, p := range s.Params {
		params[p.Key] = p.Value
	}
	actions := make([]sim.Action, len(s.Actions))
	for i, a := range s.Actions {
		actions[i] = a.Action
	}
	return sim.Config{
		Algorithm: info, IDs: slices.Clone(s.IDs), Params: params, Seed: s.Seed,
		Network: network.Config{Delay: s.Delay, Drop: s.Drop / 100, FIFO: s.FIFO},
		Actions: actions, RunFor: s.RunFor, Topology: s.TopologyFor(info), Edges: s.edgesFor(),
		Draws: cloneDraws(s.Draws),
	}
}

// edgesFor returns the edges the run takes: the scenario's, when its topology is given as data.
func (s *Scenario) edgesFor() [][2]algo.ID {
	if s.Topology == "" {
		return nil
	}
	return s.Edges
}

// TopologyFor returns the topology a run of algorithm a on the scenario takes: its own when it
// names one, else a's usual one (sim.DefaultTopology). A file:PATH the scenario file names is
// read relative to the scenario file's folder, as a path written in a file is.
func (s *Scenario) TopologyFor(a *algo.Info) string {
	if s.Topology != "" {
		return s.resolve(s.Topology)
	}
	return sim.DefaultTopology(a)
}

// resolve returns topology with a relative file:PATH made relative to the folder of the file
// the scenario was read from; any other topology as it is.
func (s *Scenario) resolve(topology string) string {
	path, ok := strings.CutPrefix(topology, algo.File+":")
	if !ok || path == "" || filepath.IsAbs(path) || s.File() == "" {
		return topology
	}
	return algo.File + ":" + filepath.Join(filepath.Dir(s.File()), path)
}

// FromConfig returns the scenario of the run cfg describes, its actions in the order given:
// the inverse of Config. Title and expectations are the caller's to add.
func FromConfig(name string, cfg sim.Config) *Scenario {
	sc := New(name)
	sc.Algorithm = cfg.Algorithm.Name
	sc.IDs = slices.Clone(cfg.IDs)
	sc.Contig = slices.Equal(cfg.IDs, contiguous(len(cfg.IDs)))
	sc.Seed = cfg.Seed
	sc.Delay = cfg.Network.Delay
	sc.Drop = cfg.Network.Drop * 100
	sc.FIFO = cfg.Network.FIFO
	sc.Topology = cfg.Topology // "" (the complete graph) writes no topology line
	sc.Edges = cfg.Edges
	for _, k := range cfg.Params.Keys() {
		sc.Params = append(sc.Params, Setting{Key: k, Value: cfg.Params[k]})
	}
	sc.RunFor = cfg.RunFor
	sc.Draws = cloneDraws(cfg.Draws)
	for _, a := range cfg.Actions {
		sc.Actions = append(sc.Actions, Step{Action: a})
	}
	return sc
}

// File returns the path of the file the scenario was read from: "" for a bundled one or one
// built by a program.
func (s *Scenario) File() string {
	if s.bundled {
		return ""
	}
	return s.file
}

// Members returns the scenario's nodes, for checking the ids an action names.
func (s *Scenario) Members() *Members { return NewMembers(s.IDs) }

// cloneDraws copies pinned draws.
func cloneDraws(ds []sim.NodeDraws) []sim.NodeDraws {
	var out []sim.NodeDraws
	for _, d := range ds {
		out = append(out, sim.NodeDraws{Node: d.Node, Points: slices.Clone(d.Points)})
	}
	return out
}
