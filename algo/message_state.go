package algo

import "encoding/binary"

// AppendMessage appends to b an encoding of every field of m — its kind, its ends and what it
// carries — and returns the extended slice: two messages encode alike exactly when they are
// equal. An explorer fingerprints the messages in flight with it; a field added to Message is
// encoded here too (a test fails until it is).
func AppendMessage(b []byte, m Message) []byte {
	b = binary.AppendUvarint(b, uint64(len(m.Kind)))
	b = append(b, m.Kind...)
	b = appendID(b, m.From)
	b = appendID(b, m.To)
	b = appendID(b, m.Value)
	b = appendUint(b, m.Term)
	return appendBool(b, m.Flag)
}
