package scenarios

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Error is a mistake in scenario text, at a line and column (both from 1; Line is 0 for text
// that is not a file, such as a flag's value).
type Error struct {
	File      string
	Line, Col int
	Msg       string
	Hidden    int // on the last line of a long list: how many mistakes it stands for
}

// Error writes "file:line:col: msg", leaving out what is unknown.
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File + ":")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "%d:", e.Line)
	}
	if e.Col > 0 {
		if e.Line == 0 {
			b.WriteString("column ")
		}
		fmt.Fprintf(&b, "%d:", e.Col)
	}
	if b.Len() > 0 {
		b.WriteString(" ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

type tokKind uint8

const (
	tWord   tokKind = iota + 1 // anything else up to a space, '|', ',' or '#'
	tBar                       // |
	tComma                     // ,
	tString                    // "quoted", unquoted in text
)

type token struct {
	kind tokKind
	text string
	col  int // 1-based, in characters
	off  int // byte offset in the line
}

// maxTokens is the most tokens a line may hold: an ids line of MaxNodes ids with a comma
// after each, and a few words more. A longer line is refused as it is read, before its tokens
// take more memory than any scenario needs.
const maxTokens = 2*MaxNodes + 16

// lex splits one line into tokens, stopping at a '#' comment. col0 is the column of the line's
// first character (1 for a whole line). It also returns the line without its comment.
func lex(line string, lineNo, col0 int) ([]token, string, *Error) {
	var toks []token
	var tooLong *Error
	add := func(t token) bool {
		if len(toks) == maxTokens {
			tooLong = &Error{Line: lineNo, Col: t.col, Msg: fmt.Sprintf(
				"this line is too long: more than %d words and separators, and a scenario has at most %d nodes", maxTokens, MaxNodes)}
			return false
		}
		if len(toks) == cap(toks) { // doubling, up to maxTokens: a long line's tokens take twice their room at most
			toks = append(make([]token, 0, min(max(2*cap(toks), 8), maxTokens)), toks...)
		}
		toks = append(toks, t)
		return true
	}
	col := col0
	for i := 0; i < len(line); {
		r, w := utf8.DecodeRuneInString(line[i:])
		switch {
		case r == '#':
			return toks, line[:i], nil
		case unicode.IsSpace(r):
			i += w
			col++
		case r == '|':
			if !add(token{tBar, "|", col, i}) {
				return nil, "", tooLong
			}
			i += w
			col++
		case r == ',':
			if !add(token{tComma, ",", col, i}) {
				return nil, "", tooLong
			}
			i += w
			col++
		case r == '"':
			end, text, ok := quoted(line[i:])
			if !ok {
				return nil, "", &Error{Line: lineNo, Col: col, Msg: `unterminated string: expected a closing " on the same line`}
			}
			if !add(token{tString, text, col, i}) {
				return nil, "", tooLong
			}
			col += utf8.RuneCountInString(line[i : i+end])
			i += end
		default:
			j := i
			for j < len(line) {
				r, w := utf8.DecodeRuneInString(line[j:])
				if unicode.IsSpace(r) || r == '|' || r == ',' || r == '#' || r == '"' {
					break
				}
				j += w
			}
			if !add(token{tWord, line[i:j], col, i}) {
				return nil, "", tooLong
			}
			col += utf8.RuneCountInString(line[i:j])
			i = j
		}
	}
	return toks, line, nil
}

// quoted reads a Go-style double-quoted string at the start of s and returns the length it
// spans and its text.
func quoted(s string) (end int, text string, ok bool) {
	for j := 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			t, err := strconv.Unquote(s[:j+1])
			if err != nil {
				return 0, "", false
			}
			return j + 1, t, true
		}
	}
	return 0, "", false
}

// unixLineEnds returns text with every line ending a line feed: a carriage return and line
// feed (Windows) and a carriage return alone (old Mac files) each end one line, as a line
// feed does.
func unixLineEnds(text string) string {
	if !strings.Contains(text, "\r") {
		return text
	}
	return strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
}
