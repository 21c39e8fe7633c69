package safetext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every character a terminal or a page could act on written out as a
// visible escape: C0 and C1 control characters (ESC, BEL, carriage return, ...) as \x1b and
// \u009b, DEL as \x7f, the Unicode bidirectional controls (U+202A–U+202E, U+2066–U+2069,
// U+200E, U+200F, U+061C) as \u202e, and bytes that are not UTF-8 as \xff. A tab becomes a
// space. Everything else, including non-ASCII letters and symbols, is kept. A string that
// needs no escaping is returned as it is, without allocating.
func Escape(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// EscapeLines is Escape for text of several lines: each line is escaped, and the line breaks
// between them are kept.
func EscapeLines(s string) string {
	if !strings.Contains(s, "\n") {
		return Escape(s)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Escape(l)
	}
	return strings.Join(lines, "\n")
}

// firstUnsafe returns the index of the first byte of s that Escape changes, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// unsafeRune reports whether r, a non-ASCII rune, is a C1 control or a bidirectional control.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls, CSI (U+009B) among them
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}
