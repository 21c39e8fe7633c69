package sim_test

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"electsim/sim"
)

// A Bully election among 400 nodes puts about 80,000 messages in flight at once: megabytes.
// Bounded to 2 MB, the run stops early, saying why, at the same step on either engine, having
// held no more than the bound and the growth between two reckonings; unbounded, the same run
// holds more than that.
func TestMemoryGuardStopsARunPastItsBound(t *testing.T) {
	const bound = 2 << 20
	cfg := fixed(t, "bully", 400, 10*ms, sim.Inline)
	cfg.RunFor = time.Second
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	peak := int64(0)
	for s.Step(); !s.Done(); s.Step() {
		peak = max(peak, s.MemoryUse())
	}
	if sum := s.Summary(); sum.Halted != "" || peak <= bound {
		t.Fatalf("unbounded: halted %q, at most %s held; want a whole run that holds more than %s", sum.Halted, sim.Bytes(peak), sim.Bytes(bound))
	}

	var steps []int
	for _, e := range engines {
		cfg.Engine, cfg.MaxMemory = e, bound
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sum := s.Run()
		if !strings.HasPrefix(sum.Halted, "the run needed more than the 2 MB of memory it may use (") || sum.End >= cfg.RunFor {
			t.Fatalf("%s: halted %q at %v, want the memory guard to stop it", e, sum.Halted, sum.End)
		}
		// Between two reckonings at most 4,096 messages more are queued, each with its key.
		if use := s.MemoryUse(); use > bound+4096*64*2 {
			t.Errorf("%s: stopped holding %s, well past the bound %s", e, sim.Bytes(use), sim.Bytes(bound))
		}
		steps = append(steps, sum.Steps)
	}
	if steps[0] != steps[1] {
		t.Errorf("the engines stopped at steps %v: the reckoning must not depend on the engine's goroutines", steps)
	}
}

// A run whose nodes alone would hold more than the bound is refused before it starts: here an
// algorithm whose nodes each keep 9 bytes for every node of the cluster (algo.Info.NodeMemory),
// 18 KB among 2,000 — 43 MB in all, with the engine's share.
func TestNewRefusesNodesPastTheBound(t *testing.T) {
	table := *lookup(t, "raft")
	table.Name = "table"
	table.NodeMemory = func(n int) (int64, string) {
		return 9 * int64(n), "a table of every node: 9 bytes a node"
	}
	cfg := fixed(t, "raft", 2000, 10*ms, sim.Inline)
	cfg.Algorithm = &table
	cfg.MaxMemory = 16 << 20
	_, err := sim.New(cfg)
	want := "table on 2,000 nodes would need about 43.1 MB of memory for its nodes alone (about 22.1 KB a node — a table of every node: 9 bytes a node), more than the 16 MB a run may use; try fewer nodes"
	if err == nil || err.Error() != want {
		t.Errorf("New: %v\nwant %s", err, want)
	}
	cfg.MaxMemory = 64 << 20
	if _, err := sim.New(cfg); err != nil {
		t.Errorf("within 64 MB: %v", err)
	}
}

// A Raft node keeps nothing that grows with the cluster until it stands or leads, so Raft among
// 200,000 nodes is within the default bound: 4.5 KB a node, 860 MB.
func TestRaftAmongManyNodesFits(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 200,000 nodes' records")
	}
	s, err := sim.New(sim.DefaultConfig(lookup(t, "raft"), 200_000))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	s.Close()
}

// The reckoning is close to what a run really holds on the goroutine engine: between 0.8 and
// 2 times the live heap and stacks it adds, for a run with many messages in flight and for one
// with many nodes and few messages. It counts a goroutine for every node on the inline engine
// too, which has none, so that a bound stops a run at the same step on both: there it is
// never below the heap.
func TestMemoryReckoningIsCloseToTheHeap(t *testing.T) {
	for _, tt := range []struct {
		name  string
		n     int
		until time.Duration
	}{
		{"bully", 1000, 5 * ms},
		{"ring", 20000, 100 * ms},
	} {
		for _, e := range engines {
			cfg := sim.DefaultConfig(lookup(t, tt.name), tt.n)
			cfg.Engine = e
			before := liveHeap()
			s, err := sim.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			s.RunUntil(tt.until)
			live := liveHeap() - before
			use := s.MemoryUse()
			r := float64(use) / float64(live)
			if r < 0.8 || e == sim.Goroutine && r > 2 {
				t.Errorf("%s on %d nodes, %s engine: reckoned %s, the heap grew by %s (%.2f times)", tt.name, tt.n, e, sim.Bytes(use), sim.Bytes(live), r)
			}
			s.Close()
		}
	}
}

func liveHeap() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc + ms.StackInuse)
}

// Bytes writes sizes for people.
func TestBytes(t *testing.T) {
	for b, want := range map[int64]string{0: "0 B", 512: "512 B", 1536: "1.5 KB", 2 << 20: "2 MB", 37 << 20: "37 MB",
		1 << 30: "1 GB", 11_800_000_000: "11 GB", 360_000_000_000: "335 GB"} {
		if got := sim.Bytes(b); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", b, got, want)
		}
	}
}
