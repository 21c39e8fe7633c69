package sim

import (
	"unsafe"

	"electsim/algo"
)

// The engine fetches memory before it is needed, without waiting for it, among many nodes
// (docs/performance.md says why, and what it gains). Each node's state's address is kept in an
// array of its own, so that a state can be fetched without reading the node's record first:
//
//   - At every step, the state of the step's own node, side by side with its record.
//   - The next steps are likely the next keys of the lane the step came from, so at every step,
//     for the step recordAhead after the next: its node's record (the line of its flags and the
//     line of its first timers), its crash count, the event itself and its node's entry in the
//     array of states; and for the step stateAhead after the next, its node's state, found
//     through that entry. On the goroutine engine, also the side record and the channel handed
//     to the node's goroutine.
//
// When fewer events than that are in flight, the window shrinks to the last one queued.
//
// Fetching changes nothing but timing: a wrong guess (another lane's event comes first) costs a
// wasted fetch, and a run is the same byte for byte with it and without it
// (TestPrefetchChangesNothing).
const (
	recordAhead   = 8
	stateAhead    = 4
	prefetchNodes = 8192 // below this many nodes the records and states stay in the cache
)

// laneKey reads at most laneFirst keys ahead, and a state is fetched after its record: this
// fails to compile otherwise.
const _ = uint(laneFirst-recordAhead) + uint(recordAhead-stateAhead)

// prefetcher is what prefetch keeps.
type prefetcher struct {
	states []unsafe.Pointer  // each node's state's address (statePtr), nil while it has none; nil: no prefetch
	lines  [9]unsafe.Pointer // the addresses the step in progress fetches (see prefetch)
	sink   uintptr           // what prefetchLines read, where it reads: kept, so that the reads are not dropped
}

// newState keeps the address of n's state, made or lost just now, for prefetch. Not inlined,
// and with few arguments: a node's goroutine calls it, from a frame on the deepest path of that
// goroutine's stack, which must stay within the 2 KB a goroutine starts with (see handle;
// TestEngineLeavesAlgorithmsStack).
//
//go:noinline
func (s *Sim) newState(n *nodeRec) {
	if s.prefetcher.states != nil {
		s.prefetcher.states[n.idx] = statePtr(n.node)
	}
}

// prefetch fetches the memory of the step of node cur, which came from lane src, and of the
// steps after it in that lane; see recordAhead.
func (s *Sim) prefetch(src int, cur int32) {
	p := &s.prefetcher
	p.lines[0] = p.states[cur]
	k := 1
	if src < numLanes { // not the heap, whose order is not known ahead
		if l := &s.q.lanes[src]; l.n > 0 {
			// Addresses only: a read of a line not in the cache would wait for it. (The lane's
			// keys are read: they are read in order, which the processor fetches ahead itself.)
			key := s.q.laneKey(l, min(recordAhead, l.n-1))
			rec := &s.nodes[key.node]
			p.lines[1] = unsafe.Pointer(rec)
			p.lines[2] = unsafe.Pointer(&rec.timers[0])
			p.lines[3] = unsafe.Pointer(&s.epochs[key.node])
			// The event itself, written when it was sent, and the entry of the array of
			// states that the step stateAhead on reads, below.
			p.lines[4] = unsafe.Pointer(s.q.event(key.idx))
			p.lines[5] = unsafe.Pointer(&p.states[key.node])
			p.lines[6] = p.states[s.q.laneKey(l, min(stateAhead, l.n-1)).node]
			k = 7
			if s.cfg.Engine == Goroutine {
				// The job handed to the node's goroutine, and the channel that wakes it.
				side := &s.side[key.node]
				p.lines[7] = unsafe.Pointer(side)
				p.lines[8] = *(*unsafe.Pointer)(unsafe.Pointer(&side.inbox))
				k = 9
			}
		}
	}
	p.sink = prefetchLines(p.lines[:k])
}

// statePtr returns where the value behind n, the node's state, starts — nil for none: the first
// cache line of the state, where an algorithm keeps what its every step touches. The word after
// an interface's type word points at its value (Go keeps every dynamic value behind a pointer,
// or in the pointer itself when the value is one); the value's first byte is there whatever its
// type: the runtime's zero base for a value of size zero.
func statePtr(n algo.Node) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&n))[1]
}
