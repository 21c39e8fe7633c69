package session

import (
	"testing"
	"time"

	"electsim/sim"
)

// BenchmarkNext steps a session 20,000 steps of Raft among 5 nodes: what each step costs the
// session — the step, its records kept, and the reckoning against the memory bound.
//
//	go test ./session -run '^$' -bench Next -benchtime 20x -count 5
func BenchmarkNext(b *testing.B) {
	for range b.N {
		s := open(b, "raft-leader-crash", func(c *sim.Config) { c.RunFor, c.Actions = 1000*time.Hour, nil })
		next(b, s, 20_000)
		s.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*20_000), "ns/step")
}
