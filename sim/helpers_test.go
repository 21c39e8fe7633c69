package sim_test

import (
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

var engines = []sim.Engine{sim.Goroutine, sim.Inline}

// tb is what the helpers need of a test: *testing.T, *testing.B and *rapid.T all have it.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

func lookup(t tb, name string) *algo.Info {
	t.Helper()
	a, err := algo.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// fixed returns a config of algorithm name on nodes 1..n with a fixed delay.
func fixed(t tb, name string, n int, delay time.Duration, e sim.Engine) sim.Config {
	cfg := sim.DefaultConfig(lookup(t, name), n)
	cfg.Network.Delay = network.Delay{Min: delay, Max: delay}
	cfg.Engine = e
	return cfg
}

func run(t tb, cfg sim.Config) sim.Summary {
	t.Helper()
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s.Run()
}

// runTrace runs cfg with tracing and returns every record.
func runTrace(t tb, cfg sim.Config) ([]sim.Record, sim.Summary) {
	t.Helper()
	cfg.Trace = true
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var recs []sim.Record
	for {
		r, ok := s.Step()
		if !ok {
			break
		}
		recs = append(recs, r.Records...)
	}
	return recs, s.Summary()
}

func at(d time.Duration, op sim.Op, ids ...algo.ID) sim.Action {
	return sim.Action{At: d, Op: op, Nodes: ids}
}

const ms = time.Millisecond
