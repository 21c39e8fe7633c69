package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"electsim/algo"
	"electsim/internal/goldenfile"
	"electsim/report"
)

// withoutWallClock drops the one line of check's output that depends on the machine.
func withoutWallClock(out string) string {
	return regexp.MustCompile(`(?m)^wall clock: .*\n`).ReplaceAllString(out, "")
}

// Bad input to check: one line naming the flag and what it takes, exit 2, nothing on stdout.
func TestCheckBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"check", "--faults", "crash,explode"}, `electsim check: --faults crash,explode: unknown fault class "explode" (choose from crash, recover, partition, delay, pause, loss, drift, or none)`},
		{[]string{"check", "--faults", ""}, "electsim check: --faults : expected fault classes separated by commas, such as crash,partition (or none)"},
		{[]string{"check"}, "electsim check: --faults: say which faults to inject, e.g. --faults crash,partition (classes: crash, recover, partition, delay, pause, loss, drift; or none)"},
		{[]string{"check", "--faults", "crash", "--property", "liveness"}, `electsim check: --property liveness: unknown property "liveness" (choose one of at-most-one-leader, agreement, eventual-leader)`},
		{[]string{"check", "--faults", "crash", "--property", "no-stale-write"}, `electsim check: --property no-stale-write: bully has no property "no-stale-write" (its properties are at-most-one-leader, agreement, eventual-leader)`},
		{[]string{"check", "--faults", "crash", "--runs", "0"}, "electsim check: --runs 0: expected a number of runs from 1 to 100000000, e.g. --runs 1000"},
		{[]string{"check", "--faults", "crash", "--runs", "many"}, "electsim check: --runs many: expected a number of runs from 1 to 100000000, e.g. --runs 1000"},
		{[]string{"check", "--matrix", "--runs", "-3"}, "electsim check: --runs -3: expected a number of runs from 1 to 100000000, e.g. --runs 1000"},
		{[]string{"check", "--faults", "none", "--run", "1s"}, "electsim check: --run 1s: a run of 1s leaves no time for faults: bully needs 1.3s to settle after them; expected a run of at least 1.4s"},
		{[]string{"check", "--faults", "crash", "--at", "9s crash 5"}, "electsim check: --at '9s crash 5': 9s is after the end of a run (3.3s); lengthen the runs with --run"},
		{[]string{"check", "--faults", "crash", "--at", "1s crash 9"}, "electsim check: --at '1s crash 9': column 10: unknown node 9 (nodes are 1..5)"},
		{[]string{"check", "--algo", "viewstamped", "--faults", "crash"}, `electsim check: --algo viewstamped: unknown algorithm "viewstamped" (choose one of ` + strings.Join(algo.Names(), ", ") + `)`},
		{[]string{"check", "x.scn", "--faults", "none"}, `electsim check: check takes no scenario: it draws its own schedules (got ["x.scn"]); electsim run plays a scenario`},
		{[]string{"check", "--faults", "crash", "--out", "/nonexistent-dir/x.scn"}, "electsim check: --out /nonexistent-dir/x.scn: cannot write there: no such file or directory"},
		{[]string{"check", "--faults", "crash", "--out", "-"}, "electsim check: --out -: the report goes to stdout; write the counterexample to a file, e.g. --out counterexample.scn"},
		{[]string{"check", "--matrix", "--faults", "crash"}, "electsim check: --matrix checks every algorithm (or the one --algo names) under every fault class, each with its property: leave out --faults (or leave out --matrix to check one)"},
		{[]string{"check", "--matrix", "--out", "m.scn"}, "electsim check: --matrix checks every algorithm (or the one --algo names) under every fault class, each with its property: leave out --out (or leave out --matrix to check one)"},
		{[]string{"check", "--matrix", "--nodes", "2"}, "electsim check: --nodes 2: the matrix has rows for lease, which needs at least 3 nodes (4 for two candidates); expected --nodes 4 or more"},
		{[]string{"check", "--faults", "crash", "--json=maybe"}, `electsim check: invalid argument "maybe" for "--json" flag: expected true or false, or just --json (see -h)`},
	}
	for _, tt := range tests {
		code, out, errOut := call(tt.args...)
		if code != 2 || out != "" || errOut != tt.want+"\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr\n got %q\nwant %q", tt.args, code, out, errOut, tt.want+"\n")
		}
	}
}

// A check that finds a violation: the verdict, the schedule as drawn and shrunk, the narration
// and the command that reproduces it; exit 1. The same flags give the same output, wall clock
// aside.
func TestCheckViolationGolden(t *testing.T) {
	args := []string{"check", "--algo", "bully", "--faults", "partition", "--runs", "200"}
	code, out, errOut := call(args...)
	if code != 1 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !regexp.MustCompile(`(?m)^wall clock: 200 runs in .*, \d+ runs/s · shrinking .*\n\z`).MatchString(out) {
		t.Errorf("no wall-clock line at the end:\n%s", out)
	}
	goldenfile.Check(t, "check-bully-partition.golden", withoutWallClock(out))
	_, again, _ := call(args...)
	if withoutWallClock(again) != withoutWallClock(out) {
		t.Error("the same check printed something else the second time")
	}
}

// A check that holds exits 0 and says so.
func TestCheckHoldsGolden(t *testing.T) {
	code, out, errOut := call("check", "--algo", "raft", "--faults", "crash,recover,partition,delay,pause,loss",
		"--property", "one-leader-per-term", "--runs", "100", "--seed", "7")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	goldenfile.Check(t, "check-raft-holds.golden", withoutWallClock(out))
}

// The matrix, small: every cell agrees with the theory, so exit 0.
func TestCheckMatrixGolden(t *testing.T) {
	code, out, errOut := call("check", "--matrix", "--runs", "20", "--nodes", "4")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	goldenfile.Check(t, "check-matrix.golden", withoutWallClock(out))
}

type checkResult struct {
	Violations int `json:"violations"`
	Shrunk     *struct {
		Size struct {
			Actions int `json:"actions"`
		} `json:"size"`
		Violation report.ViolationJSON `json:"violation"`
		Say       string               `json:"say"`
	} `json:"shrunk"`
	Reproduce *string `json:"reproduce"`
	Out       *string `json:"out"`
	Wall      struct {
		RunsPerSec float64 `json:"runs_per_sec"`
	} `json:"wall"`
}

// A counterexample written with --out is a scenario that electsim run replays to the same
// violation, its expectation met — for each kind of expectation the checker writes.
func TestCheckOutReplays(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name   string
		args   []string
		expect string
	}{
		{"bully-partition", []string{"--algo", "bully", "--faults", "partition"}, "expect split-brain"},
		{"stale-write", []string{"--algo", "lease", "--set", "fencing=off", "--faults", "pause", "--property", "no-stale-write"}, "expect violation no-stale-write"},
		{"raft-term", []string{"--algo", "raft", "--faults", "pause", "--property", "at-most-one-leader", "--nodes", "3"}, "expect split-brain"},
		{"raft-agreement", []string{"--algo", "raft", "--faults", "crash", "--property", "agreement"}, "expect violation agreement"},
	} {
		file := filepath.Join(dir, tt.name+".scn")
		code, out, errOut := call(append([]string{"check", "--runs", "100", "--json", "--out", file}, tt.args...)...)
		if code != 1 || errOut != "" {
			t.Fatalf("%s: exit %d, stderr %q", tt.name, code, errOut)
		}
		var res checkResult
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: %v\n%s", tt.name, err, out)
		}
		if res.Shrunk == nil || res.Out == nil || *res.Out != file || res.Wall.RunsPerSec <= 0 {
			t.Fatalf("%s: %s", tt.name, out)
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), "\n"+tt.expect+"\n") || !strings.Contains(string(src), `say "`) {
			t.Errorf("%s: no %q or no narration in\n%s", tt.name, tt.expect, src)
		}
		// Playback stops at the violation: a break right after the narration, at its time.
		if m := regexp.MustCompile(`(?m)^at (\S+) +say ".*"\nat (\S+) +break$`).FindStringSubmatch(string(src)); m == nil || m[1] != m[2] {
			t.Errorf("%s: no break right after the narration, at its time, in\n%s", tt.name, src)
		}

		code, out, errOut = call("run", file, "--json")
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
		want := res.Shrunk.Violation
		if want.Property == "eventual-leader" {
			want.Property = "agreement"
		}
		if !slices.ContainsFunc(run.Violations, func(v report.ViolationJSON) bool {
			return v.Property == want.Property && v.FromMS == want.FromMS && v.ToMS == want.ToMS && slices.Equal(v.Nodes, want.Nodes)
		}) {
			t.Errorf("%s: electsim run shows %+v, not %+v", tt.name, run.Violations, want)
		}
		if len(run.Expectations) != 1 || !run.Expectations[0].OK || run.Expectations[0].Text != tt.expect {
			t.Errorf("%s: expectations %+v", tt.name, run.Expectations)
		}
	}
}

// With nothing to write, --out writes nothing, says so, and the check exits 0.
func TestCheckOutNothingToWrite(t *testing.T) {
	file := filepath.Join(t.TempDir(), "none.scn")
	code, _, errOut := call("check", "--algo", "raft", "--faults", "partition", "--property", "one-leader-per-term", "--runs", "5", "--out", file)
	if code != 0 || !strings.Contains(errOut, "was not written") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if entries, _ := os.ReadDir(filepath.Dir(file)); len(entries) != 0 {
		t.Errorf("left %v behind", entries)
	}
}

// The reproduction command the check prints finds the same failure, as run 0.
func TestCheckReproduceCommand(t *testing.T) {
	_, out, _ := call("check", "--algo", "ring", "--nodes", "4", "--faults", "pause,loss", "--delay", "10ms", "--runs", "50", "--json")
	var res checkResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Reproduce == nil {
		t.Fatalf("%v\n%s", err, out)
	}
	args := shellWords(*res.Reproduce)
	if args[0] != "electsim" || !slices.Contains(args, "--delay") || !slices.Contains(args, "--nodes") {
		t.Fatalf("reproduce: %q", *res.Reproduce)
	}
	code, again, _ := call(append(args[1:], "--json")...)
	var res2 checkResult
	if err := json.Unmarshal([]byte(again), &res2); err != nil || code != 1 {
		t.Fatalf("exit %d: %v\n%s", code, err, again)
	}
	if res2.Violations != 1 || res2.Shrunk.Violation.FromMS != res.Shrunk.Violation.FromMS || res2.Shrunk.Say != res.Shrunk.Say {
		t.Errorf("%s found\n%s\nnot\n%s", *res.Reproduce, again, out)
	}
}

// --drift bounds the drift class: named in the heading and the command that reproduces a
// failure; refused without the class, or out of range.
func TestCheckDrift(t *testing.T) {
	code, out, _ := call("check", "--algo", "lease", "--faults", "drift,partition", "--drift", "0.5", "--set", "margin=100ms", "--no-color")
	if code != 1 || !strings.Contains(out, "clock rates 0.5..1.5") ||
		!strings.Contains(out, "electsim check --algo lease --faults partition,drift --drift 0.5 --set margin=100ms --seed ") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	for args, want := range map[string]string{
		"--faults crash --drift 0.2":  "electsim check: --drift bounds the drift class's clock rates: add drift to --faults, e.g. --faults drift\n",
		"--faults drift --drift 1":    "electsim check: --drift 1: expected a bound on clock rates' distance from 1, more than 0 and less than 0.99, e.g. --drift 0.2\n",
		"--faults drift --drift fast": "electsim check: --drift fast: expected a bound on clock rates' distance from 1, more than 0 and less than 0.99, e.g. --drift 0.2\n",
	} {
		if code, _, errOut := call(append([]string{"check", "--algo", "lease"}, strings.Fields(args)...)...); code != 2 || errOut != want {
			t.Errorf("%s: exit %d, stderr %q, want %q", args, code, errOut, want)
		}
	}
}

// The command that reproduces a counterexample keeps the topology the check ran on.
func TestReproduceKeepsTopology(t *testing.T) {
	code, out, _ := call("check", "--algo", "ring", "--topology", "ring", "--faults", "crash", "--property", "eventual-leader", "--runs", "30")
	if code != 1 || !strings.Contains(out, "electsim check --algo ring --topology ring --faults crash --property eventual-leader --seed ") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
