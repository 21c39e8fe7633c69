package sim

import (
	"testing"
	"time"
	"unsafe"

	"pgregory.net/rapid"

	"electsim/algo"
)

// ahead names the nodes of the events that follow in the lane the next event comes from, past
// the blocks a lane grows by: with one lane — what fixed delays make — exactly the next pops.
// With several lanes and the heap it may guess wrong, never read outside the queue.
func TestQueueAhead(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var q queue
		n := rapid.IntRange(0, 3000).Draw(t, "events")
		for i := range n {
			q.push(time.Duration(i), classRuntime, event{kind: evDeliver, node: int32(i * 7 % 1009)})
		}
		popped := rapid.IntRange(0, n).Draw(t, "popped")
		for range popped {
			_, idx, _ := q.pop()
			q.release(idx)
		}
		skip := rapid.IntRange(0, 100).Draw(t, "skip")
		want := rapid.IntRange(0, 100).Draw(t, "n")
		buf := make([]int32, want)
		got := buf[:q.ahead(buf, skip)]
		for j, node := range got {
			if i := popped + skip + j; node != int32(i*7%1009) {
				t.Fatalf("ahead[%d] = node %d, the event after %d pops and %d skipped is for node %d", j, node, popped, skip, i*7%1009)
			}
		}
		if left := max(n-popped-skip, 0); len(got) != min(want, left) {
			t.Fatalf("ahead gave %d nodes, %d were asked for and %d are there", len(got), want, left)
		}
	})
	// Random times: some keys go to the heap, some to other lanes — ahead may guess, not fail.
	rapid.Check(t, func(t *rapid.T) {
		var q queue
		for i := range rapid.IntRange(1, 500).Draw(t, "events") {
			at := time.Duration(rapid.IntRange(0, 1000).Draw(t, "at"))
			q.push(at, classRuntime, event{kind: evDeliver, node: int32(i)})
		}
		for range rapid.IntRange(0, q.len()).Draw(t, "popped") {
			_, idx, _ := q.pop()
			q.release(idx)
		}
		buf := make([]int32, 40)
		for _, node := range buf[:q.ahead(buf, rapid.IntRange(0, 40).Draw(t, "skip"))] {
			if node < 0 || node >= 500 {
				t.Fatalf("ahead named node %d, which no event is for", node)
			}
		}
	})
}

type valueNode struct{ stubNode }
type emptyNode struct{}
type byteNode byte

type stubNode struct{ b byte }

func (stubNode) Start(algo.Env)                  {}
func (stubNode) Receive(algo.Env, algo.Message)  {}
func (stubNode) Timer(algo.Env, string)          {}
func (stubNode) Elect(algo.Env)                  {}
func (stubNode) State() algo.State               { return algo.State{} }
func (emptyNode) Start(algo.Env)                 {}
func (emptyNode) Receive(algo.Env, algo.Message) {}
func (emptyNode) Timer(algo.Env, string)         {}
func (emptyNode) Elect(algo.Env)                 {}
func (emptyNode) State() algo.State              { return algo.State{} }
func (byteNode) Start(algo.Env)                  {}
func (byteNode) Receive(algo.Env, algo.Message)  {}
func (byteNode) Timer(algo.Env, string)          {}
func (byteNode) Elect(algo.Env)                  {}
func (byteNode) State() algo.State               { return algo.State{} }

// statePtr finds where a node's state starts whatever the node's type: the pointer itself, the
// place of a value, or nothing at all.
func TestStatePtr(t *testing.T) {
	var nilRing *algo.Ring
	ptr := &stubNode{b: 7}
	cases := []struct {
		name string
		n    algo.Node
		want byte // the first byte there
		none bool
	}{
		{"none", nil, 0, true},
		{"nil pointer", nilRing, 0, true},
		{"pointer", ptr, 7, false},
		{"struct value", valueNode{stubNode{b: 9}}, 9, false},
		{"size zero", emptyNode{}, 0, false},
		{"byte value", byteNode(5), 5, false},
	}
	for _, c := range cases {
		p := statePtr(c.n)
		switch {
		case c.none && p != nil:
			t.Errorf("%s: an address, %p, where there is no state", c.name, p)
		case !c.none && p == nil:
			t.Errorf("%s: no address", c.name)
		case !c.none && *(*byte)(p) != c.want:
			t.Errorf("%s: %d at the address, want %d", c.name, *(*byte)(p), c.want)
		}
	}
	if statePtr(ptr) != unsafe.Pointer(ptr) {
		t.Error("a pointer node's state is not where the pointer points")
	}
	// Fetching them changes nothing.
	prefetchLines([]unsafe.Pointer{statePtr(ptr), statePtr(byteNode(1)), statePtr(emptyNode{})})
	if ptr.b != 7 {
		t.Fatal("prefetchLines changed what it fetched")
	}
}
