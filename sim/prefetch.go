package sim

import (
	"unsafe"

	"electsim/algo"
)

// Among 100,000 nodes the engine's record of a node and the algorithm's state of it are each a
// cache miss on nearly every step, some 150–200 nanoseconds apiece on the machine this was
// measured on, and one after the other if nothing is done: the state is found through the
// record. So the engine keeps each node's state's address in an array of its own, and fetches
// memory before it is needed, without waiting for it:
//
//   - At every step, the state of the step's own node, at once, side by side with its record:
//     one wait instead of two, where nothing could be fetched earlier.
//   - The next steps are known — the lane the step came from holds them in order — so at every
//     step, for the step recordAhead after the next: its node's record (the line of its flags
//     and the line of its first timers), its crash count, the event itself (it was written when
//     it was sent, as many steps ago as there are events in flight) and its node's entry in the
//     array of states; and for the step stateAhead after the next, its node's state, found
//     through that entry, fetched recordAhead-stateAhead steps before. On the goroutine engine,
//     also the side record and the channel handed to the node's goroutine. By the time those
//     steps come up, their memory is in the cache.
//
// When fewer events than that are in flight — the end of a Chang–Roberts election, where a
// few ELECTIONs are left going round, then ELECTED alone — the window shrinks to the last one
// queued. (Fetching further ahead measured no better.)
//
// Fetching memory early changes nothing but timing: the nodes are the likely next steps, and a
// wrong guess costs a wasted fetch.
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
// TestNodeStacksStaySmall).
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
			// The event itself, written when it was sent — as many steps ago as there are
			// events in flight — and the entry of the array of states that the step
			// stateAhead on reads, below: among 100,000 nodes the array is 800 KB.
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
