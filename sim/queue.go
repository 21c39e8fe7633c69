package sim

import (
	"math/bits"
	"time"
	"unsafe"

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
// keys that point at it. It holds no pointers, so the garbage collector never scans the slab.
type event struct {
	kind    eventKind
	flag    bool   // deliver: the message's Flag
	msgKind uint16 // deliver: index of the message's kind in the run's kind table
	node    int32  // index of the node it is for (deliver: the receiver)
	from    int32  // deliver: index of the sender
	epoch   uint32 // deliver: the run's count of crashes when sent; a crash of the receiver since loses it
	gen     uint32 // timer: the generation of its slot when queued; deliver: its time of flight (flightCode)
	which   int32  // timer: slot index; action: index into Sim.actions; deliver: heldDelivery | its log part<<1 (logpart.go)
	value   algo.ID
	term    uint64
	phase   uint32 // deliver: the message's Phase
	hop     uint32 // deliver: the message's Hop
}

// heldDelivery marks a delivery that arrived at a paused node and got through: it waits for the
// node to resume, and its link, judged when it arrived, is not judged again.
const heldDelivery int32 = 1

// Events at the same virtual time run in two classes: scenario actions (and boot) first, in the
// order they were given, then the events the run itself schedules, in the order they were
// scheduled.
const (
	classAction  uint64 = 0
	classRuntime uint64 = 1 << 63
)

type qkey struct {
	at   time.Duration
	ord  uint64 // class | sequence number
	idx  int32  // slab index of the payload
	node int32  // the payload's node: what prefetch wants to know of the steps ahead
}

func (a *qkey) less(b *qkey) bool { return before(a.at, a.ord, b.at, b.ord) }

// queue orders events by (time, ordinal) over a slab of payloads with a free list, so a run in
// steady state allocates nothing and memory stays bounded by what is scheduled.
//
// Keys go into a few sorted lanes when they can, else into a 4-ary min-heap. A lane is a FIFO
// run of keys in increasing order: a key not smaller than some lane's last key is appended to
// the lane whose last key is closest below it. With fixed delays nearly every key fits a lane —
// a broadcast's messages are all due at now+d in sending order, forwarded messages at now+d
// with now never decreasing, timers at now+T — so pushes and pops cost O(1); keys that fit no
// lane (random delays) fall back to the heap. Pop takes the smallest of the lane heads and the
// heap's top, so the order is exactly the (time, ordinal) order either way.
//
// Lanes and the slab grow in blocks, never by copying: a Bully election among thousands of
// nodes puts millions of events in flight at once, and doubling arrays of that size costs more
// time in copying than the events cost in handling. The blocks start small and double, up to a
// limit for lanes, so that a run of five nodes — the property checker makes thousands a second —
// allocates a few kilobytes. Blocks a lane has consumed are kept for reuse.
type queue struct {
	heap  []qkey
	lanes [numLanes]lane
	slab  [][]event // block k holds slots [slabStart(k), slabStart(k+1))
	used  int32     // slab slots handed out so far; freed ones are on free
	free  []int32
	spare *keyBlock // consumed lane blocks, for reuse
	seq   uint64
	n     int // keys queued, in lanes and heap

	slabBytes, blockBytes int64 // what the slab's blocks and the lanes' blocks hold: kept, never freed
}

const numLanes = 4

// top and insert are written out for exactly four lanes: this fails to compile otherwise.
const _ = uint(numLanes-4) + uint(4-numLanes)

// The sizes of the blocks the queue grows by: a lane's first block holds laneFirst keys and
// each next one twice as many, up to laneMax; the slab's first two hold slabFirst events and
// each next one twice as many as all before it.
const (
	laneFirst = 32
	laneMax   = 1024
	slabFirst = 64
)

// keyBlock is one block of a lane: keys in order, and the next block.
type keyBlock struct {
	next *keyBlock
	keys []qkey
}

// slabPos returns the block of slab slot idx and its offset in it.
func slabPos(idx int32) (block, off int32) {
	if idx < slabFirst {
		return 0, idx
	}
	k := int32(bits.Len32(uint32(idx) / slabFirst))
	return k, idx - slabFirst<<(k-1)
}

// lane is a sorted run of keys, consumed from head: first[head:] and the blocks after it, up to
// tail in the last block. It keeps copies of the times and ordinals of its first and last keys,
// which every push and pop compares, next to its counts rather than in its blocks.
type lane struct {
	frontAt, backAt   time.Duration
	frontOrd, backOrd uint64
	n                 int
	head, tail        int
	first, last       *keyBlock
}

// before reports whether the key (at, ord) comes before the key (bat, bord).
func before(at time.Duration, ord uint64, bat time.Duration, bord uint64) bool {
	return at < bat || at == bat && ord < bord
}

func (q *queue) len() int { return q.n }

// push schedules e at time at, in the given class.
func (q *queue) push(at time.Duration, class uint64, e event) {
	q.pushOrd(at, q.next(class), e)
}

// pushOrd schedules e at time at with ordinal ord (from next).
func (q *queue) pushOrd(at time.Duration, ord uint64, e event) {
	q.insert(qkey{at: at, ord: ord, idx: q.store(e), node: e.node})
}

// add schedules an event for node at time at with ordinal ord and returns its payload's slot,
// for the caller to fill in: what pushOrd does, without handing the payload through. The slot
// may be one used before: the caller must set every field but node.
func (q *queue) add(at time.Duration, ord uint64, node int32) *event {
	idx := q.alloc()
	q.insert(qkey{at: at, ord: ord, idx: idx, node: node})
	e := q.event(idx)
	e.node = node // the key's node and the payload's are one
	return e
}

// next returns a fresh ordinal in class: later than every one given before.
func (q *queue) next(class uint64) uint64 {
	q.seq++
	return class | q.seq
}

// requeue schedules an already-stored payload again, at time at in the runtime class.
func (q *queue) requeue(at time.Duration, idx int32) {
	q.requeueOrd(at, q.next(classRuntime), idx)
}

// requeueOrd schedules an already-stored payload at time at with a given ordinal.
func (q *queue) requeueOrd(at time.Duration, ord uint64, idx int32) {
	q.insert(qkey{at: at, ord: ord, idx: idx, node: q.event(idx).node})
}

func (q *queue) insert(k qkey) {
	q.n++
	// The lanes one by one, not in a loop: the compiler keeps a loop's state in registers
	// poorly, and this runs on every push.
	var best, empty *lane
	q.fit(&q.lanes[0], &k, &best, &empty)
	q.fit(&q.lanes[1], &k, &best, &empty)
	q.fit(&q.lanes[2], &k, &best, &empty)
	q.fit(&q.lanes[3], &k, &best, &empty)
	switch {
	case best != nil:
		q.append(best, k)
	case empty != nil:
		q.append(empty, k)
	default:
		q.heap = append(q.heap, k)
		q.up(len(q.heap) - 1)
	}
}

// fit considers lane l for k: it becomes best if k can follow its last key and that key is
// closer below k than best's; the first empty lane is kept as empty.
func (q *queue) fit(l *lane, k *qkey, best, empty **lane) {
	switch {
	case l.n == 0:
		if *empty == nil {
			*empty = l
		}
	case !before(k.at, k.ord, l.backAt, l.backOrd) &&
		(*best == nil || before((*best).backAt, (*best).backOrd, l.backAt, l.backOrd)):
		*best = l
	}
}

// append adds k at the end of lane l.
func (q *queue) append(l *lane, k qkey) {
	switch {
	case l.last == nil:
		b := q.block(laneFirst)
		l.first, l.last, l.head, l.tail = b, b, 0, 0
	case l.tail == len(l.last.keys):
		b := q.block(min(2*len(l.last.keys), laneMax))
		l.last.next, l.last, l.tail = b, b, 0
	}
	l.last.keys[l.tail] = k
	l.tail++
	l.n++
	l.backAt, l.backOrd = k.at, k.ord
	if l.n == 1 {
		l.frontAt, l.frontOrd = k.at, k.ord
	}
}

// block returns an empty lane block: a spare one if there is one, else a new one of size keys.
func (q *queue) block(size int) *keyBlock {
	if b := q.spare; b != nil {
		q.spare, b.next = b.next, nil
		return b
	}
	q.blockBytes += int64(size)*int64(unsafe.Sizeof(qkey{})) + int64(unsafe.Sizeof(keyBlock{}))
	return &keyBlock{keys: make([]qkey, size)}
}

// top returns the time of the smallest key and where it is: a lane's index, or numLanes for
// the heap. The queue must not be empty.
func (q *queue) top() (time.Duration, int) {
	src := numLanes
	var at time.Duration
	var ord uint64
	if len(q.heap) > 0 {
		at, ord = q.heap[0].at, q.heap[0].ord
	} else {
		at, ord = 1<<63-1, 1<<64-1
	}
	// Unrolled, as in insert.
	if l := &q.lanes[0]; l.n > 0 && before(l.frontAt, l.frontOrd, at, ord) {
		at, ord, src = l.frontAt, l.frontOrd, 0
	}
	if l := &q.lanes[1]; l.n > 0 && before(l.frontAt, l.frontOrd, at, ord) {
		at, ord, src = l.frontAt, l.frontOrd, 1
	}
	if l := &q.lanes[2]; l.n > 0 && before(l.frontAt, l.frontOrd, at, ord) {
		at, ord, src = l.frontAt, l.frontOrd, 2
	}
	if l := &q.lanes[3]; l.n > 0 && before(l.frontAt, l.frontOrd, at, ord) {
		at, src = l.frontAt, 3
	}
	return at, src
}

// popFrom removes the next event, which top found in src, and returns its time, slab index and
// ordinal. The caller releases the slab slot with release when done with it.
func (q *queue) popFrom(src int) (time.Duration, int32, uint64) {
	q.n--
	if src < numLanes {
		l := &q.lanes[src]
		top := l.first.keys[l.head]
		l.head++
		l.n--
		switch {
		case l.n == 0:
			// Empty: keep its one block, from the start.
			if l.first != l.last {
				panic("sim: queue lane out of step")
			}
			l.head, l.tail = 0, 0
			return top.at, top.idx, top.ord
		case l.head == len(l.first.keys):
			b := l.first
			l.first, l.head = b.next, 0
			b.next, q.spare = q.spare, b
		}
		next := &l.first.keys[l.head]
		l.frontAt, l.frontOrd = next.at, next.ord
		return top.at, top.idx, top.ord
	}
	top := q.heap[0]
	n := len(q.heap) - 1
	q.heap[0] = q.heap[n]
	q.heap = q.heap[:n]
	if n > 0 {
		q.down(0)
	}
	return top.at, top.idx, top.ord
}

// each calls f with every queued key, in no particular order.
func (q *queue) each(f func(k qkey)) {
	for _, k := range q.heap {
		f(k)
	}
	for i := range q.lanes {
		l := &q.lanes[i]
		if l.n == 0 {
			continue
		}
		for b, from := l.first, l.head; b != nil; b, from = b.next, 0 {
			to := len(b.keys)
			if b == l.last {
				to = l.tail
			}
			for _, k := range b.keys[from:to] {
				f(k)
			}
		}
	}
}

// laneKey returns lane l's key j places after its head; j must be less than l.n. The keys
// after the next are likely to be the run's next steps, not certainly — another lane's events
// or the heap's may come between — so a caller may only use them to fetch memory early, never
// to decide anything. j is at most the smallest block's size: the key is in the first block or
// the next.
func (q *queue) laneKey(l *lane, j int) *qkey {
	b, i := l.first, l.head+j
	if i >= len(b.keys) {
		b, i = b.next, i-len(b.keys)
	}
	return &b.keys[i]
}

// event returns the payload in slab slot idx.
func (q *queue) event(idx int32) *event {
	k, off := slabPos(idx)
	return &q.slab[k][off]
}

// bytes returns about how much memory the queue holds: the blocks of its slab and its lanes,
// which it keeps, and its heap and free list — counting, for the heap, the copy its next growth
// makes (1.25 times its capacity) while the old one is still there.
func (q *queue) bytes() int64 {
	heap := int64(cap(q.heap)) * int64(unsafe.Sizeof(qkey{}))
	return q.slabBytes + q.blockBytes + heap + heap*5/4 + int64(cap(q.free))*4
}

// release frees slab slot idx for reuse.
func (q *queue) release(idx int32) {
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
	idx := q.alloc()
	*q.event(idx) = e
	return idx
}

// alloc returns a free slab slot.
func (q *queue) alloc() int32 {
	var idx int32
	if n := len(q.free); n > 0 {
		idx = q.free[n-1]
		q.free = q.free[:n-1]
	} else {
		if k, _ := slabPos(q.used); int(k) == len(q.slab) {
			size := slabFirst
			if k > 0 {
				size = slabFirst << (k - 1)
			}
			q.slab = append(q.slab, make([]event, size))
			q.slabBytes += int64(size) * int64(unsafe.Sizeof(event{}))
		}
		idx = q.used
		q.used++
	}
	return idx
}
