package algo

import (
	"encoding/binary"
	"slices"
	"time"
)

// The writers of the encoding that Node.AppendState appends. Every value is self-delimiting —
// numbers as varints, strings and lists with their length first — so that fields, and one node
// after another, never run together: two different states cannot write the same bytes.

// appendUint writes a non-negative number.
func appendUint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

// appendID writes a node id (0, nobody, included).
func appendID(b []byte, id ID) []byte { return binary.AppendVarint(b, int64(id)) }

// appendBool writes a yes or no.
func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// appendString writes a string, its length first.
func appendString(b []byte, s string) []byte {
	return append(appendUint(b, uint64(len(s))), s...)
}

// appendNodeState writes what a node reports: status, leader and term.
func appendNodeState(b []byte, st State) []byte {
	b = append(b, byte(st.Status))
	b = appendID(b, st.Leader)
	return appendUint(b, st.Term)
}

// appendMessage writes a message, both ends included (Message.AppendTo).
func appendMessage(b []byte, m Message) []byte { return m.AppendTo(b) }

// appendDeadline writes a deadline as how long is left until it, or 0 once it has passed: all a
// node asks of a deadline is whether it has passed and, if not, how far off it is.
func appendDeadline(b []byte, t, now time.Duration) []byte {
	return appendUint(b, uint64(max(t-now, 0)))
}

// appendRecent writes a moment t as how long ago it was, or -1 when it was more than within
// ago, or never (t < 0: virtual time starts at 0): a node that asks only whether something
// happened within a span cannot tell the older moments apart, and time only makes them older.
func appendRecent(b []byte, t, now, within time.Duration) []byte {
	ago := now - t
	if t < 0 || ago > within {
		ago = -1
	}
	return binary.AppendVarint(b, int64(ago))
}

// appendTo writes the set's ids, ascending: the order they were added in does not matter.
func (s *idSet) appendTo(b []byte) []byte {
	ids := slices.Clone(s.few[:s.n])
	if s.more != nil {
		ids = append(ids, *s.more...)
	}
	slices.Sort(ids)
	b = appendUint(b, uint64(len(ids)))
	for _, id := range ids {
		b = appendID(b, id)
	}
	return b
}

// clone returns a copy of the set that shares nothing with it.
func (s idSet) clone() idSet {
	if s.more != nil {
		more := slices.Clone(*s.more)
		s.more = &more
	}
	return s
}
