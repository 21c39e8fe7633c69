package bench

import (
	"fmt"
	"strings"
	"testing"

	"electsim/algo"
	"electsim/sim"
)

var engines = []sim.Engine{sim.Inline, sim.Goroutine}

// The bench's counts are the theory's, on both engines, at 1,000 nodes: Bully's exact counts
// with the top node down, and the exact Chang–Roberts count of the random ring — and at 10,000
// for the ring, where the engine fetches the memory of the steps ahead (sim/prefetch.go).
func TestCountsMatchTheory(t *testing.T) {
	runs := []struct {
		name string
		n    int
	}{{"bully", 1000}, {"ring", 1000}, {"ring", 10_000}}
	for _, run := range runs {
		name, n := run.name, run.n
		for _, e := range engines {
			t.Run(fmt.Sprintf("%s/%d/%s", name, n, e), func(t *testing.T) {
				r, err := Measure(name, n, 1, e, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if r.Stopped != "" || r.Leader != algo.ID(n) && name == "ring" || r.Leader != algo.ID(n-1) && name == "bully" {
					t.Fatalf("leader %d, stopped %q", r.Leader, r.Stopped)
				}
				if len(r.Theory) == 0 {
					t.Fatal("no theory")
				}
				for _, th := range r.Theory {
					got := sent(r, th.Kind)
					if got != th.Exact {
						t.Errorf("%s sent %d, theory %d (%s)", th.Kind, got, th.Exact, th.Note)
					}
				}
			})
		}
	}
}

func sent(r Result, kind string) int64 {
	for i, k := range r.Kinds {
		if k == kind {
			return r.Sent[i]
		}
	}
	return -1
}

// A random ring's count is near n·H_n, within a few standard deviations (σ ≈ 0.6n).
func TestRingNearMean(t *testing.T) {
	r, err := Measure("ring", 10000, 7, sim.Inline, Options{})
	if err != nil {
		t.Fatal(err)
	}
	th := r.Theory[0]
	if d := float64(th.Exact) - th.Mean; d > 3*0.6*10000 || d < -3*0.6*10000 {
		t.Errorf("ELECTION %d, n·H_n %.0f: further than 3σ", th.Exact, th.Mean)
	}
}

// The message budget: a run whose estimate is over it is not run at all — Lowest-ID among 3,000
// nodes would broadcast 27 million heartbeats — and a run with no estimate is stopped when it
// goes over: Raft among 3,000 nodes splits the vote among hundreds of candidates.
func TestBudget(t *testing.T) {
	r, err := Measure("lowest-id", 3000, 1, sim.Inline, Options{MaxMessages: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if r.Steps != 0 || !strings.HasPrefix(r.Stopped, "not run: it would send about 26,991,000 messages") {
		t.Errorf("lowest-id: %d steps, stopped %q", r.Steps, r.Stopped)
	}
	r, err = Measure("raft", 3000, 1, sim.Inline, Options{MaxMessages: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	if r.Leader != 0 || !strings.HasPrefix(r.Stopped, "more than 100,000 messages") {
		t.Errorf("raft: leader %d, stopped %q", r.Leader, r.Stopped)
	}
}

// A run whose nodes would need more than bench allows for what grows with the cluster, as the
// algorithm reckons it (algo.Info.NodeMemory, which the engine's guard reads too), is not run.
func TestNodesMemory(t *testing.T) {
	cfg, err := Workload("raft", 100_000, 1, sim.Inline)
	if err != nil {
		t.Fatal(err)
	}
	if why := tooBig("raft", &cfg, Options{}); why != "" {
		t.Errorf("raft, which keeps nothing per node up front: %q", why)
	}
	info := *cfg.Algorithm
	info.NodeMemory = func(n int) (int64, string) { return 9 * int64(n), "a vote and a time for every node: 9 bytes a node" }
	cfg.Algorithm = &info
	want := "its nodes would need about 85,830 MB (a vote and a time for every node: 9 bytes a node), more than the 4,096 MB allowed"
	if why := tooBig("raft", &cfg, Options{}); why != want {
		t.Errorf("got  %q\nwant %q", why, want)
	}
}

func benchElection(b *testing.B, name string, sizes []int) {
	for _, e := range engines {
		for _, n := range sizes {
			b.Run(fmt.Sprintf("%s/n=%d", e, n), func(b *testing.B) {
				if n >= 100_000 && testing.Short() {
					b.Skip("100,000 nodes: skipped under -short")
				}
				var msgs int64
				for b.Loop() {
					r, err := Measure(name, n, 1, e, Options{})
					if err != nil || r.Leader == 0 {
						b.Fatalf("%v, stopped %q", err, r.Stopped)
					}
					for _, d := range r.Delivered {
						msgs += d
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(msgs), "ns/msg")
				b.ReportMetric(float64(msgs)/float64(b.N), "msgs/op")
			})
		}
	}
}

// BenchmarkChangRoberts is the ring of docs/performance.md: random distinct ids, every node
// initiating, from boot to the first agreed leader, trace off. `-short` skips 100,000 nodes.
func BenchmarkChangRoberts(b *testing.B) { benchElection(b, "ring", []int{1000, 10_000, 100_000}) }

// BenchmarkBully is the Bully of docs/performance.md: the top node down from time 0, every other
// node booting into an election — n² messages, half of them in flight at once.
func BenchmarkBully(b *testing.B) { benchElection(b, "bully", []int{1000, 2000}) }
