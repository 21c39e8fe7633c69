package sim

import (
	"testing"
	"time"

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
		got := q.ahead(nil, skip, want)
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
		for _, node := range q.ahead(nil, rapid.IntRange(0, 40).Draw(t, "skip"), 40) {
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

// touchState reads the first byte of a node's state whatever the node's type: a pointer, a
// value, a value of size zero, nothing at all.
func TestTouchState(t *testing.T) {
	var nilRing *algo.Ring
	cases := []struct {
		name string
		n    algo.Node
		want uintptr
	}{
		{"none", nil, 0},
		{"nil pointer", nilRing, 0},
		{"pointer", &stubNode{b: 7}, 7},
		{"struct value", valueNode{stubNode{b: 9}}, 9},
		{"size zero", emptyNode{}, 0},
		{"byte value", byteNode(5), 5},
	}
	for _, c := range cases {
		if got := touchState(c.n); got != c.want {
			t.Errorf("%s: read %d, want %d", c.name, got, c.want)
		}
	}
}
