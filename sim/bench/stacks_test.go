package bench

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"electsim/sim"
)

// A node's goroutine on the goroutine engine runs the algorithm's calls and, with the baton, the
// engine's loop: each must fit in the 2 KB stack a goroutine starts with. A frame a few bytes
// larger on the deepest path doubles every node's stack — 200 MB more among 100,000 nodes —
// and nothing else notices. Here, 10,000 nodes boot (making their states: the allocator's frames
// are the deepest) and pass ELECTIONs on (the loop's frames, with the prefetch), and their
// goroutines' stacks are then counted.
func TestNodeStacksStaySmall(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes every frame larger")
	}
	const n = 10000 // enough for the engine to prefetch
	cfg, err := Workload("ring", n, 1, sim.Goroutine)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC() // stacks of goroutines gone by are freed, and shrunk ones shrunk
	before := stackBytes()
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.RunUntil(100 * time.Millisecond) // boot and ten hops
	if s.Steps() < 3*n {
		t.Fatalf("only %d steps by 100ms", s.Steps())
	}
	perNode := float64(stackBytes()-before) / n
	t.Logf("%.0f bytes of stack per node", perNode)
	if perNode > 3000 {
		t.Errorf("%.0f bytes of stack per node's goroutine, not 2 KB: a frame on a node goroutine's deepest path grew (go build -gcflags=-S ./sim shows the frames)", perNode)
	}
}

// stackBytes is the memory of goroutine stacks in use.
func stackBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
