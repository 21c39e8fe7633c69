package diagram_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/internal/goldenfile"
	"electsim/network"
	"electsim/report/diagram"
	"electsim/scenarios"
	"electsim/sim"
)

// goldenScenarios are the bundled scenarios whose diagrams are kept in testdata/.
var goldenScenarios = []string{"bully-recovery", "ring-dead-successor"}

// play runs a bundled scenario with tracing and returns its records and the diagram options.
func play(t *testing.T, name string) ([]sim.Record, diagram.Options) {
	t.Helper()
	sc, err := scenarios.LoadBundled(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.Trace = true
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var recs []sim.Record
	for {
		r, ok := s.Step()
		if !ok {
			break
		}
		recs = append(recs, r.Records...)
	}
	return recs, diagram.Options{IDs: cfg.IDs, Algorithm: cfg.Algorithm, Title: sc.Title, Caption: name}
}

type writer func(io.Writer, []sim.Record, diagram.Options) error

var formats = []struct {
	ext   string
	write writer
}{{"svg", diagram.SVG}, {"mmd", diagram.Mermaid}, {"shiviz", diagram.ShiViz}}

func render(t *testing.T, w writer, recs []sim.Record, o diagram.Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := w(&b, recs, o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The three diagrams of two bundled scenarios, as a reader gets them.
func TestDiagramGoldens(t *testing.T) {
	for _, name := range goldenScenarios {
		recs, o := play(t, name)
		for _, f := range formats {
			goldenfile.Check(t, name+"."+f.ext, render(t, f.write, recs, o))
		}
	}
}

// countShown counts, independently of the writers, the messages a diagram shows: those of the
// kinds shown, sent within the window, by fate.
func countShown(recs []sim.Record, o diagram.Options) (delivered, lost, inflight int) {
	shown := func(k string) bool {
		if o.Kinds != nil {
			return slices.Contains(o.Kinds, k)
		}
		return !o.Algorithm.IsRoutine(k)
	}
	in := func(t time.Duration) bool { return t >= o.From && (o.To <= 0 || t <= o.To) }
	type key struct {
		from, to algo.ID
		kind     string
	}
	pending := map[key][]sim.Record{} // FIFO links: arrivals come in the order of sends
	for _, r := range recs {
		if !shown(r.Msg.Kind) {
			continue
		}
		k := key{r.Msg.From, r.Msg.To, r.Msg.Kind}
		switch r.Type {
		case sim.RecSend:
			if r.Reason != network.Delivered {
				if in(r.At) {
					lost++
				}
				continue
			}
			pending[k] = append(pending[k], r)
		case sim.RecDeliver, sim.RecDrop:
			s := pending[k][0]
			pending[k] = pending[k][1:]
			if !in(s.At) {
				continue
			}
			if r.Type == sim.RecDeliver {
				delivered++
			} else {
				lost++
			}
		}
	}
	for _, q := range pending {
		for _, s := range q {
			if in(s.At) {
				inflight++
			}
		}
	}
	return
}

// The SVG is well-formed XML with exactly one arrow (an element of class msg) per message shown,
// whatever the window and kinds.
func TestSVGWellFormedOneArrowPerMessage(t *testing.T) {
	for _, name := range scenarios.Bundled() {
		recs, o := play(t, name)
		variants := []diagram.Options{o}
		w := o
		w.From, w.To = 500*time.Millisecond, 700*time.Millisecond
		variants = append(variants, w)
		a := o
		a.Kinds = o.Algorithm.Kinds
		variants = append(variants, a)
		for _, o := range variants {
			svg := render(t, diagram.SVG, recs, o)
			classes := map[string]int{}
			dec := xml.NewDecoder(strings.NewReader(svg))
			root := ""
			for {
				tok, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s %+v: not well-formed XML: %v", name, o.Kinds, err)
				}
				if se, ok := tok.(xml.StartElement); ok {
					if root == "" {
						root = se.Name.Space + " " + se.Name.Local
					}
					for _, at := range se.Attr {
						if at.Name.Local == "class" && slices.Contains(strings.Fields(at.Value), "msg") {
							for _, c := range strings.Fields(at.Value) {
								classes[c]++
							}
						}
					}
				}
			}
			if root != "http://www.w3.org/2000/svg svg" {
				t.Errorf("%s: root element %q", name, root)
			}
			delivered, lost, inflight := countShown(recs, o)
			if classes["msg"] != delivered+lost+inflight || classes["delivered"] != delivered ||
				classes["lost"] != lost || classes["inflight"] != inflight {
				t.Errorf("%s from %s to %s kinds %v: arrows %v, want %d delivered, %d lost, %d in flight",
					name, o.From, o.To, o.Kinds, classes, delivered, lost, inflight)
			}
			if strings.Contains(svg, "http://") && strings.Count(svg, "http://") != 1 || strings.Contains(svg, "href") {
				t.Errorf("%s: refers to something outside the file", name)
			}
		}
	}
}

// Text of every kind is escaped for XML; control characters, which XML cannot hold, are
// written out ("\x07"), as on the terminal.
func TestSVGEscapes(t *testing.T) {
	say := &sim.Action{Op: sim.Say, Text: `<b>& "quoted" 'single' bell` + "\a" + ` → ★ ]]>`}
	recs := []sim.Record{
		{Step: 1, Type: sim.RecSay, Action: say},
		{Step: 2, Type: sim.RecState, Node: 1, Old: sim.Follower, New: sim.Leader, Leader: 1, Note: "a < b & c"},
	}
	svg := render(t, diagram.SVG, recs, diagram.Options{Title: "T&C <1>"})
	if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
		t.Fatalf("not XML: %v\n%s", err, svg)
	}
	for _, want := range []string{`&lt;b&gt;&amp; &quot;quoted&quot; &#39;single&#39; bell\x07 → ★ ]]&gt;`, "T&amp;C &lt;1&gt;", "a &lt; b &amp; c"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %q in\n%s", want, svg)
		}
	}
}

// shivizEvent is one event of a ShiViz log.
type shivizEvent struct {
	desc, host string
	clock      map[string]int
	at         float64 // ms, from the description
}

// parseShiViz reads a ShiViz log as ShiViz does: the header's regular expression (in Go's
// syntax), matched over the rest. It fails t unless every line pair is one event.
func parseShiViz(t *testing.T, log string) []shivizEvent {
	t.Helper()
	header, rest, ok := strings.Cut(log, "\n")
	if !ok || header != `(?<event>.*)\n(?<host>\S*) (?<clock>{.*})` {
		t.Fatalf("header %q", header)
	}
	delim, body, _ := strings.Cut(rest, "\n")
	if delim != "" {
		t.Fatalf("second line %q, want it empty (no delimiter)", delim)
	}
	if strings.TrimSpace(body) == "" {
		return nil
	}
	// JavaScript's named groups (?<name>) are Go's (?P<name>); a { that starts no repetition
	// is a literal in both.
	re := regexp.MustCompile("(?m)" + strings.ReplaceAll(strings.ReplaceAll(header, "(?<", "(?P<"), "{.*}", `\{.*\}`))
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	if len(lines)%2 != 0 {
		t.Fatalf("%d lines: events are pairs of lines", len(lines))
	}
	matches := re.FindAllStringSubmatch(body, -1)
	if len(matches) != len(lines)/2 {
		t.Fatalf("the regular expression matches %d events, the log has %d line pairs", len(matches), len(lines)/2)
	}
	var events []shivizEvent
	for i, m := range matches {
		e := shivizEvent{desc: m[re.SubexpIndex("event")], host: m[re.SubexpIndex("host")]}
		if e.desc != lines[2*i] || e.host+" "+m[re.SubexpIndex("clock")] != lines[2*i+1] {
			t.Fatalf("event %d does not match its line pair:\n%s\n%s", i+1, lines[2*i], lines[2*i+1])
		}
		if err := json.Unmarshal([]byte(m[re.SubexpIndex("clock")]), &e.clock); err != nil {
			t.Fatalf("event %d: clock: %v", i+1, err)
		}
		ms, _, _ := strings.Cut(e.desc, "ms ")
		var err error
		if e.at, err = strconv.ParseFloat(ms, 64); err != nil {
			t.Fatalf("event %d: no time in %q", i+1, e.desc)
		}
		events = append(events, e)
	}
	return events
}

// checkShiViz checks what ShiViz requires of a log, and the vector clocks themselves: each
// host's own entry goes 1, 2, 3 ... with no gap; an entry for another host names a host of the
// log, at an event it has; every receive is at least its send, componentwise, and past it on
// its own host. The clocks are computed again from the events and must be equal.
func checkShiViz(t *testing.T, name string, events []shivizEvent) {
	t.Helper()
	count := map[string]int{}
	for i, e := range events {
		count[e.host]++
		if e.clock[e.host] != count[e.host] {
			t.Fatalf("%s: event %d (%s on %s): own clock %d, want %d", name, i+1, e.desc, e.host, e.clock[e.host], count[e.host])
		}
	}
	for i, e := range events {
		for h, c := range e.clock {
			if c < 1 || c > count[h] {
				t.Fatalf("%s: event %d: clock entry %s:%d, but %s has %d events", name, i+1, h, c, h, count[h])
			}
		}
	}
	// Pair receives with sends: per link and label, the oldest send first (FIFO links), leaving
	// out the sends whose fate is written beside them — lost, or still in flight at the end.
	recv := regexp.MustCompile(`^\S+ms receive (.+) from (\d+)( · .*)?$`)
	send := regexp.MustCompile(`^\S+ms send (.+) to (\d+)( \(.*\))?( · .*)?$`)
	pending := map[string][]map[string]int{}
	own := map[string]map[string]int{}
	receives := 0
	for i, e := range events {
		want := map[string]int{}
		for h, c := range own[e.host] {
			want[h] = c
		}
		if m := send.FindStringSubmatch(e.desc); m != nil && m[3] == "" { // a send lost or in flight has no receive
			k := e.host + ">n" + m[2] + " " + m[1]
			pending[k] = append(pending[k], e.clock)
		}
		if m := recv.FindStringSubmatch(e.desc); m != nil {
			k := "n" + m[2] + ">" + e.host + " " + m[1]
			if len(pending[k]) == 0 {
				t.Fatalf("%s: event %d: a receive with no send: %s", name, i+1, e.desc)
			}
			s := pending[k][0]
			pending[k] = pending[k][1:]
			for h, c := range s {
				if e.clock[h] < c {
					t.Fatalf("%s: event %d (%s on %s): clock %v is not ≥ its send's %v", name, i+1, e.desc, e.host, e.clock, s)
				}
				want[h] = max(want[h], c)
			}
			receives++
		}
		want[e.host]++
		if fmt.Sprint(want) != fmt.Sprint(e.clock) {
			t.Fatalf("%s: event %d (%s on %s): clock %v, want %v", name, i+1, e.desc, e.host, e.clock, want)
		}
		own[e.host] = e.clock
	}
	if receives == 0 && len(pending) > 0 {
		t.Fatalf("%s: no receive in the log", name)
	}
}

// ShiViz accepts the logs of every bundled scenario: the regular expression parses every
// event, and the clocks are vector clocks, exactly.
func TestShiVizAccepts(t *testing.T) {
	for _, name := range scenarios.Bundled() {
		recs, o := play(t, name)
		checkShiViz(t, name, parseShiViz(t, render(t, diagram.ShiViz, recs, o)))
		o.Kinds = o.Algorithm.Kinds
		o.From, o.To = 300*time.Millisecond, 900*time.Millisecond
		checkShiViz(t, name+" windowed", parseShiViz(t, render(t, diagram.ShiViz, recs, o)))
	}
}

// Narration with ; # and quotes cannot break a Mermaid diagram: they become entity codes.
func TestMermaidEscapes(t *testing.T) {
	text := `a; b # c "d" <br> 100% & done`
	recs := []sim.Record{
		{Step: 1, Type: sim.RecSay, Action: &sim.Action{Op: sim.Say, Text: text}},
		{Step: 2, Type: sim.RecSend, Msg: algo.Message{Kind: "OK", From: 1, To: 2}, DeliverAt: time.Millisecond},
		{Step: 3, At: time.Millisecond, Type: sim.RecDeliver, Msg: algo.Message{Kind: "OK", From: 1, To: 2}},
		{Step: 3, At: time.Millisecond, Type: sim.RecState, Node: 2, Old: sim.Candidate, New: sim.Follower, Leader: 1, Note: "x; y"},
	}
	out := render(t, diagram.Mermaid, recs, diagram.Options{IDs: []algo.ID{1, 2}, Title: `Title; #1 "q"`})
	if !strings.Contains(out, `a#59; b #35; c #quot;d#quot; #60;br#62; 100#37; #38; done`) {
		t.Errorf("narration not escaped:\n%s", out)
	}
	if !strings.Contains(out, "title Title#59; #35;1 #quot;q#quot;") {
		t.Errorf("title not escaped:\n%s", out)
	}
	entity := regexp.MustCompile(`#(\d+|quot);`)
	statement := regexp.MustCompile(`^    (title .+|participant n\d+ as \d+|n\d+(->>|-x|--\))n\d+: .+|Note over n\d+(,n\d+)?: .+)$`)
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if i == 0 {
			if line != "sequenceDiagram" {
				t.Fatalf("first line %q", line)
			}
			continue
		}
		if !statement.MatchString(line) {
			t.Errorf("line %d is no statement: %q", i+1, line)
		}
		_, text, _ := strings.Cut(line, ": ")
		if rest := entity.ReplaceAllString(strings.ReplaceAll(text, "<br/>", ""), ""); strings.ContainsAny(rest, `;#"<>%&`) {
			t.Errorf("line %d holds an unescaped character: %q", i+1, line)
		}
	}
}

// Mermaid shows delivered, lost and unfinished messages with their own arrows, faults and
// narration as notes, partitions as rects.
func TestMermaidShapes(t *testing.T) {
	recs, o := play(t, "bully-partition")
	out := render(t, diagram.Mermaid, recs, o)
	for _, want := range []string{"participant n1 as 1", "n1->>n2: ELECTION", "-xn4: ELECTION ✗ partition",
		"    rect rgba(", "Note over n1,n5: 500ms · partition 1 2 3 | 4 5", "    end\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Count(out, "    rect ") != strings.Count(out, "    end\n") {
		t.Errorf("rects not closed")
	}
}

// The window and the kinds choose what every diagram shows.
func TestFilters(t *testing.T) {
	recs, o := play(t, "bully-recovery")
	from, to := 1190*time.Millisecond, 1230*time.Millisecond

	// Default: no routine kind.
	heartbeat := regexp.MustCompile(`(: |send |receive |>)HEARTBEAT`)
	for _, f := range formats {
		if out := render(t, f.write, recs, o); heartbeat.MatchString(out) {
			t.Errorf("%s shows HEARTBEATs by default", f.ext)
		}
	}
	// All kinds in a window: heartbeats, and only events of the window (arrivals of messages
	// sent in it may come later).
	w := o
	w.From, w.To, w.Kinds = from, to, o.Algorithm.Kinds
	events := parseShiViz(t, render(t, diagram.ShiViz, recs, w))
	checkShiViz(t, "window", events)
	heartbeats := 0
	for _, e := range events {
		if strings.Contains(e.desc, "HEARTBEAT") {
			heartbeats++
		}
		arrival := strings.Contains(e.desc, " receive ") || strings.Contains(e.desc, "lost on arrival:")
		if e.at < 1190 || e.at > 1230 && !(arrival && e.at <= 1240) {
			t.Errorf("event outside the window: %s", e.desc)
		}
	}
	if heartbeats == 0 {
		t.Error("--kinds all shows no HEARTBEAT")
	}
	mm := render(t, diagram.Mermaid, recs, w)
	if strings.Contains(mm, "5->>n1: ELECTION") || !strings.Contains(mm, "n5->>n1: COORDINATOR") || !strings.Contains(mm, "recover → ★ leader") ||
		strings.Contains(mm, "crash →") || !strings.Contains(mm, "at 1190ms: 1 ● follower of 4 · ") {
		t.Errorf("mermaid window:\n%s", mm)
	}
	// One kind only.
	k := o
	k.Kinds = []string{"OK"}
	mm = render(t, diagram.Mermaid, recs, k)
	if !strings.Contains(mm, ": OK") || strings.Contains(mm, ": ELECTION") || strings.Contains(mm, ": COORDINATOR") {
		t.Errorf("kinds OK:\n%s", mm)
	}
	// Nothing at all: still a valid diagram.
	none := o
	none.From, none.To = 1500*time.Millisecond, 1510*time.Millisecond
	for _, f := range formats {
		render(t, f.write, recs, none)
	}
	if events := parseShiViz(t, render(t, diagram.ShiViz, recs, none)); len(events) != 0 {
		t.Errorf("an empty window shows %d events", len(events))
	}
}

// The records a Gatherer keeps draw every diagram as the whole run's records do, whatever the
// window; before its start it keeps only state changes, partitions and heals, and after its
// end only the arrivals of messages it shows — so a short window of a long run keeps little
// more than the window.
func TestGathererChangesNothing(t *testing.T) {
	for _, name := range scenarios.Bundled() {
		recs, o := play(t, name)
		end := recs[len(recs)-1].At
		windows := [][2]time.Duration{{0, 0}, {end / 3, 0}, {end / 4, end * 3 / 4}, {end / 2, end/2 + time.Millisecond}, {0, end / 2}}
		for _, w := range windows {
			o.From, o.To = w[0], w[1]
			g := diagram.NewGatherer(o)
			after := 0
			for i := range recs {
				r := &recs[i]
				if !g.Add(r) {
					continue
				}
				if r.At < o.From && r.Type != sim.RecState && r.Type != sim.RecFault {
					t.Errorf("%s %v: kept a %s record before the window", name, w, r.Type)
				}
				if o.To > 0 && r.At > o.To {
					after++
					if r.Type != sim.RecDeliver && r.Type != sim.RecDrop {
						t.Errorf("%s %v: kept a %s record after the window", name, w, r.Type)
					}
				}
			}
			if w != windows[0] && g.Len() >= len(recs) {
				t.Errorf("%s %v: kept %d of %d records", name, w, g.Len(), len(recs))
			}
			for _, f := range formats {
				if render(t, f.write, recs, o) != render(t, f.write, g.Records(), o) {
					t.Errorf("%s %v: %s differs on the records kept", name, w, f.ext)
				}
			}
		}
	}
}
