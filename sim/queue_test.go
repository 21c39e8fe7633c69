package sim

import (
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"electsim/algo"
)

// The queue pops in exactly (time, ordinal) order, whatever mix of pushes, requeues and pops —
// checked against a sorted list. Times are drawn both as monotone runs (what the lanes catch)
// and at random (what the heap takes).
func TestQueueOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var q queue
		type ref struct {
			at  time.Duration
			ord uint64
			tag int32
		}
		var model []ref
		now := time.Duration(0)
		tag := int32(0)
		ops := rapid.IntRange(1, 400).Draw(t, "ops")
		for range ops {
			switch rapid.IntRange(0, 3).Draw(t, "op") {
			case 0, 1: // push: a run-like time or a random one, never in the past
				var at time.Duration
				if rapid.Bool().Draw(t, "monotone") {
					at = now + time.Duration(rapid.SampledFrom([]int{0, 5, 50, 150}).Draw(t, "delay"))
				} else {
					at = now + time.Duration(rapid.IntRange(0, 200).Draw(t, "random"))
				}
				class := classRuntime
				if rapid.IntRange(0, 9).Draw(t, "class") == 0 {
					class = classAction
				}
				tag++
				ord := q.next(class)
				q.pushOrd(at, ord, event{which: tag})
				model = append(model, ref{at, ord, tag})
			default: // pop
				if len(model) == 0 {
					if q.len() != 0 {
						t.Fatalf("queue holds %d keys, model none", q.len())
					}
					continue
				}
				slices.SortFunc(model, func(a, b ref) int {
					if a.at != b.at {
						return int(a.at - b.at)
					}
					if a.ord < b.ord {
						return -1
					}
					return 1
				})
				want := model[0]
				model = model[1:]
				if p := q.peek(); p != want.at {
					t.Fatalf("peek %v, want %v", p, want.at)
				}
				at, idx, ord := q.pop()
				if at != want.at || ord != want.ord || q.event(idx).which != want.tag {
					t.Fatalf("pop (%v, %x, tag %d), want (%v, %x, tag %d)", at, ord, q.event(idx).which, want.at, want.ord, want.tag)
				}
				q.release(idx)
				now = at
			}
			if q.len() != len(model) {
				t.Fatalf("len %d, model %d", q.len(), len(model))
			}
		}
	})
}

// Lanes and the slab grow in blocks: runs much longer than a block keep their order, and
// consumed blocks are reused without losing keys.
func TestQueueBlocks(t *testing.T) {
	var q queue
	const n = 3*laneMax + 17
	for round := range 3 {
		base := time.Duration(round) * time.Hour
		for i := range n {
			// Two interleaved monotone runs (two lanes) and a few out-of-order keys (the heap).
			at := base + time.Duration(i)
			if i%2 == 1 {
				at += time.Minute
			}
			if i%97 == 0 {
				at = base + time.Duration(n-i)
			}
			q.push(at, classRuntime, event{which: int32(i)})
		}
		var last time.Duration = -1
		for range n {
			at, idx, _ := q.pop()
			if at < last {
				t.Fatalf("round %d: %v popped after %v", round, at, last)
			}
			last = at
			q.release(idx)
		}
		if q.len() != 0 {
			t.Fatalf("round %d: %d keys left", round, q.len())
		}
	}
	// Blocks of 64, 64, 128, 256, ...: at most twice what was in flight at once.
	total := 0
	for _, b := range q.slab {
		total += len(b)
	}
	if total < n || total > 2*n {
		t.Errorf("slab of %d slots in %d blocks for %d events at once", total, len(q.slab), n)
	}
	for idx := range int32(total) {
		k, off := slabPos(idx)
		if int(k) >= len(q.slab) || int(off) >= len(q.slab[k]) {
			t.Fatalf("slot %d at block %d offset %d: outside the slab", idx, k, off)
		}
	}
}

// A node's sends and timers reach the queue when its call returns, each with the ordinal it took
// during the call: in batches, not in ordinal order. The queue still pops in (time, ordinal)
// order, and each visits exactly what is queued.
func TestQueueShuffledBatches(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var q queue
		type ref struct {
			at  time.Duration
			ord uint64
		}
		model := map[int32]ref{}
		now := time.Duration(0)
		for range rapid.IntRange(1, 60).Draw(t, "calls") {
			// One call: take ordinals in order, then push them in a shuffled order.
			var batch []ref
			for range rapid.IntRange(0, 12).Draw(t, "sends") {
				at := now + time.Duration(rapid.SampledFrom([]int{0, 10, 10, 10, 50, 150}).Draw(t, "delay"))
				batch = append(batch, ref{at, q.next(classRuntime)})
			}
			for _, i := range rapid.Permutation(seq(len(batch))).Draw(t, "order") {
				idx := q.store(event{})
				q.insert(qkey{at: batch[i].at, ord: batch[i].ord, idx: idx})
				model[idx] = batch[i]
			}
			seen := map[int32]bool{}
			q.each(func(k qkey) { seen[k.idx] = true })
			if len(seen) != len(model) || q.len() != len(model) {
				t.Fatalf("each saw %d keys, len %d, model %d", len(seen), q.len(), len(model))
			}
			// Pop a few, in order.
			for range rapid.IntRange(0, 10).Draw(t, "pops") {
				if q.len() == 0 {
					break
				}
				at, idx, ord := q.pop()
				want, ok := model[idx]
				if !ok || want.at != at || want.ord != ord {
					t.Fatalf("popped (%v, %x) for slot %d, model %v", at, ord, idx, want)
				}
				for _, r := range model {
					if r.at < at || r.at == at && r.ord < ord {
						t.Fatalf("popped (%v, %x) before (%v, %x)", at, ord, r.at, r.ord)
					}
				}
				delete(model, idx)
				q.release(idx)
				now = at
			}
		}
	})
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// Every key names its payload's node — pushed, added, requeued at once or after being held —
// since prefetch reads the nodes of the steps ahead from the keys alone.
func TestQueueKeysNameTheirNode(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var q queue
		var held []int32
		for i := range rapid.IntRange(1, 300).Draw(t, "ops") {
			at := time.Duration(rapid.IntRange(0, 200).Draw(t, "at"))
			node := int32(rapid.IntRange(0, 50).Draw(t, "node"))
			switch rapid.IntRange(0, 4).Draw(t, "op") {
			case 0:
				q.push(at, classRuntime, event{kind: evDeliver, node: node, which: int32(i)})
			case 1:
				*q.add(at, q.next(classRuntime), node) = event{kind: evDeliver, node: node, which: int32(i)}
			case 2:
				held = append(held, q.store(event{kind: evElect, node: node}))
			case 3:
				if len(held) > 0 {
					q.requeue(at, held[0])
					held = held[1:]
				}
			case 4:
				if q.len() > 0 {
					_, idx, _ := q.pop()
					q.release(idx)
				}
			}
		}
		q.each(func(k qkey) {
			if e := q.event(k.idx); k.node != e.node {
				t.Fatalf("a key names node %d, its payload is for node %d", k.node, e.node)
			}
		})
	})
}

// A run in a steady state reuses the queue's slots: what it holds stays bounded by what is in
// flight, however long it runs.
func TestQueueSlotsReused(t *testing.T) {
	// Bully's heartbeats; Raft's too, and its timers, reset on every heartbeat, whose queued
	// events come up early and are superseded.
	for _, name := range []string{"bully", "raft"} {
		info, err := algo.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg := DefaultConfig(info, 5)
		cfg.Engine = Inline
		used := map[time.Duration]int32{}
		for _, runFor := range []time.Duration{2 * time.Second, 20 * time.Second} {
			cfg.RunFor = runFor
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			s.RunUntil(runFor)
			used[runFor] = s.q.used
		}
		if used[20*time.Second] != used[2*time.Second] || used[2*time.Second] > 64 {
			t.Errorf("%s: slots used: %d after 2s, %d after 20s: a run of heartbeats should reuse a few dozen", name, used[2*time.Second], used[20*time.Second])
		}
	}
}

// peek returns the time of the next event. The queue must not be empty.
func (q *queue) peek() time.Duration {
	at, _ := q.top()
	return at
}

// pop removes the next event (see popFrom).
func (q *queue) pop() (time.Duration, int32, uint64) {
	_, src := q.top()
	return q.popFrom(src)
}
