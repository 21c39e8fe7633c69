package check

import (
	"runtime"
	"testing"
	"time"
)

// The checker's target (docs/performance.md): at least 200 runs a second for Bully on 5 nodes with
// 2s runs, inline engine. Each run draws a schedule of crashes and partitions, runs it and judges
// at-most-one-leader, through Check.Run; one worker, so the figure is per core.
//
//	go test ./sim/check -run '^$' -bench Check -benchtime 2000x
func BenchmarkCheckBully(b *testing.B) {
	benchCheck(b, Crash|Partition, 1)
}

// The same with every fault class.
func BenchmarkCheckBullyAllFaults(b *testing.B) {
	all, _ := ParseFaults("crash,recover,partition,delay,pause,loss")
	benchCheck(b, all, 1)
}

// The same with no faults: every run holds the property, so every run goes its whole 2s (a run
// that breaks a safety property stops where it breaks it).
func BenchmarkCheckBullyNoFaults(b *testing.B) {
	benchCheck(b, None, 1)
}

// The same on every core, as electsim check runs.
func BenchmarkCheckBullyParallel(b *testing.B) {
	benchCheck(b, Crash|Partition, runtime.GOMAXPROCS(0))
}

func benchCheck(b *testing.B, faults Faults, workers int) {
	cfg := base(b, "bully", 5)
	cfg.RunFor = 2 * time.Second
	c := newCheck(b, Options{Base: cfg, Faults: faults, Runs: b.N, Workers: workers})
	b.ReportAllocs()
	b.ResetTimer()
	res := c.Run(nil)
	b.StopTimer()
	if res.Runs != b.N {
		b.Fatalf("%d runs, want %d", res.Runs, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
}
