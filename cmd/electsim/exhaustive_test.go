package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"electsim/internal/goldenfile"
	"electsim/report"
)

// Bad input to check --exhaustive: one line naming the flag and what it takes, exit 2.
func TestExhaustiveBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"check", "--exhaustive", "--faults", "drift"}, "electsim check: drift is not explored exhaustively: choose among crash, recover, partition, delay, pause, loss (the random checker draws clock rates)"},
		{[]string{"check", "--exhaustive", "--faults", "crash", "--nodes", "6"}, "electsim check: 6 nodes: exhaustive exploration takes at most 5 (the schedules of more are too many to try)"},
		{[]string{"check", "--exhaustive", "--faults", "crash", "--budget", "-1"}, "electsim check: --budget -1: expected a whole number from 0 to 100, e.g. --budget 2"},
		{[]string{"check", "--exhaustive", "--faults", "crash", "--depth", "0"}, "electsim check: --depth 0: expected a whole number from 1 to 10,000, e.g. --depth 60"},
		{[]string{"check", "--exhaustive", "--faults", "crash", "--max-states", "lots"}, "electsim check: --max-states lots: expected a whole number from 1 to 2,147,483,648, e.g. --max-states 1000000"},
		{[]string{"check", "--exhaustive", "--faults", "crash", "--delays", "5ms,soon"}, `electsim check: --delays 5ms,soon: expected a duration such as 250us, 40ms, 1.5s or 2m, got "soon"; give durations separated by commas, e.g. --delays 5ms,15ms`},
		{[]string{"check", "--exhaustive", "--faults", "crash", "--delays", "5ms,5ms"}, "electsim check: the delay 5ms is given twice"},
		{[]string{"check", "--exhaustive", "--faults", "crash", "--property", "agreement"}, "electsim check: agreement is judged at the end of a run, and an exploration has no end: choose a property a run breaks at an instant (at-most-one-leader)"},
		{[]string{"check", "--exhaustive", "--faults", "crash", "--runs", "10"}, "electsim check: --runs: --exhaustive tries every schedule up to --depth steps, on the inline engine: leave out --runs"},
		{[]string{"check", "--exhaustive"}, "electsim check: --faults: say which faults a schedule may take, e.g. --faults crash,partition (classes: crash, recover, partition, delay, pause, loss; or none)"},
		{[]string{"check", "--exhaustive", "--faults", "crash", "--draws", "some"}, `electsim check: --draws some: unknown draws "some" (choose ends, ends,middle or seed)`},
		{[]string{"check", "--exhaustive", "--faults", "crash", "--max-term", "-2"}, "electsim check: --max-term -2: expected a whole number from 0 to 2,147,483,648, e.g. --max-term 4"},
		{[]string{"check", "--faults", "crash", "--depth", "10"}, "electsim check: --depth bounds an exhaustive exploration: add --exhaustive, or leave out --depth"},
	}
	for _, tt := range tests {
		code, out, errOut := call(tt.args...)
		if code != 2 || out != "" || errOut != tt.want+"\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr\n got %q\nwant %q", tt.args, code, out, errOut, tt.want+"\n")
		}
	}
}

// The shortest split brain of Bully on 3 nodes: the summary, the schedule, the command that
// finds it again; exit 1; the same twice, wall clock aside, and on one worker as on two.
func TestExhaustiveViolationGolden(t *testing.T) {
	args := []string{"check", "--exhaustive", "--algo", "bully", "--nodes", "3", "--faults", "partition", "--budget", "1"}
	code, out, errOut := call(args...)
	if code != 1 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !regexp.MustCompile(`(?m)^wall clock: .*, [\d,]+ states a second\n\z`).MatchString(out) {
		t.Errorf("no wall-clock line at the end:\n%s", out)
	}
	goldenfile.Check(t, "check-exhaustive-bully-partition.golden", withoutWallClock(out))
	_, again, _ := call(append(args, "--workers", "1")...)
	if withoutWallClock(again) != withoutWallClock(out) {
		t.Error("one worker printed something else than two")
	}
}

// An exploration that holds exits 0 and says which bounds its verdict covers.
func TestExhaustiveHoldsGolden(t *testing.T) {
	code, out, errOut := call("check", "--exhaustive", "--algo", "bully", "--nodes", "3", "--faults", "crash", "--budget", "1", "--depth", "60")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	goldenfile.Check(t, "check-exhaustive-bully-crash.golden", withoutWallClock(out))
}

// Raft, 3 nodes, crash and recover with a budget of 2: one-leader-per-term exhausts the space
// within terms ≤ 4 (the default bound), each draw of a timeout at an end of its range, every
// message 10ms; the summary says so and counts the states.
func TestExhaustiveRaftExhausts(t *testing.T) {
	if raceOn {
		t.Skip("a quarter of a million states: too slow under the race detector")
	}
	code, out, errOut := call("check", "--exhaustive", "--algo", "raft", "--nodes", "3", "--faults", "crash,recover", "--budget", "2",
		"--property", "one-leader-per-term", "--delays", "10ms", "--depth", "300")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	goldenfile.Check(t, "check-exhaustive-raft-exhausts.golden", withoutWallClock(out))
}

// --out writes the shortest counterexample as a scenario, and electsim run replays it to the
// same violation, its expectation met; the JSON has the exploration's fields.
func TestExhaustiveOutReplays(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"bully-partition", []string{"--algo", "bully", "--faults", "partition"}},
		{"raft-partition", []string{"--algo", "raft", "--faults", "partition", "--delays", "10ms"}},
		{"bully-delay", []string{"--algo", "bully", "--faults", "delay"}},
		{"bully-pause", []string{"--algo", "bully", "--faults", "pause"}},
	} {
		file := filepath.Join(dir, tt.name+".scn")
		code, out, errOut := call(append([]string{"check", "--exhaustive", "--nodes", "3", "--json", "--out", file}, tt.args...)...)
		if code != 1 || errOut != "" {
			t.Fatalf("%s: exit %d, stderr %q\n%s", tt.name, code, errOut, out)
		}
		var res report.ExhaustiveJSON
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: %v\n%s", tt.name, err, out)
		}
		if !res.Exhaustive || res.Exhausted || res.Violation == nil || res.Out == nil || *res.Out != file ||
			res.States.Distinct < 2 || res.States.Generated < res.States.Distinct || res.Depth != res.Violation.Steps ||
			res.Reproduce == nil || !strings.HasPrefix(*res.Reproduce, "electsim check --exhaustive --algo ") {
			t.Fatalf("%s: %s", tt.name, out)
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if m := regexp.MustCompile(`(?m)^at (\S+(?: after \d+ inputs?)?) +say ".*"\nat (\S+(?: after \d+ inputs?)?) +break$`).FindStringSubmatch(string(src)); m == nil || m[1] != m[2] {
			t.Errorf("%s: no break right after the narration, at its time, in\n%s", tt.name, src)
		}
		code, out, errOut = call("run", file, "--json")
		// A delay fault breaks the algorithm's timing assumptions: run warns of them.
		errOut = regexp.MustCompile(`(?m)^electsim: warning: .*\n`).ReplaceAllString(errOut, "")
		if code != 0 || errOut != "" {
			t.Fatalf("%s: electsim run: exit %d, stderr %q\n%s", tt.name, code, errOut, src)
		}
		var run struct {
			Violations   []report.ViolationJSON   `json:"violations"`
			Expectations []report.ExpectationJSON `json:"expectations"`
		}
		if err := json.Unmarshal([]byte(out), &run); err != nil {
			t.Fatal(err)
		}
		want := res.Violation.Violation
		if !slices.ContainsFunc(run.Violations, func(v report.ViolationJSON) bool {
			return v.Property == want.Property && v.FromMS == want.FromMS && slices.Equal(v.Nodes, want.Nodes)
		}) {
			t.Errorf("%s: electsim run shows %+v, not %+v", tt.name, run.Violations, want)
		}
		if len(run.Expectations) != 1 || !run.Expectations[0].OK {
			t.Errorf("%s: expectations %+v", tt.name, run.Expectations)
		}
		// The engines agree: the goroutine engine's replay is the inline one's.
		engine := regexp.MustCompile(`(goroutine|inline) engine`)
		_, inline, _ := call("run", file, "--engine", "inline")
		_, goroutine, _ := call("run", file, "--engine", "goroutine")
		if engine.ReplaceAllString(inline, "") != engine.ReplaceAllString(goroutine, "") {
			t.Errorf("%s: the engines replay it differently", tt.name)
		}
	}
}
