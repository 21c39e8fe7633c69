package sim

import (
	"time"

	"electsim/algo"
)

type eventKind uint8

const (
	evDeliver eventKind = iota + 1 // a message arrives at node
	evTimer                        // a timer of node expires
	evBoot                         // node boots at time 0
	evElect                        // node is asked to elect (held while it was paused)
	evAction                       // a scenario action
)

// event is a scheduled input. Its payload lives in the queue's slab; the heap orders small
// keys that point at it.
type event struct {
	kind  eventKind
	node  int32  // index of the node it is for (deliver: the receiver)
	epoch uint32 // deliver: the receiver's epoch when sent; a crash in between loses it
	gen   uint32 // timer: the generation of its slot when set
	aux   int32  // timer: slot index; action: index into Sim.actions
	msg   algo.Message
}

// Events at the same virtual time run in two classes: scenario actions (and boot) first, in the
// order they were given, then the events the run itself schedules, in the order they were
// scheduled.
const (
	classAction  uint64 = 0
	classRuntime uint64 = 1 << 63
)

type qkey struct {
	at  time.Duration
	ord uint64 // class | sequence number
	idx int32  // slab index of the payload
}

func (a *qkey) less(b *qkey) bool {
	return a.at < b.at || a.at == b.at && a.ord < b.ord
}

// queue is a 4-ary min-heap of keys over a slab of payloads with a free list, so a run in
// steady state allocates nothing and memory stays bounded by what is scheduled.
type queue struct {
	heap []qkey
	slab []event
	free []int32
	seq  uint64
}

func (q *queue) len() int { return len(q.heap) }

// push schedules e at time at, in the given class.
func (q *queue) push(at time.Duration, class uint64, e event) {
	var idx int32
	if n := len(q.free); n > 0 {
		idx = q.free[n-1]
		q.free = q.free[:n-1]
		q.slab[idx] = e
	} else {
		idx = int32(len(q.slab))
		q.slab = append(q.slab, e)
	}
	q.seq++
	q.heap = append(q.heap, qkey{at: at, ord: class | q.seq, idx: idx})
	q.up(len(q.heap) - 1)
}

// peek returns the time of the next event. The queue must not be empty.
func (q *queue) peek() time.Duration { return q.heap[0].at }

// pop removes the next event and returns its time and slab index. The caller releases the
// slab slot with release when done with it.
func (q *queue) pop() (time.Duration, int32) {
	top := q.heap[0]
	n := len(q.heap) - 1
	q.heap[0] = q.heap[n]
	q.heap = q.heap[:n]
	if n > 0 {
		q.down(0)
	}
	return top.at, top.idx
}

// requeue schedules an already-stored payload again, at time at in the runtime class.
func (q *queue) requeue(at time.Duration, idx int32) {
	q.seq++
	q.heap = append(q.heap, qkey{at: at, ord: classRuntime | q.seq, idx: idx})
	q.up(len(q.heap) - 1)
}

func (q *queue) release(idx int32) {
	q.slab[idx] = event{}
	q.free = append(q.free, idx)
}

func (q *queue) up(i int) {
	h := q.heap
	x := h[i]
	for i > 0 {
		p := (i - 1) / 4
		if !x.less(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = x
}

func (q *queue) down(i int) {
	h := q.heap
	n := len(h)
	x := h[i]
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		for j := c + 1; j < c+4 && j < n; j++ {
			if h[j].less(&h[m]) {
				m = j
			}
		}
		if !h[m].less(&x) {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = x
}

// store keeps e in the slab without scheduling it (an input held for a paused node) and
// returns its index, for requeue later.
func (q *queue) store(e event) int32 {
	if n := len(q.free); n > 0 {
		idx := q.free[n-1]
		q.free = q.free[:n-1]
		q.slab[idx] = e
		return idx
	}
	q.slab = append(q.slab, e)
	return int32(len(q.slab) - 1)
}
