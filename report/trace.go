package report

import (
	"bufio"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"electsim/algo"
	"electsim/sim"
)

// JSONL writes trace records as JSON Lines: one object per record, with "step", "t_ms" and
// "type" first, then the fields of that type of record (docs/model.md, "What a trace records"):
//
//	boot     node
//	send     from, to, kind, [value, term, flag], deliver_ms — or drop: the reason
//	deliver  from, to, kind, [value, term, flag]
//	drop     from, to, kind, [value, term, flag], reason
//	timer    node, timer
//	state    node, old, new, leader, term
//	fault    fault (the action word), action (its text), [node]
//	say      text
//	break    (nothing more)
//
// and "note" on any record that carries one. The output is a pure function of the records.
type JSONL struct {
	w   *bufio.Writer
	buf []byte
}

// NewJSONL returns a writer of JSON Lines to w. Call Flush when done.
func NewJSONL(w io.Writer) *JSONL {
	return &JSONL{w: bufio.NewWriter(w)}
}

// Write writes one record as one line.
func (j *JSONL) Write(r *sim.Record) error {
	b := AppendJSON(j.buf[:0], r)
	b = append(b, '\n')
	j.buf = b
	_, err := j.w.Write(b)
	return err
}

// Flush writes what is buffered.
func (j *JSONL) Flush() error { return j.w.Flush() }

// AppendJSON appends the JSON object of one record to b.
func AppendJSON(b []byte, r *sim.Record) []byte {
	b = append(b, `{"step":`...)
	b = strconv.AppendInt(b, int64(r.Step), 10)
	b = append(b, `,"t_ms":`...)
	b = appendMS(b, r.At)
	b = append(b, `,"type":"`...)
	b = append(b, r.Type.String()...)
	b = append(b, '"')
	num := func(key string, v int64) {
		b = append(b, ',', '"')
		b = append(b, key...)
		b = append(b, '"', ':')
		b = strconv.AppendInt(b, v, 10)
	}
	str := func(key, v string) {
		b = append(b, ',', '"')
		b = append(b, key...)
		b = append(b, '"', ':')
		b = appendString(b, v)
	}
	msg := func() {
		num("from", int64(r.Msg.From))
		num("to", int64(r.Msg.To))
		str("kind", r.Msg.Kind)
		if r.Msg.Value != 0 {
			num("value", int64(r.Msg.Value))
		}
		if r.Msg.Term != 0 {
			num("term", int64(r.Msg.Term))
		}
		if r.Msg.Flag {
			b = append(b, `,"flag":true`...)
		}
		if r.Msg.Phase != 0 {
			num("phase", int64(r.Msg.Phase))
		}
		if r.Msg.Hop != 0 {
			num("hop", int64(r.Msg.Hop))
		}
		if r.Msg.Log != nil {
			b = appendLogPart(b, r.Msg.Log)
		}
	}
	switch r.Type {
	case sim.RecBoot:
		num("node", int64(r.Node))
	case sim.RecSend:
		msg()
		if r.Reason != 0 {
			str("drop", r.Reason.String())
		} else {
			b = append(b, `,"deliver_ms":`...)
			b = appendMS(b, r.DeliverAt)
		}
	case sim.RecDeliver:
		msg()
	case sim.RecDrop:
		msg()
		str("reason", r.Reason.String())
	case sim.RecTimer:
		num("node", int64(r.Node))
		str("timer", r.Timer)
	case sim.RecState:
		num("node", int64(r.Node))
		str("old", r.Old.String())
		str("new", r.New.String())
		num("leader", int64(r.Leader))
		num("term", int64(r.Term))
	case sim.RecFault:
		str("fault", r.Action.Op.String())
		str("action", r.Action.String())
		if r.Node != 0 {
			num("node", int64(r.Node))
		}
	case sim.RecSay:
		str("text", r.Action.Text)
	}
	if r.Note != "" {
		str("note", r.Note)
	}
	return append(b, '}')
}

// appendLogPart appends a message's log part (algo.Message.Log) as its "log" member:
// {"index":4,"index_term":3,"commit":2,"entries":[{"index":5,"term":3,"value":17}]}, each number
// only when it is not 0, an entry's "by" only where the algorithm names a proposer.
func appendLogPart(b []byte, l *algo.LogPart) []byte {
	b = append(b, `,"log":{`...)
	first := true
	num := func(key string, v uint64) {
		if v == 0 {
			return
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, key...)
		b = append(b, '"', ':')
		b = strconv.AppendUint(b, v, 10)
	}
	num("index", l.Index)
	num("index_term", l.IndexTerm)
	num("commit", l.Commit)
	if len(l.Entries) > 0 {
		if !first {
			b = append(b, ',')
		}
		b = append(b, `"entries":[`...)
		for i, e := range l.Entries {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"index":`...)
			b = strconv.AppendUint(b, e.Index, 10)
			b = append(b, `,"term":`...)
			b = strconv.AppendUint(b, e.Term, 10)
			if e.By != 0 {
				b = append(b, `,"by":`...)
				b = strconv.AppendInt(b, int64(e.By), 10)
			}
			b = append(b, `,"value":`...)
			b = strconv.AppendUint(b, e.Value, 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendMS appends a virtual time in milliseconds, as a JSON number with up to six decimals
// (nanosecond precision) and no trailing zeros.
func appendMS(b []byte, d time.Duration) []byte {
	ms := int64(d) / 1e6
	frac := int64(d) % 1e6
	if d < 0 {
		b = append(b, '-')
		ms, frac = -ms, -frac
	}
	b = strconv.AppendInt(b, ms, 10)
	if frac == 0 {
		return b
	}
	digits := []byte{'.', '0', '0', '0', '0', '0', '0'}
	for i := 6; i >= 1; i-- {
		digits[i] = byte('0' + frac%10)
		frac /= 10
	}
	n := len(digits)
	for digits[n-1] == '0' {
		n--
	}
	return append(b, digits[:n]...)
}

// appendString appends s as a JSON string: quotes, backslashes and control characters escaped,
// everything else (→, ★, accents) as it is. Invalid UTF-8 becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\t':
			b = append(b, '\\', 't')
		case r < 0x20 || r == 0x7f:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}
