package scenarios

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"electsim/algo"
	"electsim/sim"
)

// MaxNodes is the most nodes a scenario may have: enough for the 100,000-node benchmarks, with
// room, and within what a goroutine per node fits in memory.
const MaxNodes = 200_000

// ErrorList is every mistake in a scenario file, in the order of the file.
type ErrorList []*Error

// Error writes one mistake per line.
func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Count is how many mistakes the list reports: those shown and those it only counts.
func (l ErrorList) Count() int {
	n := len(l)
	for _, e := range l {
		if e.Hidden > 0 {
			n += e.Hidden - 1
		}
	}
	return n
}

// directives lists the words a line can start with, for error messages.
const directives = "title, algo, nodes, ids, seed, delay, drop, fifo, topology, edges, set, run, at, expect"

// Parse reads a scenario. file names it in errors, and gives the scenario its name (the base
// name without .scn). Every mistake is reported, as an ErrorList, each with its line and
// column and what was expected; a scenario with mistakes is not returned.
func Parse(file string, src []byte) (*Scenario, error) { return parse(file, src, nil) }

// Override is what a run's flags put in place of a scenario's own directives.
type Override struct {
	Algorithm  string        // "" keeps the file's; the file's set lines then mean nothing
	IDs        []algo.ID     // nil keeps the file's
	RunFor     time.Duration // 0 keeps the file's
	NodesFlag  string        // the flags as given, to say where a value came from: "--nodes 3"
	RunForFlag string        // "--run 500ms"
}

// Recheck reads the file s was parsed from again, with o in place of the directives it names,
// and returns every action that o makes wrong, each at its position as Parse reports a mistake,
// with the flag that made it wrong. Expectations are not checked again: they are judged on the
// run, where one that o makes impossible fails; and with another algorithm the file's set lines
// are left out, as the run leaves them out. A scenario not parsed from a file (New, or built by
// a program) has no lines to check.
func (s *Scenario) Recheck(o Override) error {
	if s.src == nil {
		return nil
	}
	if _, err := parse(s.file, s.src, &o); err != nil {
		return err
	}
	if o.IDs != nil && algo.TopologyKind(s.Topology) == algo.File && s.edgeAt != nil {
		l := &EdgeList{Edges: s.Edges, at: s.edgeAt} // a file's edges, read once, judged by the flags' nodes
		if err := l.Check(o.IDs, o.NodesFlag); err != nil {
			return ErrorList{{File: s.file, Line: s.topologyAt.line, Col: s.topologyAt.col, Msg: err.Error()}}
		}
	}
	return nil
}

func parse(file string, src []byte, o *Override) (*Scenario, error) {
	sc := New(strings.TrimSuffix(filepath.Base(file), ".scn"))
	sc.file, sc.src = file, src
	p := &fileParser{file: file, sc: sc, seen: map[string]int{}, override: o, broken: map[string]bool{}}
	text := unixLineEnds(strings.TrimPrefix(string(src), "\ufeff")) // a byte order mark, as some editors write
	if line, col, ok := invalidUTF8(text); ok {
		return nil, ErrorList{{File: file, Line: line, Col: col,
			Msg: "this is not UTF-8 text: a scenario is a text file (electsim scenarios --show NAME prints one)"}}
	}
	lines := strings.Split(text, "\n")

	// First the directives that say what the run is, wherever they are: the actions and
	// expectations are checked against them.
	var later []*parser
	for i, text := range lines {
		lp, err := newParser(text, i+1, nil)
		if err != nil {
			p.errs = append(p.errs, err)
			continue
		}
		t := lp.peek()
		if t == nil {
			continue // blank, or a comment
		}
		if t.kind != tWord {
			lp.fail(t, "expected a directive (%s), got %q", directives, t.text)
			p.collect(lp)
			continue
		}
		switch t.text {
		case "set", "draws", "at", "expect":
			later = append(later, lp)
			continue
		}
		seen := len(p.seen)
		p.header(lp)
		if lp.err != nil && len(p.seen) > seen {
			p.broken[t.text] = true // its first line, and wrong (a second one leaves the first in force)
		}
		p.collect(lp)
	}
	if o != nil {
		p.apply(o)
	}
	info, err := algo.Lookup(sc.Algorithm)
	if err != nil {
		info = nil // reported where the algo line is
	}
	if info != nil && o == nil {
		p.fits(info)
	}
	members := NewMembers(sc.IDs)
	if p.flagged {
		members.by = o.NodesFlag
	}
	if !p.flagged && (p.broken["nodes"] || p.broken["ids"]) {
		members = nil // which nodes there are is not known: no line is judged by them
	}
	p.checkEdges(members)
	if info != nil && o == nil && len(p.errs) == 0 {
		p.connected()
	}
	for _, lp := range later {
		lp.members = members
		switch lp.next().text {
		case "set":
			if o != nil && o.Algorithm != "" {
				continue // another algorithm's parameters: the run leaves them out
			}
			p.set(lp, info)
		case "draws":
			p.draws(lp)
		case "at":
			p.at(lp)
		case "expect":
			if o != nil {
				continue // judged on the run as the flags make it: one they make impossible fails
			}
			p.expect(lp, info)
		}
		p.collect(lp)
	}
	if len(p.errs) > 0 {
		slices.SortStableFunc(p.errs, func(a, b *Error) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Col - b.Col
		})
		for _, e := range p.errs {
			e.File = file
			e.Msg = shorten(e.Msg)
		}
		if n := len(p.errs) - maxErrors; n > 0 {
			next := p.errs[maxErrors]
			p.errs = append(p.errs[:maxErrors:maxErrors], &Error{File: file, Line: next.Line, Col: next.Col, Hidden: n,
				Msg: fmt.Sprintf("and %d more mistakes from here on, not shown: mend these first", n)})
		}
		return nil, p.errs
	}
	return sc, nil
}

// fits reports, at the nodes or topology line, a cluster the algorithm cannot run on: too few
// nodes, or a topology it does not take.
func (p *fileParser) fits(info *algo.Info) {
	sc := p.sc
	if line, ok := p.seen["nodes"]; ok && info.Validate != nil {
		if cl, err := algo.NewCluster(sc.IDs, sc.Delay.Max, nil); err == nil {
			if err := info.Validate(cl); err != nil {
				p.errs = append(p.errs, &Error{Line: line, Col: 1, Msg: err.Error()})
			}
		}
	}
	if err := info.CheckTopology(sc.TopologyFor(info)); err != nil {
		line, ok := p.seen["topology"]
		if !ok {
			line = p.seen["algo"]
		}
		if line > 0 {
			p.errs = append(p.errs, &Error{Line: line, Col: 1, Msg: err.Error() + ": write topology " + info.TopologyList()[0]})
		}
	}
}

// connected reports, at the topology line, a graph given as its edges that does not join every
// node: checked once its edges are known to name the run's nodes.
func (p *fileParser) connected() {
	sc := p.sc
	if sc.Topology != algo.EdgeList {
		return
	}
	if _, err := algo.NewClusterGraph(sc.IDs, sc.Topology, sc.Edges, sc.Seed, sc.Delay.Max, nil); err != nil {
		p.errs = append(p.errs, &Error{Line: sc.topologyAt.line, Col: sc.topologyAt.col, Msg: err.Error()})
	}
}

// maxErrors is how many mistakes a file reports at most: a file that is not a scenario at all
// would otherwise fill the terminal.
const maxErrors = 30

// shorten cuts the very long words of a message — what it quotes of a file, such as 100,000
// x's on a line — down to a readable length, and leaves the rest, what it says was expected,
// whole.
func shorten(msg string) string {
	const max = 60
	words := strings.Split(msg, " ")
	for i, w := range words {
		if utf8.RuneCountInString(w) > max {
			words[i] = string([]rune(w)[:max]) + "…"
		}
	}
	return strings.Join(words, " ")
}

// invalidUTF8 returns the line and column (in runes) of the first byte of text that is not
// UTF-8, if there is one.
func invalidUTF8(text string) (line, col int, ok bool) {
	if utf8.ValidString(text) {
		return 0, 0, false
	}
	line, col = 1, 1
	for i, r := range text {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(text[i:], "\uFFFD"):
			return line, col, true
		case r == '\n':
			line, col = line+1, 1
		default:
			col++
		}
	}
	return line, col, true
}

// fileParser holds what is known of the scenario while its lines are read.
type fileParser struct {
	file     string
	sc       *Scenario
	seen     map[string]int // directive → the line it was first given on
	runLine  int
	errs     ErrorList
	override *Override       // the flags of a run, in place of some directives (Recheck)
	flagged  bool            // the nodes are the flags' (say so when a line names another)
	broken   map[string]bool // directives whose line is wrong: the lines that depend on them are not judged by them
}

// apply puts o's values in place of the file's directives.
func (p *fileParser) apply(o *Override) {
	sc := p.sc
	if o.Algorithm != "" {
		sc.Algorithm = o.Algorithm
		sc.Params = nil
	}
	if o.IDs != nil {
		sc.IDs = o.IDs
		sc.Contig = slices.Equal(o.IDs, contiguous(len(o.IDs)))
		p.flagged = true
	}
	if o.RunFor > 0 {
		sc.RunFor, p.runLine = o.RunFor, -1
	}
}

// collect keeps the error the line parser stopped at, if any.
func (p *fileParser) collect(lp *parser) {
	if lp.err != nil {
		p.errs = append(p.errs, lp.err)
	}
}

// once reports whether directive may be given on this line: it fails a second one.
func (p *fileParser) once(lp *parser, t *token) bool {
	key := t.text
	if key == "ids" {
		key = "nodes" // nodes and ids say the same thing
	}
	if first, ok := p.seen[key]; ok {
		if key == "nodes" {
			lp.fail(t, "the nodes are given already, at line %d: give them once, with nodes or ids", first)
		} else {
			lp.fail(t, "%s given twice (first at line %d)", t.text, first)
		}
		return false
	}
	p.seen[key] = lp.line
	return true
}

// set reads `set KEY VALUE`.
func (p *fileParser) set(lp *parser, info *algo.Info) {
	k := lp.word("a parameter and its value, such as set timeout 200ms")
	if k == nil {
		return
	}
	if key, value, ok := strings.Cut(k.text, "="); ok {
		lp.fail(k, "write set %s %s: in a scenario a space separates the parameter from its value (the --set flag is the one that takes key=value)", key, value)
		return
	}
	v := lp.word("the value of " + k.text)
	if v == nil || info == nil {
		return
	}
	if _, ok := info.Param(k.text); !ok {
		lp.fail(k, "%s has no parameter %q (its parameters are %s)", info.Name, k.text, strings.Join(info.ParamKeys(), ", "))
		return
	}
	if first, ok := p.seen["set "+k.text]; ok {
		lp.fail(k, "%s is set twice (first at line %d)", k.text, first)
		return
	}
	text := v.text
	if param, _ := info.Param(k.text); param.Kind == algo.PerNodeParam {
		text = lp.pairs(text) // node:number pairs, commas between: set zxid 1:4,2:9 (or 1:4, 2:9)
	}
	val, err := info.ParseParam(k.text, text)
	if err != nil {
		lp.fail(v, "%v", err)
		return
	}
	for _, pair := range val.NodeNumbers() { // a number for each of some nodes: they must be nodes
		if m := lp.members; m != nil && !m.have[pair.ID] {
			lp.fail(v, "%s: %s", k.text, m.unknown(pair.ID))
			return
		}
	}
	p.sc.Params = append(p.sc.Params, Setting{Key: k.text, Value: val})
	p.seen["set "+k.text] = lp.line
	lp.end()
}

// draws reads `draws NODE POINT...`: the node's first draws pinned to points of their ranges
// (sim.NodeDraws), as a counterexample that an exhaustive exploration found replays them.
func (p *fileParser) draws(lp *parser) {
	t := lp.word("a node and the points its draws take, such as draws 2 low high")
	if t == nil {
		return
	}
	id := lp.node(t)
	if lp.err != nil {
		return
	}
	key := "draws " + t.text
	if first, ok := p.seen[key]; ok {
		lp.fail(t, "the draws of node %d are given twice (first at line %d)", id, first)
		return
	}
	d := sim.NodeDraws{Node: id}
	for {
		w := lp.peek()
		if w == nil {
			break
		}
		lp.next()
		pt, err := sim.ParseDrawPoint(w.text)
		if err != nil {
			lp.fail(w, "%v", err)
			return
		}
		d.Points = append(d.Points, pt)
	}
	if len(d.Points) == 0 {
		lp.fail(nil, "expected the points node %d's draws take (low, high or middle); the line ends here", id)
		return
	}
	p.seen[key] = lp.line
	p.sc.Draws = append(p.sc.Draws, d)
}

// at reads `at TIME ACTION`.
func (p *fileParser) at(lp *parser) {
	t := lp.peek()
	when, after := lp.when("a time, such as at 300ms crash 5")
	if lp.err != nil {
		return
	}
	a := lp.action()
	if lp.err != nil {
		return
	}
	a.At, a.After = when, after
	if when > p.sc.RunFor && !p.broken["run"] {
		lp.fail(t, "at %s is after the end of the run (%s%s); lengthen the run or move the action",
			algo.FormatDuration(when), algo.FormatDuration(p.sc.RunFor), p.runAt())
		return
	}
	p.sc.Actions = append(p.sc.Actions, Step{Action: a, Line: lp.line})
}

func (p *fileParser) runAt() string {
	switch p.runLine {
	case 0:
		return ", the default"
	case -1:
		return ", set by " + p.override.RunForFlag
	}
	return fmt.Sprintf(", set at line %d", p.runLine)
}

// expect reads an `expect` line.
func (p *fileParser) expect(lp *parser, info *algo.Info) {
	forms := "leader N [by TIME], no split-brain, split-brain, messages KIND [=|<=|>=] N, " +
		strings.Join(Properties(info), ", ") + ", violation PROPERTY"
	t := lp.word("what you expect: " + forms)
	if t == nil {
		return
	}
	e := Expectation{Line: lp.line, By: -1}
	switch t.text {
	case "leader":
		e.Kind = ExpectLeader
		n := lp.word("the node you expect to lead, such as expect leader 4 by 500ms")
		if n == nil {
			return
		}
		e.Leader = lp.node(n)
		if u := lp.peek(); u != nil && u.kind == tWord && u.text == "by" {
			lp.next()
			at := lp.peek()
			e.By = lp.duration("a time, such as by 500ms")
			if lp.err == nil && e.By > p.sc.RunFor && !p.broken["run"] {
				lp.fail(at, "by %s is after the end of the run (%s%s)", algo.FormatDuration(e.By),
					algo.FormatDuration(p.sc.RunFor), p.runAt())
			}
		}
	case "split-brain":
		if p.groups(lp, t, info) {
			return
		}
		e.Kind, e.Property = ExpectViolated, sim.AtMostOneLeader
	case "no":
		u := lp.word("split-brain")
		if u == nil {
			return
		}
		if u.text != "split-brain" {
			lp.fail(u, "expected no split-brain, got no %s", u.text)
			return
		}
		if p.groups(lp, t, info) {
			return
		}
		e.Kind, e.Property = ExpectHolds, sim.AtMostOneLeader
	case "violation":
		u := lp.word("a property (" + strings.Join(Properties(info), ", ") + ")")
		if u == nil {
			return
		}
		e.Kind, e.Property = ExpectViolated, u.text
		p.property(lp, u, info)
	case "messages":
		e.Kind, e.Op = ExpectMessages, "="
		k := lp.word("a message kind, such as expect messages ELECTION 10")
		if k == nil {
			return
		}
		e.MsgKind = k.text
		if info != nil {
			// Kinds are written in capitals, but heartbeat means HEARTBEAT.
			i := slices.IndexFunc(info.Kinds, func(kind string) bool { return strings.EqualFold(kind, k.text) })
			if i < 0 {
				lp.fail(k, "%s sends no %s (its kinds are %s)", info.Name, k.text, strings.Join(info.Kinds, ", "))
				return
			}
			e.MsgKind = info.Kinds[i]
		}
		if u := lp.peek(); u != nil && (u.text == "=" || u.text == "<=" || u.text == ">=") {
			e.Op = lp.next().text
		}
		n := lp.word("a count, such as expect messages ELECTION <= 10")
		if n == nil {
			return
		}
		v, err := strconv.ParseInt(n.text, 10, 64)
		if err != nil || v < 0 {
			lp.fail(n, "expected a count (=, <= or >= then a whole number), got %q", n.text)
			return
		}
		e.Count = v
	default:
		e.Kind, e.Property = ExpectHolds, t.text
		if !slices.Contains(Properties(nil), t.text) {
			lp.fail(t, "unknown expectation %q (expected %s)", t.text, forms)
			return
		}
		p.property(lp, t, info)
	}
	if lp.err != nil {
		return
	}
	lp.end()
	if lp.err == nil {
		p.sc.Expects = append(p.sc.Expects, e)
	}
}

// property checks that the property named by t exists and applies to the algorithm.
func (p *fileParser) property(lp *parser, t *token, info *algo.Info) {
	switch {
	case !slices.Contains(Properties(nil), t.text):
		lp.fail(t, "unknown property %q (expected %s)", t.text, strings.Join(Properties(info), ", "))
	case t.text == sim.AtMostOneLeader && p.groups(lp, t, info):
	case t.text == sim.OneLeaderPerTerm && info != nil && !info.Terms:
		lp.fail(t, "%s has no terms, so %s does not apply to it", info.Name, t.text)
	case info != nil && !slices.Contains(Properties(info), t.text):
		lp.fail(t, "%s is a property of another algorithm; %s is judged by %s", t.text, info.Name, strings.Join(Properties(info), ", "))
	}
}

// groups fails an expectation of at-most-one-leader (split-brain) for an algorithm of groups
// (algo.Info.Groups), which has a coordinator per group by design, and reports whether it did.
func (p *fileParser) groups(lp *parser, t *token, info *algo.Info) bool {
	if info == nil || !info.Groups {
		return false
	}
	lp.fail(t, "%s has one coordinator per group, by design: two during a partition are no split brain, and at-most-one-leader is not judged for it (expect %s)",
		info.Name, strings.Join(Properties(info), ", "))
	return true
}
