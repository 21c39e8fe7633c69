package scenarios

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"pgregory.net/rapid"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

const ms = time.Millisecond

// A file that leaves directives out gets the defaults of docs/scenarios.md, "Describing the run".
func TestParseDefaults(t *testing.T) {
	sc, err := Parse("empty.scn", []byte("# nothing but a comment\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := New("empty")
	if !reflect.DeepEqual(withoutLines(sc), want) {
		t.Errorf("got %#v\nwant %#v", sc, want)
	}
	cfg := sc.Config()
	if cfg.Algorithm.Name != "bully" || len(cfg.IDs) != 5 || cfg.Seed != 1 || cfg.RunFor != 5*time.Second ||
		cfg.Network != network.DefaultConfig() {
		t.Errorf("config %+v", cfg)
	}
}

// Every directive, and what it becomes.
func TestParseDirectives(t *testing.T) {
	src := `title   "Ring: #1, with \"quotes\""
algo    ring
ids     3, 7 1 9 4
seed    42
delay   10ms
drop    2.5%
fifo    off
set     answer-timeout 80ms
set     timeout 1s
run     1500ms

at 0ms   crash 9
at 100ms partition 1 3 | 7 4   # the rest: 9
at 200ms say Ring order matters, "really"
`
	_, err := Parse("x.scn", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "x.scn:14:") {
		t.Fatalf("a quote inside bare narration: %v", err)
	}
	src = strings.Replace(src, `say Ring order matters, "really"`, `say "Ring order matters, really"`, 1)
	sc, err := Parse("x.scn", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Title != `Ring: #1, with "quotes"` || sc.Algorithm != "ring" || sc.Contig || sc.Seed != 42 ||
		sc.Delay != (network.Delay{Min: 10 * ms, Max: 10 * ms}) || sc.Drop != 2.5 || sc.FIFO || sc.RunFor != 1500*ms {
		t.Errorf("header: %#v", sc)
	}
	if !reflect.DeepEqual(sc.IDs, []algo.ID{3, 7, 1, 9, 4}) {
		t.Errorf("ids %v", sc.IDs)
	}
	if len(sc.Params) != 2 || sc.Params[0].Key != "answer-timeout" || sc.Params[1].Value.Min != time.Second {
		t.Errorf("params %+v", sc.Params)
	}
	if len(sc.Actions) != 3 || sc.Actions[1].Line != 13 || sc.Actions[1].Op != sim.Partition ||
		!reflect.DeepEqual(sc.Actions[1].Groups, [][]algo.ID{{1, 3}, {7, 4}}) {
		t.Errorf("actions %+v", sc.Actions)
	}
	cfg := sc.Config()
	if cfg.Params["answer-timeout"].Min != 80*ms || cfg.Network.Drop != 0.025 || cfg.Network.FIFO {
		t.Errorf("config %+v", cfg)
	}
}

// Every mistake is reported — not just the first — at its line and column, saying what was
// expected; nothing is returned from a file with mistakes.
func TestParseErrors(t *testing.T) {
	src := `title Mistakes
algo    bully
nodes   5
nodes   6
seed    forty-two
delay   5ms...15ms
set     quorum 3
set     timeout soon
run     2s
at 1s   crash 7
at 3s   crash 1
at 1s   partition 1 2 | 2 3
at 1s   crush 4
expect leader 9
expect messages VOTE 3
expect one-leader-per-term
expect happiness
frobnicate
delay 1->2 30ms
run 1s
at -1ms crash 1
expect leader 2 by 9s
set timeout=200ms
set heartbeat 40ms
set heartbeat 50ms
`
	sc, err := Parse("bad.scn", []byte(src))
	if sc != nil {
		t.Error("a scenario with mistakes was returned")
	}
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %T %v, want an ErrorList", err, err)
	}
	want := []string{
		"bad.scn:4:1: the nodes are given already, at line 3: give them once, with nodes or ids",
		`bad.scn:5:9: a seed is a whole number, 0 or more (at most 18446744073709551615), got "forty-two"`,
		`bad.scn:6:9: expected a range with two dots, such as 5ms..15ms, got "5ms...15ms"`,
		`bad.scn:7:9: bully has no parameter "quorum" (its parameters are heartbeat, timeout, answer-timeout, coordinator-timeout)`,
		`bad.scn:8:17: timeout: expected a duration such as 250us, 40ms, 1.5s or 2m, got "soon"`,
		"bad.scn:10:15: unknown node 7 (nodes are 1..5)",
		"bad.scn:11:4: at 3s is after the end of the run (2s, set at line 9); lengthen the run or move the action",
		"bad.scn:12:25: node 2 is named twice",
		`bad.scn:13:9: unknown action "crush" (expected crash, recover, pause, resume, partition, cut, heal, delay, drop, elect, say, break, clock)`,
		"bad.scn:14:15: unknown node 9 (nodes are 1..5)",
		"bad.scn:15:17: bully sends no VOTE (its kinds are ELECTION, OK, COORDINATOR, HEARTBEAT)",
		"bad.scn:16:8: bully has no terms, so one-leader-per-term does not apply to it",
		`bad.scn:17:8: unknown expectation "happiness" (expected leader N [by TIME], no split-brain, split-brain, messages KIND [=|<=|>=] N, at-most-one-leader, agreement, violation PROPERTY)`,
		`bad.scn:18:1: unknown directive "frobnicate" (expected title, algo, nodes, ids, seed, delay, drop, fifo, topology, edges, set, run, at, expect)`,
		"bad.scn:19:7: the delay of one link is an action: write it as at 0ms delay 1->2 ...",
		"bad.scn:20:1: run given twice (first at line 9)",
		`bad.scn:21:4: expected a duration such as 250us, 40ms, 1.5s or 2m, got "-1ms"`,
		"bad.scn:22:20: by 9s is after the end of the run (2s, set at line 9)",
		"bad.scn:23:5: write set timeout 200ms: in a scenario a space separates the parameter from its value (the --set flag is the one that takes key=value)",
		"bad.scn:25:5: heartbeat is set twice (first at line 24)",
	}
	if len(list) != len(want) {
		t.Errorf("%d errors, want %d:\n%v", len(list), len(want), err)
	}
	for i := range min(len(list), len(want)) {
		if list[i].Error() != want[i] {
			t.Errorf("error %d:\n got %s\nwant %s", i, list[i], want[i])
		}
	}
}

// Format writes a canonical file; comments and spacing do not survive, the scenario does — and
// a message kind is written as the algorithm names it.
func TestFormat(t *testing.T) {
	sc, err := Parse("f.scn", []byte("algo ring\nids 2,1,3   # comment\nset timeout 200ms\nrun 1s\nat 500ms crash 3\nat 0ms say hello there\nexpect messages elected >= 3\nexpect violation agreement\nexpect no split-brain\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := `algo    ring
ids     2 1 3
seed    1
delay   5ms..15ms
drop    0%
fifo    on
set     timeout 200ms
run     1s

at 500ms   crash 3
at 0ms     say "hello there"

expect messages ELECTED >= 3
expect violation agreement
expect no split-brain
`
	if got := Format(sc); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// `leader` is kept as written: a scenario that names it is written back naming it, not the
// node it turns out to be — and it is a node only in actions that take one.
func TestFormatKeepsLeader(t *testing.T) {
	sc, err := Parse("f.scn", []byte("nodes 3\nat 1s crash leader\nat 2s pause 1, leader\nat 3s partition leader|2\nat 4s elect leader\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := "at 1s      crash leader\nat 2s      pause 1 leader\nat 3s      partition leader | 2\nat 4s      elect leader\n"
	if got := Format(sc); !strings.HasSuffix(got, "\n\n"+want) {
		t.Errorf("got\n%s\nwant it to end\n%s", got, want)
	}
	for src, msg := range map[string]string{
		"ids 3 leader\n":                  "f.scn:1:7: expected a node id (a positive whole number), got \"leader\"",
		"nodes 3\nexpect leader leader\n": "f.scn:2:15: expected a node id (a positive whole number), got \"leader\"",
		"nodes 3\nat 1s recover leader\n": "f.scn:2:15: recover takes node ids, not leader",
	} {
		if _, err := Parse("f.scn", []byte(src)); err == nil || !strings.HasPrefix(err.Error(), msg) {
			t.Errorf("%q: %v, want %q", src, err, msg)
		}
	}
}

// genScenario draws a valid scenario: any directives, actions and expectations.
func genScenario(t *rapid.T) *Scenario {
	names := algo.Names()
	sc := New("gen")
	sc.Algorithm = rapid.SampledFrom(names).Draw(t, "algo")
	info, _ := algo.Lookup(sc.Algorithm)
	least := 1 // the fewest nodes it takes: a lease needs candidates, a lock service and a resource
	for info.Validate != nil {
		if c, err := algo.NewCluster(contiguous(least), time.Millisecond, nil); err == nil && info.Validate(c) == nil {
			break
		}
		least++
	}
	n := rapid.IntRange(least, 9).Draw(t, "n")
	if rapid.Bool().Draw(t, "contig") {
		sc.IDs, sc.Contig = contiguous(n), true
	} else {
		perm := rapid.Permutation(contiguous(n)).Draw(t, "perm")
		sc.IDs, sc.Contig = perm, false
		for i := range sc.IDs {
			sc.IDs[i] = sc.IDs[i]*3 + 1
		}
	}
	sc.Title = rapid.StringMatching(`[ -~À-ÿ→★]{0,30}`).Draw(t, "title")
	if strings.TrimSpace(sc.Title) == "" {
		sc.Title = ""
	}
	sc.Seed = rapid.Uint64().Draw(t, "seed")
	dur := func(label string) time.Duration {
		return time.Duration(rapid.IntRange(1, 5000).Draw(t, label)) * time.Duration(rapid.SampledFrom([]int64{1e3, 1e6}).Draw(t, label+"unit"))
	}
	lo := dur("lo")
	sc.Delay = network.Delay{Min: lo, Max: lo + time.Duration(rapid.IntRange(0, 3).Draw(t, "span"))*lo}
	sc.Drop = float64(rapid.IntRange(0, 1000).Draw(t, "drop")) / 10
	sc.FIFO = rapid.Bool().Draw(t, "fifo")
	for _, p := range info.Params {
		if rapid.Bool().Draw(t, "set "+p.Key) {
			v := algo.Value{Min: 100*time.Microsecond + dur(p.Key)}
			v.Max = v.Min
			if p.Kind == algo.RangeParam {
				v.Max = v.Min + dur(p.Key+"hi")
			}
			if p.Kind == algo.SwitchParam {
				v = algo.Value{On: rapid.Bool().Draw(t, p.Key+"on")}
			}
			if p.Kind == algo.ChoiceParam {
				v = algo.Value{Choice: rapid.SampledFrom(p.Choices).Draw(t, p.Key+"choice")}
			}
			if p.Kind == algo.CountParam {
				v = algo.Value{Count: rapid.IntRange(1, 1000).Draw(t, p.Key+"count")}
			}
			if p.Kind == algo.PerNodeParam {
				var pairs []string
				for _, id := range sc.IDs {
					if rapid.Bool().Draw(t, p.Key+"node") {
						pairs = append(pairs, fmt.Sprintf("%d:%d", id, rapid.IntRange(0, 20).Draw(t, p.Key+"n")))
					}
				}
				if len(pairs) == 0 {
					continue
				}
				var err error
				if v, err = info.ParseParam(p.Key, strings.Join(pairs, ",")); err != nil {
					t.Fatal(err)
				}
			}
			sc.Params = append(sc.Params, Setting{Key: p.Key, Value: v})
		}
	}
	sc.RunFor = time.Duration(rapid.IntRange(1, 10).Draw(t, "run")) * time.Second
	id := rapid.SampledFrom(sc.IDs)
	for range rapid.IntRange(0, 8).Draw(t, "actions") {
		a := sim.Action{At: time.Duration(rapid.Int64Range(0, int64(sc.RunFor/ms)).Draw(t, "at")) * ms}
		if rapid.IntRange(0, 3).Draw(t, "mid") == 0 {
			a.After = rapid.IntRange(1, 12).Draw(t, "after")
		}
		switch rapid.IntRange(0, 7).Draw(t, "op") {
		case 0:
			a.Op, a.Nodes = sim.Crash, []algo.ID{id.Draw(t, "n")}
		case 1:
			a.Op = sim.Heal
		case 2:
			a.Op, a.Text = sim.Say, rapid.StringMatching(`[ -~é"→]{1,40}`).Draw(t, "say")
		case 3:
			a.Op, a.Drop = sim.SetDrop, float64(rapid.IntRange(0, 100).Draw(t, "pct"))
		case 4:
			a.Op, a.Groups = sim.Partition, [][]algo.ID{{sc.IDs[0]}}
			if len(sc.IDs) == 1 { // every node in one group splits nothing, and is a mistake
				a.Op, a.Groups = sim.Heal, nil
			}
		case 5:
			a.Op = sim.Break
		case 6:
			a.Op, a.Nodes = rapid.SampledFrom([]sim.Op{sim.Crash, sim.Pause, sim.Elect}).Draw(t, "leaderop"), []algo.ID{sim.AgreedLeader}
		case 7:
			a.Op, a.Groups = sim.Partition, [][]algo.ID{{sim.AgreedLeader}}
		}
		sc.Actions = append(sc.Actions, Step{Action: a})
	}
	props := []string{sim.AtMostOneLeader, sim.Agreement}
	if info.Groups { // one coordinator per group: at-most-one-leader is not judged
		props = props[1:]
	}
	for range rapid.IntRange(0, 4).Draw(t, "expects") {
		e := Expectation{By: -1}
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0:
			e.Kind, e.Leader = ExpectLeader, id.Draw(t, "leader")
			if rapid.Bool().Draw(t, "by") {
				e.By = time.Duration(rapid.Int64Range(0, int64(sc.RunFor/ms)).Draw(t, "byms")) * ms
			}
		case 1:
			e.Kind, e.Property = ExpectHolds, rapid.SampledFrom(props).Draw(t, "prop")
		case 2:
			e.Kind, e.Property = ExpectViolated, rapid.SampledFrom(props).Draw(t, "prop")
		case 3:
			e.Kind, e.MsgKind = ExpectMessages, rapid.SampledFrom(info.Kinds).Draw(t, "kind")
			e.Op, e.Count = rapid.SampledFrom([]string{"=", "<=", ">="}).Draw(t, "op"), rapid.Int64Range(0, 1e6).Draw(t, "count")
		}
		sc.Expects = append(sc.Expects, e)
	}
	return sc
}

// Parse(Format(s)) == s for scenarios drawn at random.
func TestRoundTripRandom(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := genScenario(t)
		text := Format(sc)
		back, err := Parse("gen.scn", []byte(text))
		if err != nil {
			t.Fatalf("the formatted text does not parse: %v\n%s", err, text)
		}
		if !reflect.DeepEqual(withoutLines(back), sc) {
			t.Fatalf("round trip changed the scenario:\n%s\n got %#v\nwant %#v", text, back, sc)
		}
	})
}

// An algorithm that cannot run on the nodes given says so at the nodes line.
func TestParseTooFewNodes(t *testing.T) {
	_, err := Parse("l.scn", []byte("algo lease\nnodes 2\nrun 1s\n"))
	if err == nil || err.Error() != "l.scn:2:1: lease needs at least 3 nodes: candidates, a lock service (the second-highest id) and a resource (the highest)" {
		t.Fatalf("got %v", err)
	}
}

// A wrong nodes, ids or run line is the one mistake: the lines that name nodes or times are
// not judged by a directive that did not parse (no "unknown node 7" for `ids 3 7 3`).
func TestNoFollowOnMistakes(t *testing.T) {
	for src, want := range map[string]string{
		"ids 3 7 3\nat 1s crash 7\n":                      "f.scn:1:9: node 3 is named twice",
		"ids 3 7 x\nat 1s crash 7\nexpect leader 7\n":     `f.scn:1:9: expected a node id (a positive whole number), got "x"`,
		"nodes 0\nat 1s crash 9\n":                        `f.scn:1:7: expected a number of nodes from 1 to 200000, got "0"`,
		"run abc\nat 1s crash 1\nexpect leader 5 by 2s\n": `f.scn:1:5: expected a duration such as 250us, 40ms, 1.5s or 2m, got "abc"`,
		"run 1000001h\nat 1s crash 1\n":                   "f.scn:1:5: 1000001h is too long: durations go up to 1000h",
		// A good run line still judges the times.
		"run 1s\nat 2s crash 1\n": "f.scn:2:4: at 2s is after the end of the run (1s, set at line 1); lengthen the run or move the action",
	} {
		_, err := Parse("f.scn", []byte(src))
		if err == nil || err.Error() != want {
			t.Errorf("%q:\n got %v\nwant %s", src, err, want)
		}
	}
}

// What is not a scenario says so once: a file that is not UTF-8 (a binary, say) at its first
// bad byte; a very long word is cut short in the message; a long list of mistakes stops at 30
// and counts the rest. A byte order mark is no mistake.
func TestNotAScenario(t *testing.T) {
	_, err := Parse("b.scn", []byte("title ok\nsay \xff\xfe x\n"))
	if err == nil || err.Error() != "b.scn:2:5: this is not UTF-8 text: a scenario is a text file (electsim scenarios --show NAME prints one)" {
		t.Errorf("not UTF-8: %v", err)
	}
	// Columns count characters, not bytes: é is one.
	_, err = Parse("c.scn", []byte("title é\nsay é\xff\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "c.scn:2:6: this is not UTF-8 text") {
		t.Errorf("not UTF-8 after an é: %v", err)
	}
	_, err = Parse("l.scn", []byte(strings.Repeat("x", 100_000)+"\n"))
	if err == nil || utf8.RuneCountInString(err.Error()) > 250 || !strings.Contains(err.Error(), "x…") {
		t.Errorf("a long word: %d runes: %.80s", utf8.RuneCountInString(err.Error()), err)
	}
	// What was expected is never cut, however long the list.
	_, err = Parse("e.scn", []byte("algo bulli\nexpect frobnicate\n"))
	if err == nil || !strings.Contains(err.Error(), "violation PROPERTY") || strings.Contains(err.Error(), "…") {
		t.Errorf("an unknown expectation after an unknown algorithm: %v", err)
	}
	var many strings.Builder
	for i := range 40 {
		fmt.Fprintf(&many, "frob %d\n", i)
	}
	_, err = Parse("m.scn", []byte(many.String()))
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 31 || list.Count() != 40 ||
		list[30].Error() != "m.scn:31:1: and 10 more mistakes from here on, not shown: mend these first" {
		t.Errorf("40 mistakes: %d shown, %d counted, last %v", len(list), list.Count(), list[len(list)-1])
	}
	if _, err := Parse("bom.scn", []byte("\ufeffalgo ring\nnodes 3\n")); err != nil {
		t.Errorf("byte order mark: %v", err)
	}
}

// A topology line is read, written back only when given, and checked against the algorithm:
// a wrong one, or an algorithm that does not run on it, is a mistake at its line.
func TestParseTopology(t *testing.T) {
	sc, err := Parse("t.scn", []byte("algo ring\nnodes 3\ntopology ring\n"))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Topology != "ring" || sc.Config().Topology != "ring" {
		t.Errorf("topology %q, config's %q", sc.Topology, sc.Config().Topology)
	}
	if !strings.Contains(Format(sc), "\ntopology ring\n") {
		t.Errorf("Format leaves the topology out:\n%s", Format(sc))
	}
	back, err := Parse("t.scn", []byte(Format(sc)))
	if err != nil || back.Topology != "ring" {
		t.Errorf("round trip: %v, %q", err, back.Topology)
	}
	plain, _ := Parse("t.scn", []byte("algo ring\nnodes 3\n"))
	if plain.Topology != "" || strings.Contains(Format(plain), "topology") || plain.Config().Topology != "" {
		t.Errorf("no topology line: %q, config's %q, formatted:\n%s", plain.Topology, plain.Config().Topology, Format(plain))
	}
	for src, want := range map[string]string{
		"algo ring\nnodes 3\ntopology torus\n":    `t.scn:3:10: unknown topology "torus" (choose one of complete, ring, bi-ring, line, star, grid:RxC, tree:K, random:D, file:PATH, edges A-B …)`,
		"algo bully\nnodes 3\ntopology ring\n":    "t.scn:3:1: bully does not run on the ring topology: it runs on complete",
		"algo ring\ntopology ring\ntopology ring": "t.scn:3:1: topology given twice (first at line 2)",
	} {
		_, err := Parse("t.scn", []byte(src))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want %s", src, err, want)
		}
	}
}
