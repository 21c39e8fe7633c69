package sim

import (
	"testing"
	"time"
	"unsafe"

	"pgregory.net/rapid"

	"electsim/algo"
)

// laneKey names the node of the key so many places after a lane's head, past the blocks a
// lane grows by: with one lane — what fixed delays make — exactly the pops to come. With several
// lanes and the heap the lane's keys are still its own, in order.
func TestLaneNode(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var q queue
		n := rapid.IntRange(1, 3000).Draw(t, "events")
		for i := range n {
			q.push(time.Duration(i), classRuntime, event{kind: evDeliver, node: int32(i * 7 % 1009)})
		}
		popped := rapid.IntRange(0, n-1).Draw(t, "popped")
		for range popped {
			_, idx, _ := q.pop()
			q.release(idx)
		}
		_, src := q.top()
		if src == numLanes {
			t.Fatal("keys in increasing order went to the heap")
		}
		l := &q.lanes[src]
		if l.n != n-popped {
			t.Fatalf("the lane holds %d keys, %d are queued", l.n, n-popped)
		}
		for _, j := range []int{0, 1, stateAhead, recordAhead, laneFirst - 1, laneFirst, l.n - 1} {
			if j >= l.n || j > laneFirst {
				continue
			}
			if got, i := q.laneKey(l, j).node, popped+j; got != int32(i*7%1009) {
				t.Fatalf("laneKey(%d).node = node %d, the event after %d pops and %d more is for node %d", j, got, popped, j, i*7%1009)
			}
		}
	})
	// Pushes and pops in turn: a lane consumes blocks and grows into spare ones, of other sizes.
	rapid.Check(t, func(t *rapid.T) {
		var q queue
		pushed, popped := 0, 0
		for range rapid.IntRange(1, 30).Draw(t, "rounds") {
			for range rapid.IntRange(0, 700).Draw(t, "push") {
				q.push(time.Duration(pushed), classRuntime, event{kind: evDeliver, node: int32(pushed * 7 % 1009)})
				pushed++
			}
			for range rapid.IntRange(0, pushed-popped).Draw(t, "pop") {
				_, idx, _ := q.pop()
				q.release(idx)
				popped++
			}
		}
		if q.len() == 0 {
			return
		}
		_, src := q.top()
		l := &q.lanes[src]
		for j := range min(l.n, laneFirst+1) {
			if got, i := q.laneKey(l, j).node, popped+j; got != int32(i*7%1009) {
				t.Fatalf("laneKey(%d).node = node %d, want %d", j, got, i*7%1009)
			}
		}
	})
	// Random times: some keys go to the heap, some to other lanes; each lane's keys are read in
	// its own order.
	rapid.Check(t, func(t *rapid.T) {
		var q queue
		for i := range rapid.IntRange(1, 500).Draw(t, "events") {
			at := time.Duration(rapid.IntRange(0, 1000).Draw(t, "at"))
			q.push(at, classRuntime, event{kind: evDeliver, node: int32(i)})
		}
		for range rapid.IntRange(0, q.len()-1).Draw(t, "popped") {
			_, idx, _ := q.pop()
			q.release(idx)
		}
		for i := range q.lanes {
			l := &q.lanes[i]
			var want []int32
			for b, from := l.first, l.head; l.n > 0 && b != nil; b, from = b.next, 0 {
				to := len(b.keys)
				if b == l.last {
					to = l.tail
				}
				for _, k := range b.keys[from:to] {
					want = append(want, k.node)
				}
			}
			for j := range min(l.n, laneFirst+1) {
				if got := q.laneKey(l, j).node; got != want[j] {
					t.Fatalf("lane %d: laneKey(%d).node = node %d, want %d", i, j, got, want[j])
				}
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

// The stubs keep no state worth copying: a copy is the value itself.
func (n stubNode) Clone() algo.Node                            { return n }
func (stubNode) AppendState(b []byte, _ time.Duration) []byte  { return b }
func (n emptyNode) Clone() algo.Node                           { return n }
func (emptyNode) AppendState(b []byte, _ time.Duration) []byte { return b }
func (n byteNode) Clone() algo.Node                            { return n }
func (byteNode) AppendState(b []byte, _ time.Duration) []byte  { return b }

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

// As the events in a lane run out, prefetch's window shrinks to the lane's last key, and never
// reads past it — even when that key fills its block, with no block after it. With fewer than
// recordAhead+1 keys left, the record fetched is the last queued event's node's, and the state
// the last or the stateAhead-th.
func TestPrefetchWindowShrinksAtLaneEnd(t *testing.T) {
	const nodes = 100
	s := &Sim{nodes: make([]nodeRec, nodes), epochs: make([]uint32, nodes)}
	s.cfg.Engine = Inline
	s.prefetcher.states = make([]unsafe.Pointer, nodes)
	var states [nodes]int64 // stand-ins: a state's address is all prefetch reads of it
	for i := range s.prefetcher.states {
		s.prefetcher.states[i] = unsafe.Pointer(&states[i])
	}
	node := func(i int) int32 { return int32(i * 7 % nodes) } // the i-th event's node
	for i := range laneFirst {                                // exactly one full first block
		s.q.push(time.Duration(i), classRuntime, event{kind: evDeliver, node: node(i)})
	}
	for popped := 1; popped <= laneFirst; popped++ {
		_, src := s.q.top()
		_, idx, _ := s.q.popFrom(src)
		if src == numLanes {
			t.Fatal("fixed-order events went to the heap, not a lane")
		}
		s.prefetch(src, s.q.event(idx).node)
		s.q.release(idx)
		left := laneFirst - popped // queued after this one
		if left == 0 {
			continue
		}
		rec := popped + min(recordAhead, left-1) // the index of the event whose record is fetched
		st := popped + min(stateAhead, left-1)
		if got, want := s.prefetcher.lines[1], unsafe.Pointer(&s.nodes[node(rec)]); got != want {
			t.Fatalf("%d left: record fetched is node %d's, want node %d's (event %d)", left,
				(uintptr(got)-uintptr(unsafe.Pointer(&s.nodes[0])))/unsafe.Sizeof(nodeRec{}), node(rec), rec)
		}
		if got, want := s.prefetcher.lines[6], s.prefetcher.states[node(st)]; got != want {
			t.Fatalf("%d left: state fetched is not node %d's (event %d)", left, node(st), st)
		}
	}
}
