package sim_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"electsim/algo"
	"electsim/sim"
	"electsim/sim/bench"
)

// BenchmarkPingPong is the floor the goroutine engine is measured against (docs/performance.md):
// one round trip over a pair of unbuffered channels between two goroutines, per op.
func BenchmarkPingPong(b *testing.B) {
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v
		}
	}()
	for b.Loop() {
		ping <- 1
		<-pong
	}
	close(ping)
}

func delivered(s sim.Summary) int64 {
	var d int64
	for _, x := range s.Delivered {
		d += x
	}
	return d
}

// BenchmarkSteady measures the engine per delivered message with the trace off, in the steady
// state of a Bully cluster: the leader's heartbeats to every node and each follower's
// suspicion timer reset by them. The election before is not timed.
func BenchmarkSteady(b *testing.B) {
	for _, n := range []int{10, 1000} {
		for _, e := range engines {
			b.Run(fmt.Sprintf("%s/n=%d", e, n), func(b *testing.B) {
				cfg := fixed(b, "bully", n, 5*ms, e)
				cfg.RunFor = time.Hour
				// The heartbeats of a virtual stretch long enough for ≈100,000 deliveries.
				stretch := time.Duration(100_000/(n-1)+1) * 50 * ms
				var msgs int64
				var elapsed time.Duration
				var before, after runtime.MemStats
				for b.Loop() {
					b.StopTimer()
					s, err := sim.New(cfg)
					if err != nil {
						b.Fatal(err)
					}
					s.RunUntil(time.Second)
					start := delivered(s.Summary())
					runtime.ReadMemStats(&before)
					t0 := time.Now()
					b.StartTimer()
					s.RunUntil(time.Second + stretch)
					b.StopTimer()
					elapsed += time.Since(t0)
					runtime.ReadMemStats(&after)
					msgs += delivered(s.Summary()) - start
					s.Close()
					b.StartTimer()
				}
				b.ReportMetric(float64(elapsed.Nanoseconds())/float64(msgs), "ns/msg")
				b.ReportMetric(float64(after.Mallocs-before.Mallocs)*float64(b.N)/float64(msgs), "allocs/msg")
			})
		}
	}
}

// BenchmarkElection measures a whole Bully election from boot with the top node down, trace
// off: ≈n² messages, half of them in flight at once.
func BenchmarkElection(b *testing.B) {
	for _, n := range []int{1000} {
		for _, e := range engines {
			b.Run(fmt.Sprintf("%s/n=%d", e, n), func(b *testing.B) {
				cfg := fixed(b, "bully", n, 5*ms, e)
				cfg.Actions = []sim.Action{at(0, sim.Crash, algo.ID(n))}
				cfg.RunFor = 200 * ms
				var msgs int64
				for b.Loop() {
					msgs += delivered(run(b, cfg))
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(msgs), "ns/msg")
				b.ReportMetric(float64(msgs)/float64(b.N), "msgs/run")
			})
		}
	}
}

// BenchmarkRingSteps measures the steps of bench's Chang–Roberts election after boot — every
// ELECTION and ELECTED delivered, nearly each passed on — per step, without setting up the run
// or booting its nodes. Among 2,000 nodes the memory of every node stays in the processor's
// caches: the engine's and the algorithm's work alone. Among 100,000 nearly every step's
// memory comes from RAM: the difference is what waiting for it costs, after the engine has
// fetched what it can ahead of the steps (prefetch.go). `-short` skips 100,000 nodes.
func BenchmarkRingSteps(b *testing.B) {
	for _, n := range []int{2000, 100_000} {
		for _, e := range engines {
			b.Run(fmt.Sprintf("%s/n=%d", e, n), func(b *testing.B) {
				if n >= 100_000 && testing.Short() {
					b.Skip("100,000 nodes: skipped under -short")
				}
				cfg, err := bench.Workload("ring", n, 1, e)
				if err != nil {
					b.Fatal(err)
				}
				var steps int
				var elapsed time.Duration
				for b.Loop() {
					b.StopTimer()
					s, err := sim.New(cfg)
					if err != nil {
						b.Fatal(err)
					}
					s.RunUntil(time.Millisecond) // boot: every node sends its ELECTION
					before := s.Steps()
					t0 := time.Now()
					b.StartTimer()
					s.RunUntil(cfg.RunFor)
					b.StopTimer()
					elapsed += time.Since(t0)
					steps += s.Steps() - before
					s.Close()
					b.StartTimer()
				}
				b.ReportMetric(float64(elapsed.Nanoseconds())/float64(steps), "ns/step")
			})
		}
	}
}
