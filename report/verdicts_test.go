package report

import (
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/scenarios"
	"electsim/sim"
)

// judged plays a bundled scenario to its end and returns the verdicts on it.
func judged(t *testing.T, name string) Verdicts {
	t.Helper()
	sc, err := scenarios.LoadBundled(name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sum, results := scenarios.Play(s, sc.Expects, nil)
	return Judge(sum, results)
}

// The short lines are the terminal UI's box at the end of a run, word for word (its golden file
// the_end.golden shows them wrapped).
func TestVerdictLinesAreTheEndBox(t *testing.T) {
	v := judged(t, "bully-leader-crash")
	want := []string{
		"★ 4 leads, and every live node names it",
		"properties: ✓ at-most-one-leader  – one-leader-per-term (no terms)  ✓ agreement",
		"expectations: 4 of 4 hold",
		"  ✓ expect leader 5 by 900ms",
		"  ✓ expect leader 4 by 1500ms",
		"  ✓ expect no split-brain",
		"  ✓ expect agreement",
	}
	if got := v.Lines(Plain{}); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v.Failed() || v.Held() != 4 {
		t.Errorf("held %d, failed %v; want 4 of 4", v.Held(), v.Failed())
	}
}

// marking is a Palette that shows where each style applies.
type marking struct{ Plain }

func (marking) Dim(s string) string                   { return "<dim>" + s + "</dim>" }
func (marking) Red(s string) string                   { return "<red>" + s + "</red>" }
func (marking) Green(s string) string                 { return "<green>" + s + "</green>" }
func (marking) Status(st sim.Status, s string) string { return "<" + st.String() + ">" + s + "</>" }

// What breaks, fails or stops is red, what holds green, what does not apply dim; a file's text
// is escaped.
func TestVerdictLinesStyles(t *testing.T) {
	v := Verdicts{
		Leader: 3,
		Halted: "more than 10 events",
		Properties: []sim.Property{{Name: "at-most-one-leader", Applies: true, Holds: false},
			{Name: "one-leader-per-term"}, {Name: "agreement", Applies: true, Holds: true}},
		Violations: []sim.Violation{{Property: "at-most-one-leader", From: 1e9, To: 1e9, Nodes: []algo.ID{2, 3}}},
		Expectations: []scenarios.Result{
			{Expectation: scenarios.Expectation{Kind: scenarios.ExpectHolds, Property: sim.Agreement}, OK: true},
			{Expectation: scenarios.Expectation{Kind: scenarios.ExpectLeader, Leader: 5, By: -1}, Detail: "nodes 1 2 name 3\x1b[2J"},
		},
	}
	want := []string{
		"<leader>★ 3 leads</>, and every live node names it",
		"properties: <red>✗ at-most-one-leader</red>  <dim>– one-leader-per-term (no terms)</dim>  <green>✓ agreement</green>",
		"<red>  ✗ " + v.Violations[0].String() + "</red>",
		"<red>the run stopped early: more than 10 events</red>",
		"expectations: 1 of 2 hold",
		"<green>  ✓ </green>expect agreement",
		"<red>  ✗ expect leader 5 — nodes 1 2 name 3\\x1b[2J</red>",
	}
	if got := v.Lines(marking{}); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !v.Failed() {
		t.Error("an expectation failed, and Failed says none did")
	}
}

// A run cut off in mid-election — a 400-node ring in 5s — is judged unfinished, with its
// messages in flight counted, and the end box says so under the leader line and how to give
// it time; the same run given an hour elects and is not.
func TestVerdictsSayTheElectionWasUnfinished(t *testing.T) {
	info, err := algo.Lookup("ring")
	if err != nil {
		t.Fatal(err)
	}
	judge := func(runFor string) Verdicts {
		cfg := sim.DefaultConfig(info, 400)
		cfg.Topology = algo.UniRing
		if runFor != "" {
			d, _ := time.ParseDuration(runFor)
			cfg.RunFor = d
		}
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		sum, _ := scenarios.Play(s, nil, nil)
		return Judge(sum, nil)
	}
	v := judge("")
	if v.Leader != 0 || v.Unfinished <= 0 {
		t.Fatalf("leader %d, unfinished %d; want none agreed and messages in flight", v.Leader, v.Unfinished)
	}
	lines := v.Lines(Plain{})
	want := "unfinished: the run ended with " + human.Plural(int(v.Unfinished), "message") + " of the election still in flight; give it more virtual time (--run 1m, or `run 1m` in a scenario)"
	if len(lines) < 2 || lines[1] != want {
		t.Errorf("lines:\n%s\nwant the second to be %q", strings.Join(lines, "\n"), want)
	}
	if v := judge("1h"); v.Leader == 0 || v.Unfinished != 0 || strings.Contains(strings.Join(v.Lines(Plain{}), "\n"), "unfinished") {
		t.Errorf("with an hour: leader %d, unfinished %d", v.Leader, v.Unfinished)
	}
}
