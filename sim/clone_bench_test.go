package sim_test

import (
	"fmt"
	"testing"
	"time"

	"electsim/sim"
)

// midElection is a Chang–Roberts run as the TUI plays it — the defaults (ACKs on, delay
// 5ms..15ms), the trace on — stepped to the middle of its election: half of the steps it takes
// until every node names the leader (1,200,009 among 200,000 nodes, seed 1).
func midElection(b *testing.B, n int, e sim.Engine) (*sim.Sim, int) {
	b.Helper()
	if n >= 100_000 && testing.Short() {
		b.Skip("100,000 nodes or more: skipped under -short")
	}
	cfg := sim.DefaultConfig(lookup(b, "ring"), n)
	cfg.Engine, cfg.Trace, cfg.RunFor = e, true, time.Hour
	probe := cfg
	probe.Engine, probe.Trace, probe.UntilLeader = sim.Inline, false, true
	half := run(b, probe).Steps / 2
	s, err := sim.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	for range half {
		s.Step()
	}
	return s, half
}

// BenchmarkClone measures copying a run in the middle of a Chang–Roberts election: the time,
// and the bytes a copy takes (B/op).
func BenchmarkClone(b *testing.B) {
	for _, n := range []int{2000, 200_000} {
		for _, e := range engines {
			b.Run(fmt.Sprintf("ring/n=%d/%s", n, e), func(b *testing.B) {
				s, _ := midElection(b, n, e)
				defer s.Close()
				b.ReportAllocs()
				for b.Loop() {
					s.Clone().Close()
				}
			})
		}
	}
}

// BenchmarkStepBack measures going back one step in the middle of a Chang–Roberts election, as
// the TUI does: by replaying the run from its start, or by copying the nearest checkpoint — a
// copy of the run kept some steps back — and stepping the copy on from there.
func BenchmarkStepBack(b *testing.B) {
	for _, n := range []int{2000, 200_000} {
		for _, e := range engines {
			b.Run(fmt.Sprintf("ring/n=%d/%s", n, e), func(b *testing.B) {
				s, half := midElection(b, n, e)
				defer s.Close()
				target := half - 1
				b.Run("replay", func(b *testing.B) {
					for b.Loop() {
						r, err := sim.New(s.Config())
						if err != nil {
							b.Fatal(err)
						}
						for range target {
							r.Step()
						}
						r.Close()
					}
				})
				for _, behind := range []int{1, 1000, 25_000} {
					if behind > target {
						continue
					}
					b.Run(fmt.Sprintf("checkpoint/%d-back", behind), func(b *testing.B) {
						cp, err := sim.New(s.Config())
						if err != nil {
							b.Fatal(err)
						}
						for range target - behind {
							cp.Step()
						}
						checkpoint := cp.Clone() // what the TUI keeps: never stepped
						cp.Close()
						b.ReportAllocs()
						for b.Loop() {
							r := checkpoint.Clone()
							for range behind {
								r.Step()
							}
							r.Close()
						}
						checkpoint.Close()
					})
				}
			})
		}
	}
}
