package algotest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
	"electsim/sim/check"
)

// Algorithm is the whole conformance check of an algorithm: what its own test calls, and what
// docs/writing-an-algorithm.md walks through. Beside Conformance (Clone and AppendState), it
// runs the algorithm on the engine and holds it to what its Info declares:
//
//   - determinism: a stormy run — crashes, a partition, loss — gives the same trace on both
//     engines, on every topology it runs on;
//   - no panic and no runaway under any fault class: random schedules of each class of the
//     property matrix run to their end;
//   - its declared guarantees (Info.Guarantees): a ✓ cell holds over random schedules of its
//     faults, a ✗ cell is shown broken by one;
//   - its election without faults, when it declares a winner or a theory: on random rings of
//     a few nodes it elects exactly one leader, the one it declares (Info.Winner), every node
//     names it, and it keeps the bound on messages its theory gives (Info.Theory).
//
// runs scales the random runs of each part: 40 is thorough, 5 quick.
func Algorithm(t *testing.T, info *algo.Info, runs int) {
	t.Helper()
	t.Run("clone and state", func(t *testing.T) { Conformance(t, info, nil) })
	for _, top := range info.TopologyList() {
		t.Run("engines agree on "+top, func(t *testing.T) { EnginesAgree(t, info, top) })
	}
	t.Run("every fault class", func(t *testing.T) { FaultClasses(t, info, runs) })
	t.Run("guarantees", func(t *testing.T) { Guarantees(t, info, runs) })
	t.Run("election", func(t *testing.T) { Elects(t, info, runs) })
}

// base is a run of info among 5 nodes, in a scrambled ring order, on its usual topology.
func base(t *testing.T, info *algo.Info, top string) sim.Config {
	t.Helper()
	n := 5
	for ; n < 9; n++ { // the smallest from 5 it takes
		cfg := sim.DefaultConfig(info, n)
		if cfg.Validate() == nil {
			break
		}
	}
	cfg := sim.DefaultConfig(info, n)
	rand.New(rand.NewPCG(uint64(n), 1)).Shuffle(n, func(i, j int) { cfg.IDs[i], cfg.IDs[j] = cfg.IDs[j], cfg.IDs[i] })
	cfg.Topology = top
	if err := cfg.Validate(); err != nil {
		t.Fatalf("%s on %s among %d nodes: %v", info.Name, top, n, err)
	}
	return cfg
}

// EnginesAgree runs info on topology top through crashes, a recovery, a partition, a pause
// and loss, on both engines, and fails unless their traces are the same record for record.
func EnginesAgree(t *testing.T, info *algo.Info, top string) {
	t.Helper()
	cfg := base(t, info, top)
	ids := cfg.IDs
	ms := time.Millisecond
	cfg.Network = network.Config{Delay: network.Delay{Min: ms, Max: 30 * ms}, Drop: 0.03, FIFO: true}
	cfg.Actions = []sim.Action{
		{At: 5 * ms, Op: sim.Pause, Nodes: ids[1:2]},
		{At: 60 * ms, Op: sim.Resume, Nodes: ids[1:2]},
		{At: 100 * ms, Op: sim.Crash, Nodes: ids[2:3]},
		{At: 200 * ms, Op: sim.Partition, Groups: [][]algo.ID{ids[:2], ids[2:]}},
		{At: 400 * ms, Op: sim.Heal},
		{At: 500 * ms, Op: sim.Recover, Nodes: ids[2:3]},
		{At: 600 * ms, Op: sim.Elect, Nodes: ids[:1]},
	}
	cfg.RunFor, cfg.Trace = 2*time.Second, true
	var traces [2][]string
	for i, e := range []sim.Engine{sim.Goroutine, sim.Inline} {
		cfg.Engine = e
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for {
			st, ok := s.Step()
			if !ok {
				break
			}
			for _, r := range st.Records {
				traces[i] = append(traces[i], fmt.Sprintf("%d %s %d %d %s %s %s %d %d %s", r.Step, r.At, r.Type, r.Node,
					r.Msg, r.Timer, r.New, r.Leader, r.Term, r.Note))
			}
		}
		s.Close()
	}
	if !slices.Equal(traces[0], traces[1]) {
		for k := range min(len(traces[0]), len(traces[1])) {
			if traces[0][k] != traces[1][k] {
				t.Fatalf("the engines disagree at record %d:\n goroutine %s\n    inline %s", k, traces[0][k], traces[1][k])
			}
		}
		t.Fatalf("the engines disagree: %d records and %d", len(traces[0]), len(traces[1]))
	}
}

// FaultClasses runs info under random schedules of every fault class of the property matrix,
// and of all of them together: every run ends — no panic, no loop that stops virtual time, no
// flood.
func FaultClasses(t *testing.T, info *algo.Info, runs int) {
	t.Helper()
	all, _ := check.ParseFaults("crash,recover,partition,delay,pause,loss")
	columns := append(check.Columns(), check.Column{Name: "everything", Faults: all})
	for _, col := range columns {
		c, err := check.New(check.Options{Base: inline(base(t, info, sim.DefaultTopology(info))), Faults: col.Faults, Runs: runs})
		if err != nil {
			t.Fatalf("%s: %v", col.Name, err)
		}
		if res := c.Run(nil); res.Halted > 0 {
			t.Errorf("under %s: %d of %d runs could not finish", col.Name, res.Halted, res.Runs)
		}
	}
}

func inline(cfg sim.Config) sim.Config {
	cfg.Engine, cfg.RunFor = sim.Inline, 0
	return cfg
}

// Guarantees holds info to its rows of the property matrix: each ✓ cell holds in runs random
// schedules of its faults, and each ✗ cell breaks in one of up to 50 × runs.
func Guarantees(t *testing.T, info *algo.Info, runs int) {
	t.Helper()
	rows := check.RowsOf([]*algo.Info{info})
	for _, row := range rows {
		for col, column := range check.Columns() {
			if col >= len(row.Theory) || row.Theory[col] == check.Open {
				continue
			}
			cfg := inline(base(t, info, sim.DefaultTopology(info)))
			cfg.Params = algo.Params{}
			for _, p := range row.Params {
				v, err := info.ParseParam(p.Key, p.Value)
				if err != nil {
					t.Fatalf("%s: %v", row.Label(), err)
				}
				cfg.Params[p.Key] = v
			}
			o := check.Options{Base: cfg, Faults: column.Faults, Property: row.Property, Runs: runs}
			if row.Theory[col] == check.Breaks {
				o.Runs, o.StopAfter = 50*runs, 1
			}
			c, err := check.New(o)
			if err != nil {
				t.Fatalf("%s × %s: %v", row.Label(), column.Name, err)
			}
			res := c.Run(nil)
			switch {
			case row.Theory[col] == check.Holds && res.Failed > 0:
				t.Errorf("%s × %s: declared to hold, broken in %d of %d runs; first: %v", row.Label(), column.Name, res.Failed, res.Runs, res.Failures[0])
			case row.Theory[col] == check.Breaks && res.Failed == 0:
				t.Errorf("%s × %s: declared to break, held in all %d runs", row.Label(), column.Name, res.Runs)
			}
		}
	}
}

// Elects runs info without faults on runs random rings of 3 to 12 nodes with scattered ids, on
// each topology it runs on, to their end: exactly one node leads, every node names it, it is
// the winner info declares, and the messages keep the bound of its theory. An algorithm that
// declares neither a winner nor a theory — a lease, Raft — is only required to end the run
// with one leader every node names, when it promises to recover.
func Elects(t *testing.T, info *algo.Info, runs int) {
	t.Helper()
	if info.Winner == algo.AnyWinner && info.Theory == nil && !info.Recovers {
		t.Skip("declares no winner, no theory, and no recovery: nothing to hold it to")
	}
	rng := rand.New(rand.NewPCG(uint64(len(info.Name)), 99))
	for _, top := range info.TopologyList() {
		for k := range runs {
			n := 3 + rng.IntN(10)
			cfg := sim.DefaultConfig(info, n)
			for i, p := range rng.Perm(3 * n)[:n] {
				cfg.IDs[i] = algo.ID(p + 1)
			}
			cfg.Topology, cfg.Seed, cfg.Engine = top, uint64(k), sim.Inline
			cfg.RunFor = 10 * time.Second
			if info.Theory == nil {
				cfg.UntilLeader = true // an algorithm that goes on beating: its first agreed leader
			}
			if cfg.Validate() != nil {
				continue // too few nodes for it
			}
			s, err := sim.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			sum := s.Run()
			var leaders []algo.ID
			for _, v := range sum.Nodes {
				if v.Status == sim.Leader {
					leaders = append(leaders, v.ID)
				}
			}
			var sent int64
			for _, x := range sum.Sent {
				sent += x
			}
			where := fmt.Sprintf("%s on %s, ids %v, seed %d", info.Name, top, cfg.IDs, cfg.Seed)
			switch {
			case sum.Halted != "":
				t.Fatalf("%s: halted: %s", where, sum.Halted)
			case len(leaders) != 1 || sum.Leader != leaders[0]:
				t.Fatalf("%s: leaders %v, agreed leader %d: want exactly one, named by every node", where, leaders, sum.Leader)
			case info.Winner == algo.Highest && sum.Leader != slices.Max(cfg.IDs):
				t.Fatalf("%s: elected %d, not the highest id", where, sum.Leader)
			case info.Winner == algo.Lowest && sum.Leader != slices.Min(cfg.IDs):
				t.Fatalf("%s: elected %d, not the lowest id", where, sum.Leader)
			case info.Theory != nil && !info.Theory.Expected && float64(sent) > info.Theory.Messages(n):
				t.Fatalf("%s: %d messages, above its bound %s = %.0f", where, sent, info.Theory.Bound, info.Theory.Messages(n))
			}
		}
	}
}
