package explore

import (
	"runtime"
	"testing"
	"time"

	"electsim/sim/check"
)

// BenchmarkExplore explores Raft on 3 nodes under crash and recover, budget 2, to depth 16, on
// one worker, and reports the states generated a minute (docs/properties.md quotes it).
func BenchmarkExplore(b *testing.B) {
	for b.Loop() {
		x := newExplorer(b, Options{Base: base(b, "raft", 3), Faults: check.Crash | check.Recover, Budget: 2,
			Depth: 16, Property: "one-leader-per-term", Workers: 1})
		start := time.Now()
		res := x.Run(nil)
		el := time.Since(start)
		b.ReportMetric(float64(res.Generated)/el.Minutes(), "states/min")
		b.ReportMetric(float64(res.Distinct), "distinct")
	}
}

// BenchmarkClone measures what keeping a state as a copy of the run would cost, against
// rebuilding it: the stateful search's memory per state.
func BenchmarkCloneBytes(b *testing.B) {
	x := newExplorer(b, Options{Base: base(b, "raft", 3), Faults: check.Crash | check.Recover, Budget: 2})
	s := x.root()
	for range 30 {
		s.StepChoosing(nil)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	keep := make([]any, 0, 1000)
	for range 1000 {
		keep = append(keep, s.Clone())
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	for b.Loop() {
		s.Clone()
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/1000, "bytes/state")
}
