package explore

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"electsim/sim/check"
)

// BenchmarkExplore explores Raft on 3 nodes under crash and recover, budget 2, to depth 16, on
// one worker, and reports the states generated a minute of wall clock and a minute of the
// process's CPU time — the one core's, when other work shares the machine (docs/properties.md
// quotes both).
func BenchmarkExplore(b *testing.B) {
	for b.Loop() {
		x := newExplorer(b, Options{Base: base(b, "raft", 3), Faults: check.Crash | check.Recover, Budget: 2,
			Depth: 16, Property: "one-leader-per-term", Workers: 1})
		start, cpu := time.Now(), cpuTime()
		res := x.Run(nil)
		el, used := time.Since(start), cpuTime()-cpu
		b.ReportMetric(float64(res.Generated)/el.Minutes(), "states/min")
		b.ReportMetric(float64(res.Generated)/used.Minutes(), "states/cpu-min")
		b.ReportMetric(float64(res.Distinct), "distinct")
	}
}

// cpuTime returns the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkClone measures what keeping a state as a copy of the run would cost, against
// rebuilding it: the stateful search's memory per state.
func BenchmarkCloneBytes(b *testing.B) {
	x := newExplorer(b, Options{Base: base(b, "raft", 3), Faults: check.Crash | check.Recover, Budget: 2})
	s := x.root()
	for range 30 {
		s.StepChoosing(0)
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

// BenchmarkTenMillionStates measures what the search keeps for 10,000,000 distinct states —
// the set of fingerprints and the tree of paths — by filling both: the memory bound's share
// that grows with the states (docs/properties.md quotes it beside a whole run's peak).
func BenchmarkTenMillionStates(b *testing.B) {
	const n = 10_000_000
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s := newSet()
		var tree []link
		x := uint64(0x9e3779b97f4a7c15)
		for i := range n {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			s.add(fingerprint{x, x * 0xbf58476d1ce4e5b9})
			tree = append(tree, link{uint32(i), 0})
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MB")
		b.ReportMetric(float64(s.bytes()+int64(cap(tree))*8)/(1<<20), "MB-kept")
		runtime.KeepAlive(tree)
	}
}
