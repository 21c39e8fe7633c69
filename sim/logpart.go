package sim

import "electsim/algo"

// logParts keeps the log parts (algo.Message.Log) of the messages in flight. Events hold no
// pointers, so that the collector never scans the queue's slab: a delivery event carries the
// index of its message's log part here instead (see event.which), 0 for a message without one.
// A slot is freed when its delivery becomes the current step, which then holds the log part
// (Sim.curLog) until the next.
type logParts struct {
	parts []*algo.LogPart // by index; index 0 is never used
	free  []int32
}

// put keeps l and returns its index, or 0 for nil.
func (p *logParts) put(l *algo.LogPart) int32 {
	if l == nil {
		return 0
	}
	if len(p.parts) == 0 {
		p.parts = append(p.parts, nil)
	}
	if n := len(p.free); n > 0 {
		i := p.free[n-1]
		p.free = p.free[:n-1]
		p.parts[i] = l
		return i
	}
	p.parts = append(p.parts, l)
	return int32(len(p.parts) - 1)
}

// get returns the log part at index i (nil for 0).
func (p *logParts) get(i int32) *algo.LogPart {
	if i == 0 {
		return nil
	}
	return p.parts[i]
}

// take returns the log part at index i and frees its slot.
func (p *logParts) take(i int32) *algo.LogPart {
	if i == 0 {
		return nil
	}
	l := p.parts[i]
	p.parts[i] = nil
	p.free = append(p.free, i)
	return l
}

// clone returns a copy: the log parts themselves are never changed once sent, and are shared.
func (p *logParts) clone() logParts {
	return logParts{parts: append([]*algo.LogPart(nil), p.parts...), free: append([]int32(nil), p.free...)}
}

// A delivery event's which holds two things: whether the delivery is held (heldDelivery, bit 0)
// and the index of its message's log part in Sim.logs (the bits above).

// logIndex is the index of delivery e's log part.
func (e *event) logIndex() int32 { return e.which >> 1 }

// held reports whether delivery e arrived at a paused node and got through (heldDelivery).
func (e *event) held() bool { return e.which&heldDelivery != 0 }
