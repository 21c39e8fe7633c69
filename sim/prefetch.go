package sim

import (
	"unsafe"

	"electsim/algo"
)

// Among 100,000 nodes the engine's record of a node and the algorithm's state of it are each a
// cache miss on nearly every step, some 150ns apiece on the machine this was measured on, and
// one after the other: the step cannot go on without them. But the next steps are known — the
// queue's lanes hold them in order — so every prefetchBatch steps the engine reads, all at
// once, the records of the next batch's nodes and the states of this batch's (whose records
// the previous pass fetched). The processor fetches the lines of a pass side by side, and by
// the time the steps come up, most of their memory is in the cache. (Fetching further ahead
// measured no better: 32 or 64 steps ahead a little worse.)
//
// Reading memory early changes nothing but timing: the nodes are the likely next steps, and a
// wrong guess costs a wasted fetch.
const (
	prefetchBatch = 16
	prefetchNodes = 8192 // below this many nodes the records and states stay in the cache
)

// prefetch fetches the memory of the steps ahead; see prefetchBatch.
func (s *Sim) prefetch() {
	s.pf = prefetchBatch
	s.ahead = s.q.ahead(s.ahead[:0], 0, 2*prefetchBatch)
	var sum uintptr
	goroutines := s.cfg.Engine == Goroutine
	for i, idx := range s.ahead {
		n := &s.nodes[idx]
		if i < prefetchBatch {
			sum += touchState(n.node)
		} else {
			// The record's first line, and its first timers in the second.
			sum += uintptr(n.idx) + uintptr(n.timers[0].gen) + uintptr(s.epochs[idx])
			if goroutines {
				sum += uintptr(len(n.inbox)) // the channel that wakes the node's goroutine
			}
		}
	}
	s.sink = sum
}

// touchState reads the first byte of the value behind n, the node's state, and returns it: the
// first cache line of the state, where an algorithm keeps what its every step touches. The word
// after an interface's type word points at its value (Go keeps every dynamic value behind a
// pointer, or in the pointer itself when the value is one), and a value's first byte is there
// whatever its type: the runtime's zero base for a value of size zero.
func touchState(n algo.Node) uintptr {
	p := (*[2]unsafe.Pointer)(unsafe.Pointer(&n))[1]
	if p == nil {
		return 0
	}
	return uintptr(*(*byte)(p))
}
