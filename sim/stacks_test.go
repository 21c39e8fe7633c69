package sim_test

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
	"unsafe"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// A node's goroutine on the goroutine engine runs the algorithm's calls and, with the baton, the
// engine's loop: each must fit in the 2 KB stack a goroutine starts with, or every node's stack
// doubles — 200 MB more among 100,000 nodes — and nothing else notices. The engine promises
// algorithms room of their own within those 2 KB: stackBudgetNew bytes of stack in the
// constructor, under the allocation of the node, and stackBudgetCall bytes in every call, under
// the calls to the Env. Here 10,000 nodes of an algorithm that spends exactly that boot and pass
// a token on (with the loop's frames, and the fetching ahead, which runs from 8,192 nodes up),
// and their goroutines' stacks are counted. It fails when the engine's own frames on a node's
// goroutine grow into that room (go build -gcflags=-S ./sim shows the frames); no algorithm can
// make it fail.
func TestEngineLeavesAlgorithmsStack(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes every frame larger")
	}
	a := deepInfo(stackBudgetNew/frameBytes, stackBudgetCall/frameBytes)
	perNode := stackPerNode(t, a, 10_000, 100*time.Millisecond)
	t.Logf("%.0f bytes of stack per node (descend's frames: %d bytes)", perNode, frameBytes)
	if perNode > 3000 {
		t.Errorf("%.0f bytes of stack per node's goroutine, not 2 KB, with an algorithm that spends %d bytes of stack in its constructor and %d in its calls: a frame of the engine on a node goroutine's path grew", perNode, stackBudgetNew, stackBudgetCall)
	}
}

// The stack the engine leaves an algorithm on a node's goroutine: see
// TestEngineLeavesAlgorithmsStack.
const (
	stackBudgetNew  = 384
	stackBudgetCall = 192
)

// Every registered algorithm runs on the goroutine engine within 8 KB of stack a node:
// generous room, so that a new algorithm, or a deeper one, never fails an engine test, while a
// runaway recursion does. Each algorithm's figure is logged (Chang–Roberts' 2 KB is what
// docs/performance.md's figures are measured with).
func TestAlgorithmStacks(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes every frame larger")
	}
	for _, a := range algo.Algorithms() {
		perNode := stackPerNode(t, a, 200, 400*time.Millisecond)
		t.Logf("%s: %.0f bytes of stack per node", a.Name, perNode)
		if perNode > 8<<10 {
			t.Errorf("%s: %.0f bytes of stack per node's goroutine, more than 8 KB: a call goes deep (a recursion?)", a.Name, perNode)
		}
	}
}

// deepNode is the algorithm of the stack tests: it passes a token round the ring for a while
// and sets a timer now and then, and every one of its calls first goes depth frames of
// frameBytes down the stack and does its work at the bottom — its constructor allocates the
// node there, Start, Receive and Timer send and set timers there. It stands for an algorithm
// that spends that much stack in each call.
type deepNode struct {
	next  algo.ID
	depth int  // in Start, Receive and Timer
	sum   byte // what descend returns: kept, so that its frames are not optimised away
}

const (
	kindToken = "TOKEN"
	timerTick = "tick"
)

func deepInfo(newDepth, depth int) *algo.Info {
	return &algo.Info{
		Name:    "deep",
		Summary: "passes a token round the ring, each call spending a fixed depth of stack",
		Kinds:   []string{kindToken},
		New: func(id algo.ID, c *algo.Cluster) algo.Node {
			var n *deepNode
			next := c.Ring[(c.RingPos(id)+1)%len(c.Ring)]
			sum := descend(newDepth, func() { n = &deepNode{next: next, depth: depth} })
			n.sum = sum
			return n
		},
	}
}

func (n *deepNode) Start(env algo.Env) {
	n.sum += descend(n.depth, func() {
		env.Send(n.next, algo.Message{Kind: kindToken, Value: 1})
		env.SetTimer(timerTick, 25*time.Millisecond)
	})
}

func (n *deepNode) Receive(env algo.Env, m algo.Message) {
	n.sum += descend(n.depth, func() {
		env.Send(n.next, algo.Message{Kind: kindToken, Value: m.Value + 1})
	})
}

func (n *deepNode) Timer(env algo.Env, name string) {
	n.sum += descend(n.depth, func() { env.SetTimer(timerTick, 25*time.Millisecond) })
}

func (n *deepNode) Elect(algo.Env)                               {}
func (n *deepNode) State() algo.State                            { return algo.State{} }
func (n *deepNode) Clone() algo.Node                             { c := *n; return &c }
func (n *deepNode) AppendState(b []byte, _ time.Duration) []byte { return b }

// frameBytes is the stack one level of descend takes.
var frameBytes = func() int {
	var a, b uintptr
	descendAt(1, &a, &b)
	return int(a - b)
}()

// descend goes depth frames down the stack, calls f at the bottom, and returns a byte read from
// every frame on the way back up.
//
//go:noinline
func descend(depth int, f func()) byte {
	var pad [48]byte
	pad[depth%len(pad)] = byte(depth)
	if depth == 0 {
		f()
	} else {
		pad[0] += descend(depth-1, f)
	}
	return pad[(depth+7)%len(pad)] + pad[0]
}

// descendAt is descend, recording where the frames of depth 1 and 0 lie.
//
//go:noinline
func descendAt(depth int, at1, at0 *uintptr) byte {
	var pad [48]byte
	pad[depth%len(pad)] = byte(depth)
	if depth == 1 {
		*at1 = uintptr(unsafe.Pointer(&pad[0]))
	} else {
		*at0 = uintptr(unsafe.Pointer(&pad[0]))
	}
	if depth > 0 {
		pad[0] += descendAt(depth-1, at1, at0)
	}
	return pad[(depth+7)%len(pad)] + pad[0]
}

// stackPerNode runs n nodes of algorithm a on the goroutine engine, every message taking 10ms,
// until the given virtual time, and returns the stack memory each node's goroutine holds then.
func stackPerNode(t tb, a *algo.Info, n int, until time.Duration) float64 {
	t.Helper()
	cfg := sim.DefaultConfig(a, n)
	cfg.Engine = sim.Goroutine
	cfg.Network.Delay = network.Delay{Min: 10 * time.Millisecond, Max: 10 * time.Millisecond}
	runtime.GC() // stacks of goroutines gone by are freed, and shrunk ones shrunk
	before := stackBytes()
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.RunUntil(until)
	if s.Steps() < 2*n {
		t.Fatalf("%s: only %d steps by %s", a.Name, s.Steps(), algo.FormatDuration(until))
	}
	return float64(stackBytes()-before) / float64(n)
}

// stackBytes is the memory of goroutine stacks in use.
func stackBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
