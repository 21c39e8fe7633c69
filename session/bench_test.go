package session

import (
	"fmt"
	"testing"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// Stepping back, the run alone — no frame drawn (the TUI's BenchmarkBackStep draws them): each
// iteration is a step back and a step forward again, after a first step back (first-ns), with
// the copies a session keeps and, to compare, replaying from the start every time. On a
// 200,000-node ring early in the run (step 30), once every node has booted (step 200,030) and
// near its end (step 600,030 of 601,009); and a million steps into Bully runs of an hour among
// 50 and 2,000 nodes.
//
//	go test ./session -run '^$' -bench Back -benchtime 5x -timeout 60m
func BenchmarkBack(b *testing.B) {
	cases := []struct {
		algo  string
		nodes int
		run   time.Duration // 0: the default
		at    []int
	}{
		{"ring", 200_000, 0, []int{30, 200_030, 600_030}},
		{"bully", 50, time.Hour, []int{1_000_030}},
		{"bully", 2_000, time.Hour, []int{1_000_030}},
	}
	for _, c := range cases {
		info, err := algo.Lookup(c.algo)
		if err != nil {
			b.Fatal(err)
		}
		for _, at := range c.at {
			for _, copies := range []bool{true, false} {
				how := "copies"
				if !copies {
					how = "from the start"
				}
				b.Run(fmt.Sprintf("%s %d/step %d/%s", c.algo, c.nodes, at, how), func(b *testing.B) {
					cfg := sim.DefaultConfig(info, c.nodes)
					cfg.Engine = sim.Inline // a step back replays on it whatever the engine; the steps to get there are quicker
					if c.run > 0 {
						cfg.RunFor = c.run
					}
					benchBack(b, cfg, at, copies)
				})
			}
		}
	}
}

func benchBack(b *testing.B, cfg sim.Config, at int, copies bool) {
	s, err := New(cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if !copies {
		s.cps.spacing = -1
	}
	for range at {
		s.Next()
	}
	// The first step back replays from the start, keeping a copy on its way if it is to.
	start := time.Now()
	if err := s.Back(1); err != nil {
		b.Fatal(err)
	}
	first := time.Since(start)
	s.Next()
	cpu := cpuTime()
	for b.Loop() {
		if err := s.Back(1); err != nil {
			b.Fatal(err)
		}
		s.Next()
	}
	// CPU time, every thread's: on a machine shared with other work, steadier than the wall
	// time.
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(s.cps.list)), "copies")
	b.ReportMetric(float64(first), "first-ns")
	if len(s.Steps()) != at {
		b.Fatalf("at step %d, want %d", len(s.Steps()), at)
	}
}
