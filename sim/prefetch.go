package sim

import (
	"unsafe"

	"electsim/algo"
)

// Among 100,000 nodes the engine's record of a node and the algorithm's state of it are each a
// cache miss on nearly every step, some 150ns apiece on the machine this was measured on, and
// one after the other: the step cannot go on without them. But the next steps are known — the
// queue's lanes hold them in order — so every prefetchBatch steps the engine asks the
// processor for the records of the next batch's nodes and the states of this batch's (whose
// records the previous pass fetched), without waiting for them: by the time the steps come up,
// most of their memory is in the cache. (Fetching further ahead, or in smaller batches more
// often, measured no better.)
//
// Fetching memory early changes nothing but timing: the nodes are the likely next steps, and a
// wrong guess costs a wasted fetch.
const (
	prefetchBatch = 16
	prefetchNodes = 8192 // below this many nodes the records and states stay in the cache
	// the most lines a pass fetches: a state each, then three lines of each record, and the
	// goroutine engine's two more (see prefetch)
	prefetchLinesMax = prefetchBatch * (1 + 3 + 2)
)

// prefetcher is what prefetch keeps between passes.
type prefetcher struct {
	ahead  [prefetchBatch]int32 // the nodes of the next batch, whose records were fetched
	nAhead int
	lines  [prefetchLinesMax]unsafe.Pointer
	sink   uintptr // what prefetchLines read, where it reads: kept, so that the reads are not dropped
}

// prefetch fetches the memory of the steps ahead; see prefetchBatch.
func (s *Sim) prefetch() {
	s.pf = prefetchBatch
	p := &s.pfr
	k := 0
	// The nodes whose records the last pass fetched are this batch's, most likely: their
	// states now, through the records in the cache.
	for _, idx := range p.ahead[:p.nAhead] {
		if a := statePtr(s.nodes[idx].node); a != nil {
			p.lines[k] = a
			k++
		}
	}
	p.nAhead = s.q.ahead(p.ahead[:], prefetchBatch)
	goroutines := s.cfg.Engine == Goroutine
	for _, idx := range p.ahead[:p.nAhead] {
		// The record's first line and its first timers in the second; the node's epoch.
		n := &s.nodes[idx]
		p.lines[k] = unsafe.Pointer(n)
		p.lines[k+1] = unsafe.Pointer(&n.timers[0])
		p.lines[k+2] = unsafe.Pointer(&s.epochs[idx])
		k += 3
		if goroutines {
			// The job handed to the node's goroutine, and the channel that wakes it.
			x := &s.ext[idx]
			p.lines[k] = unsafe.Pointer(x)
			p.lines[k+1] = *(*unsafe.Pointer)(unsafe.Pointer(&x.inbox))
			k += 2
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
