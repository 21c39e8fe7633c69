package sim_test

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/report"
	"electsim/sim"
)

// stormy is a run full of randomness and faults: random delays, loss, every kind of action.
func stormy(t tb, name string, seed uint64, e sim.Engine) sim.Config {
	cfg := sim.DefaultConfig(lookup(t, name), 7)
	cfg.IDs = []algo.ID{4, 9, 2, 7, 1, 8, 3}
	cfg.Seed = seed
	cfg.Engine = e
	cfg.Network = network.Config{Delay: network.Delay{Min: 1 * ms, Max: 30 * ms}, Drop: 0.05, FIFO: true}
	link := &network.Link{From: 8, To: 9}
	cfg.Actions = []sim.Action{
		at(0, sim.Crash, 9),
		at(200*ms, sim.Pause, 8),
		{At: 250 * ms, Op: sim.Clock, Nodes: []algo.ID{4}, Rate: 0.7},
		{At: 350 * ms, Op: sim.Clock, Nodes: []algo.ID{8}, Rate: 1.6}, // paused: its timers due already stay due
		{At: 400 * ms, Op: sim.Partition, Groups: [][]algo.ID{{1, 2, 3}, {4, 7}}},
		at(700*ms, sim.Resume, 8),
		at(800*ms, sim.Recover, 9),
		{At: 900 * ms, Op: sim.Heal},
		{At: 1000 * ms, Op: sim.Cut, Link: link},
		{At: 1100 * ms, Op: sim.SetDelay, Link: link, Delay: network.Delay{Min: 100 * ms, Max: 300 * ms}},
		{At: 1200 * ms, Op: sim.SetDrop, Drop: 20},
		at(1300*ms, sim.Crash, 8, 9),
		{At: 1400 * ms, Op: sim.Heal},
		at(1500*ms, sim.Elect, 1),
		{At: 1550 * ms, Op: sim.Clock, Nodes: []algo.ID{4}, Rate: 1},
		{At: 1600 * ms, Op: sim.SetDelay, Delay: network.Delay{Min: 1 * ms, Max: 3 * ms}},
		{At: 1700 * ms, Op: sim.SetDrop, Drop: 0},
		at(1800*ms, sim.Recover, 8, 9),
	}
	cfg.RunFor = 3 * time.Second
	return cfg
}

// jsonl runs cfg and returns its trace as JSON Lines.
func jsonl(t tb, cfg sim.Config) []byte {
	t.Helper()
	recs, _ := runTrace(t, cfg)
	var b bytes.Buffer
	w := report.NewJSONL(&b)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// docs/model.md, Determinism: same scenario + seed ⇒ byte-identical trace, on either engine, at any
// GOMAXPROCS.
func TestDeterminism(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, name := range algo.Names() {
		t.Run(name, func(t *testing.T) {
			var want []byte
			for _, procs := range []int{1, 2} {
				runtime.GOMAXPROCS(procs)
				for _, e := range engines {
					for rep := range 2 {
						got := jsonl(t, stormy(t, name, 7, e))
						if want == nil {
							want = got
							// An algorithm that elects once falls quiet after: fewer records.
							least := 200
							if !lookup(t, name).Recovers {
								least = 50
							}
							if bytes.Count(got, []byte("\n")) < least {
								t.Fatalf("the stormy run is too short to mean anything: %d records", bytes.Count(got, []byte("\n")))
							}
							continue
						}
						if !bytes.Equal(got, want) {
							t.Fatalf("GOMAXPROCS=%d %s run %d differs from the first run:\n%s", procs, e, rep, firstDiff(want, got))
						}
					}
				}
			}
			if other := jsonl(t, stormy(t, name, 8, sim.Inline)); bytes.Equal(other, want) {
				t.Error("seed 8 gives the same trace as seed 7: the seed does not reach the run")
			}
		})
	}
}

func firstDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(la), len(lb)) {
		if !bytes.Equal(la[i], lb[i]) {
			return fmt.Sprintf("line %d:\n want %s\n  got %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("lengths differ: %d and %d lines", len(la), len(lb))
}

// Running in bulk (Run: the baton passed from node to node on the goroutine engine) and step
// by step with tracing give the same run: every count, metric and violation interval agrees.
func TestBulkRunEqualsStepByStep(t *testing.T) {
	for _, name := range algo.Names() {
		for _, e := range engines {
			for _, seed := range []uint64{3, 4} {
				cfg := stormy(t, name, seed, e)
				_, traced := runTrace(t, cfg)
				plain := run(t, cfg)
				if fmt.Sprint(traced) != fmt.Sprint(plain) {
					t.Errorf("%s/%s/seed %d: summary step by step\n%v\nin bulk\n%v", name, e, seed, traced, plain)
				}
			}
		}
	}
}

// RunUntil in several stretches ends where one Run would.
func TestRunUntilInStretches(t *testing.T) {
	for _, e := range engines {
		cfg := stormy(t, "ring", 5, e)
		whole := run(t, cfg)
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for at := 250 * ms; at <= cfg.RunFor; at += 250 * ms {
			s.RunUntil(at)
			if !s.Done() && s.Now() > at {
				t.Fatalf("%s: RunUntil(%v) ran to %v", e, at, s.Now())
			}
		}
		if got := s.Summary(); fmt.Sprint(got) != fmt.Sprint(whole) {
			t.Errorf("%s: in stretches\n%v\nin one go\n%v", e, got, whole)
		}
	}
}

// The goroutine engine stops every node goroutine when a run ends, and when it is closed early.
func TestGoroutinesStop(t *testing.T) {
	waitFor := func(what string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for serving() > 0 {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<16)
				t.Fatalf("%s: %d node goroutines left over:\n%s", what, serving(), buf[:runtime.Stack(buf, true)])
			}
			time.Sleep(time.Millisecond)
		}
	}
	cfg := fixed(t, "bully", 50, 5*ms, sim.Goroutine)
	cfg.RunFor = 300 * ms
	run(t, cfg)
	waitFor("after a run to the end")

	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		s.Step()
	}
	// Count the engine's own goroutines by their function, not the process's total: another
	// goroutine (a timer of an earlier test, the test framework) may start or stop meanwhile.
	if n := serving(); n != 50 {
		t.Fatalf("%d goroutines serve nodes while running 50 nodes: the engine is not running a goroutine per node", n)
	}
	s.Close()
	s.Close()
	if _, ok := s.Step(); ok {
		t.Error("a closed Sim stepped")
	}
	waitFor("after Close")
}

// serving counts the goroutines running the goroutine engine's per-node loop.
func serving() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), "sim.(*Sim).serve(")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// With the trace off, a run in steady state allocates nothing per step (docs/performance.md).
func TestSteadyStateAllocatesNothing(t *testing.T) {
	for _, e := range engines {
		cfg := fixed(t, "bully", 64, 5*ms, e)
		cfg.Network.Delay = network.Delay{Min: 1 * ms, Max: 9 * ms}
		cfg.RunFor = time.Hour
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.RunUntil(2 * time.Second) // warm: the queue, slab and timer slots have grown
		allocs := testing.AllocsPerRun(20000, func() { s.Step() })
		s.Close()
		if allocs != 0 {
			t.Errorf("%s engine: %v allocations per step in steady state, want 0", e, allocs)
		}
	}
}

// The seed reaches the nodes' own random choices, not only the network's: Raft's election
// timeouts on a network that draws nothing (a fixed delay, no loss) differ from seed to seed.
func TestSeedReachesNodes(t *testing.T) {
	cfg := fixed(t, "raft", 5, 5*ms, sim.Inline)
	cfg.RunFor = time.Second
	a := jsonl(t, cfg)
	cfg.Seed++
	if b := jsonl(t, cfg); bytes.Equal(a, b) {
		t.Error("seeds 1 and 2 give the same Raft trace on a fixed network: the seed does not reach the nodes")
	}
}
