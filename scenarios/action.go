package scenarios

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// actionWords lists the action words, for error messages.
func actionWords() string {
	var w []string
	for _, op := range sim.Ops() {
		w = append(w, op.String())
	}
	return strings.Join(w, ", ")
}

// Members describes the nodes of a scenario, for checking the ids an action names.
type Members struct {
	ids  []algo.ID // ring order
	have map[algo.ID]bool
	by   string // where they were set, when not in the file: "--nodes 3"
}

// NewMembers returns the membership of the given ids (in ring order).
func NewMembers(ids []algo.ID) *Members {
	m := &Members{ids: slices.Clone(ids), have: map[algo.ID]bool{}}
	for _, id := range ids {
		m.have[id] = true
	}
	return m
}

// String describes the nodes for an error message: "1..5", or the ids in ring order.
func (m *Members) String() string {
	contiguous := true
	for i, id := range m.ids {
		if id != algo.ID(i+1) {
			contiguous = false
			break
		}
	}
	if contiguous && len(m.ids) > 1 {
		return fmt.Sprintf("1..%d", len(m.ids))
	}
	var parts []string
	for i, id := range m.ids {
		if i == 12 {
			parts = append(parts, fmt.Sprintf("… (%d in all)", len(m.ids)))
			break
		}
		parts = append(parts, strconv.Itoa(int(id)))
	}
	return strings.Join(parts, " ")
}

// ParseAction parses one action without a time ("crash 5", "partition 1 2 | 3 4 5"), as typed
// on the TUI's command line. The ids it names must be members (members may be nil to accept
// any positive id). Column numbers in the error count from 1 at the start of text.
func ParseAction(text string, members *Members) (sim.Action, error) {
	p, lerr := newParser(text, 0, members)
	if lerr != nil {
		return sim.Action{}, lerr
	}
	a := p.action()
	if p.err != nil {
		return sim.Action{}, p.err
	}
	return a, nil
}

// ParseAt parses a time and an action ("1s partition 1 2 | 3 4 5"), as given to --at.
func ParseAt(text string, members *Members) (sim.Action, error) {
	p, lerr := newParser(text, 0, members)
	if lerr != nil {
		return sim.Action{}, lerr
	}
	at, after := p.when("a time, such as 300ms or 1.5s, then an action")
	if p.err != nil {
		return sim.Action{}, p.err
	}
	a := p.action()
	if p.err != nil {
		return sim.Action{}, p.err
	}
	a.At, a.After = at, after
	return a, nil
}

// FormatAt writes an action with its time, as ParseAt reads it: "1s crash 5", "0ms crash 5",
// "160ms after 2 inputs crash 3".
func FormatAt(a sim.Action) string {
	return FormatWhen(a) + " " + a.String()
}

// FormatWhen writes when an action happens, as a scenario's `at` line and ParseAt read it:
// its time, and how many inputs of its instant come before it if any do — "1s", "160ms after
// 2 inputs".
func FormatWhen(a sim.Action) string {
	if a.After == 0 {
		return FormatTime(a.At)
	}
	if a.After == 1 {
		return FormatTime(a.At) + " after 1 input"
	}
	return fmt.Sprintf("%s after %d inputs", FormatTime(a.At), a.After)
}

// maxAfter bounds how many inputs of its instant an action may wait for.
const maxAfter = 1_000_000

// when reads the time of an action, and `after K inputs` if it follows: how many of the
// instant's inputs come before the action.
func (p *parser) when(what string) (time.Duration, int) {
	at := p.duration(what)
	if t := p.peek(); p.err != nil || t == nil || t.text != "after" {
		return at, 0
	}
	p.next()
	const form = "how many of the instant's inputs come first, as in at 160ms after 2 inputs crash 3"
	t := p.word(form)
	if t == nil {
		return at, 0
	}
	n, err := strconv.Atoi(t.text)
	if err != nil || n < 0 || n > maxAfter || strings.Trim(t.text, "0123456789") != "" {
		p.fail(t, "expected %s (a whole number from 0 to %d), got %q", form, maxAfter, t.text)
		return at, 0
	}
	u := p.word(`"inputs" after the number, as in at 160ms after 2 inputs crash 3`)
	if u == nil {
		return at, 0
	}
	if u.text != "inputs" && u.text != "input" {
		p.fail(u, `expected "inputs" after the number, as in at 160ms after 2 inputs crash 3, got %q`, u.text)
	}
	return at, n
}

// FormatTime writes the time of an action as a scenario writes it, and ParseAt reads it back
// exactly: "0ms", "1s", "1012ms", "305.28ms".
func FormatTime(at time.Duration) string {
	if at == 0 {
		return "0ms"
	}
	return algo.FormatDuration(at)
}

func utf8Len(s string) int { return len([]rune(s)) }

// newParser lexes one line (numbered lineNo, 0 for text that is not a file).
func newParser(line string, lineNo int, members *Members) (*parser, *Error) {
	toks, code, err := lex(line, lineNo, 1)
	if err != nil {
		return nil, err
	}
	return &parser{toks: toks, code: code, line: lineNo, members: members, endCol: utf8Len(strings.TrimRight(code, " \t")) + 1}, nil
}

// parser reads the tokens of one line. It stops at the first error.
type parser struct {
	toks    []token
	code    string // the line without its comment
	pos     int
	line    int
	members *Members
	endCol  int    // the column just past the line, for "expected ... at end of line"
	op      sim.Op // the action being read: whether a node may be `leader`
	err     *Error
}

func (p *parser) failAt(col int, format string, args ...any) {
	if p.err == nil {
		p.err = &Error{Line: p.line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
}

func (p *parser) fail(t *token, format string, args ...any) {
	col := p.endCol
	if t != nil {
		col = t.col
	}
	p.failAt(col, format, args...)
}

// peek returns the next token, or nil at the end of the line.
func (p *parser) peek() *token {
	if p.err != nil || p.pos >= len(p.toks) {
		return nil
	}
	return &p.toks[p.pos]
}

func (p *parser) next() *token {
	t := p.peek()
	if t != nil {
		p.pos++
	}
	return t
}

// word returns the next token, which must be a word.
func (p *parser) word(what string) *token {
	t := p.next()
	if p.err != nil {
		return nil
	}
	if t == nil {
		p.fail(nil, "expected %s; the line ends here", what)
		return nil
	}
	if t.kind != tWord {
		p.fail(t, "expected %s, got %q", what, t.text)
		return nil
	}
	return t
}

// pairs reads the rest of a list of node:number pairs that began with first, its commas and the
// words between them, and returns it written without spaces: "1:4,2:9".
func (p *parser) pairs(first string) string {
	text, comma := first, false
	for t := p.peek(); t != nil && (t.kind == tComma || t.kind == tWord && comma); t = p.peek() {
		p.next()
		text += t.text
		comma = t.kind == tComma
	}
	return text
}

// end requires the line to be over.
func (p *parser) end() {
	if t := p.peek(); t != nil {
		p.fail(t, "unexpected %q: expected the end of the line", t.text)
	}
}

func (p *parser) duration(what string) time.Duration {
	t := p.word(what)
	if t == nil {
		return 0
	}
	d, err := algo.ParseDuration(t.text)
	if err != nil {
		p.fail(t, "%v", err)
	}
	return d
}

// node reads one id and checks it is a member — or `leader`, where the action takes it.
func (p *parser) node(t *token) algo.ID {
	why := sim.WhyNotLeader(p.op)
	if t.text == "leader" && p.op != 0 {
		if why != "" {
			p.fail(t, "%s", why)
			return 0
		}
		return sim.AgreedLeader
	}
	n, err := strconv.Atoi(t.text)
	if err != nil || n <= 0 {
		if p.op != 0 && why == "" {
			p.fail(t, "expected a node id (a positive whole number) or leader, got %q", t.text)
		} else {
			p.fail(t, "expected a node id (a positive whole number), got %q", t.text)
		}
		return 0
	}
	id := algo.ID(n)
	if p.members != nil && !p.members.have[id] {
		p.fail(t, "%s", p.members.unknown(id))
		return 0
	}
	return id
}

// unknown says that id is not one of the nodes: "unknown node 7 (nodes are 1..5)".
func (m *Members) unknown(id algo.ID) string {
	if m.by != "" {
		return fmt.Sprintf("unknown node %d (nodes are %s, set by %s)", id, m, m.by)
	}
	return fmt.Sprintf("unknown node %d (nodes are %s)", id, m)
}

// nodes reads a space- or comma-separated list of at least one id, up to a '|' or the end.
func (p *parser) nodes(what string, seen map[algo.ID]bool) []algo.ID {
	var ids []algo.ID
	for {
		t := p.peek()
		if t == nil || t.kind == tBar {
			break
		}
		p.next()
		if t.kind == tComma {
			if len(ids) == 0 {
				p.fail(t, "expected a node id before ','")
			}
			continue
		}
		if t.kind != tWord {
			p.fail(t, "expected %s, got %q", what, t.text)
			break
		}
		id := p.node(t)
		if p.err != nil {
			break
		}
		if seen[id] {
			if id == sim.AgreedLeader {
				p.fail(t, "leader is named twice")
			} else {
				p.fail(t, "node %d is named twice", id)
			}
			break
		}
		seen[id] = true
		ids = append(ids, id)
	}
	if len(ids) == 0 && p.err == nil {
		p.fail(p.peek(), "expected %s", what)
	}
	return ids
}

// link reads "A->B".
func (p *parser) link(t *token) *network.Link {
	a, b, ok := strings.Cut(t.text, "->")
	if !ok || a == "" || b == "" {
		p.fail(t, "expected a link such as 1->2, got %q", t.text)
		return nil
	}
	from := p.node(&token{kind: tWord, text: a, col: t.col})
	to := p.node(&token{kind: tWord, text: b, col: t.col + utf8Len(a) + 2})
	if p.err != nil {
		return nil
	}
	if from == to {
		p.fail(t, "a link joins two different nodes, got %s", t.text)
		return nil
	}
	return &network.Link{From: from, To: to}
}

// optLink reads an optional "A->B" link.
func (p *parser) optLink() *network.Link {
	p.miswrittenLink()
	if t := p.peek(); t != nil && t.kind == tWord && strings.Contains(t.text, "->") {
		return p.link(p.next())
	}
	return nil
}

// linkAlike matches a link written with some other arrow than "->": "1-2", "1→2", "1=>2",
// "1>2", "1-->2".
var linkAlike = regexp.MustCompile(`^([0-9]+)(?:-+|–|—|→|⟶|=+>|-{2,}>|~+>|>)([0-9]+)$`)

// arrows are what a link's arrow is mistaken for when written apart: "1 -> 2", "1 - 2".
var arrows = []string{"->", "-", "–", "—", "→", "⟶", "=>", ">", "-->"}

// miswrittenLink fails, saying how to write it, when the next tokens are a link written another
// way — "1-2", "1→2", "1 -> 2" — rather than a link, a node or a value that is simply wrong.
func (p *parser) miswrittenLink() {
	t := p.peek()
	if t == nil || t.kind != tWord {
		return
	}
	if m := linkAlike.FindStringSubmatch(t.text); m != nil {
		p.fail(t, "expected a link such as 1->2, got %q: write it %s->%s", t.text, m[1], m[2])
		return
	}
	if p.pos+2 < len(p.toks) {
		arrow, to := p.toks[p.pos+1], p.toks[p.pos+2]
		if arrow.kind == tWord && slices.Contains(arrows, arrow.text) && to.kind == tWord && isID(t.text) && isID(to.text) {
			p.fail(t, "expected a link such as 1->2, got %q: write it %s->%s, without spaces", t.text+" "+arrow.text+" "+to.text, t.text, to.text)
		}
	}
}

// isID reports whether text is written as a node id: digits.
func isID(text string) bool {
	n, err := strconv.Atoi(text)
	return err == nil && n > 0
}

func (p *parser) percent() float64 {
	t := p.word("a percentage such as 5% or 12.5%")
	if t == nil {
		return 0
	}
	num, ok := strings.CutSuffix(t.text, "%")
	v, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || !(v >= 0 && v <= 100) {
		p.fail(t, "expected a percentage from 0%% to 100%%, such as 5%% or 12.5%%, got %q", t.text)
	}
	return v
}

// action reads an action word and its arguments, to the end of the line.
func (p *parser) action() sim.Action {
	t := p.word("an action (" + actionWords() + ")")
	if t == nil {
		return sim.Action{}
	}
	var op sim.Op
	for _, o := range sim.Ops() {
		if o.String() == t.text {
			op = o
		}
	}
	if op == 0 {
		p.fail(t, "unknown action %q (expected %s)", t.text, actionWords())
		return sim.Action{}
	}
	a := sim.Action{Op: op}
	p.op = op
	switch op {
	case sim.Crash, sim.Recover, sim.Pause, sim.Resume, sim.Elect:
		example := fmt.Sprintf("%s 3 or %s 2 4", op, op)
		if sim.WhyNotLeader(op) == "" {
			example = fmt.Sprintf("%s 3, %s 2 4 or %s leader", op, op, op)
		}
		a.Nodes = p.nodes(fmt.Sprintf("the node(s) to %s, such as %s", op, example), map[algo.ID]bool{})
	case sim.Partition:
		seen := map[algo.ID]bool{}
		for {
			a.Groups = append(a.Groups, p.nodes("a group of nodes, such as partition 1 2 | 3 4 5", seen))
			if t := p.peek(); t != nil && t.kind == tBar {
				p.next()
				continue
			}
			break
		}
		if p.err == nil && p.members != nil && len(a.Groups) == 1 && len(seen) == len(p.members.ids) && !seen[sim.AgreedLeader] {
			p.fail(t, "%s puts every node in one group, which splits nothing: name one side, such as partition %d — the nodes it leaves out form the other",
				a, a.Groups[0][0])
		}
	case sim.Cut:
		p.miswrittenLink()
		if t := p.word("the link to cut, such as 1->2"); t != nil {
			a.Link = p.link(t)
		}
	case sim.Heal:
		a.Link = p.optLink()
		if t := p.peek(); t != nil && a.Link == nil && p.err == nil {
			p.fail(t, "unexpected %q: heal takes nothing (it heals every link) or one cut link, such as heal 1->2", t.text)
		}
	case sim.SetDelay:
		a.Link = p.optLink()
		t := p.word("a delay such as 10ms or 5ms..15ms")
		if t != nil {
			lo, hi, err := algo.ParseRange(t.text)
			if err != nil {
				p.fail(t, "%v", err)
			}
			a.Delay = network.Delay{Min: lo, Max: hi}
		}
	case sim.SetDrop:
		a.Link = p.optLink()
		a.Drop = p.percent()
	case sim.Say:
		a.Text = p.text()
	case sim.Break:
	case sim.Clock:
		a.Nodes, a.Rate = p.clock()
	}
	p.end()
	return a
}

// clock reads the rest of "clock N rate R": one node (or leader), the word rate, and a rate.
func (p *parser) clock() ([]algo.ID, float64) {
	const example = "such as clock 2 rate 0.8"
	t := p.word("the node whose clock drifts, " + example)
	if t == nil {
		return nil, 0
	}
	id := p.node(t)
	if w := p.word("the word rate, " + example); w != nil && w.text != "rate" {
		p.fail(w, "expected the word rate, %s, got %q", example, w.text)
	}
	r := p.word("the clock's rate: how many seconds it advances per true second, " + example)
	if r == nil || p.err != nil {
		return nil, 0
	}
	v, err := strconv.ParseFloat(r.text, 64)
	if err != nil || !(v >= sim.MinRate && v <= sim.MaxRate) {
		p.fail(r, "expected a rate from %s to %s, such as 0.8 or 1.25, got %q", sim.FormatRate(sim.MinRate), sim.FormatRate(sim.MaxRate), r.text)
		return nil, 0
	}
	return []algo.ID{id}, v
}

// text reads narration: one quoted string, or the rest of the line as written.
func (p *parser) text() string {
	t := p.peek()
	if t == nil {
		p.fail(nil, `expected the text to say, such as say "Who notices first?"`)
		return ""
	}
	if t.kind == tString {
		p.next()
		return t.text
	}
	for _, u := range p.toks[p.pos:] {
		if u.kind == tString {
			p.fail(&u, "expected the whole text in one pair of quotes")
			return ""
		}
	}
	p.pos = len(p.toks)
	return strings.TrimSpace(p.code[t.off:])
}
