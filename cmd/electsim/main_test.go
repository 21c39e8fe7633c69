package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"electsim/algo"
	"electsim/algo/algotest/example"
	"electsim/internal/goldenfile"
	"electsim/internal/interrupt"
	"electsim/scenarios"
)

// call runs the command line in-process with no environment and returns its exit code, stdout
// and stderr.
func call(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := electsim(args, &out, &errOut, func(string) string { return "" })
	return code, out.String(), errOut.String()
}

// TestMain lets the test binary stand in for electsim when bench runs a measurement in a
// child process (it runs its own program: here, this binary).
func TestMain(m *testing.M) {
	if os.Getenv(throwawayEnv) != "" {
		algo.Register(example.Info()) // the documented path: a child of TestThrowawayAlgorithm
	}
	if os.Getenv(benchChildEnv) != "" || os.Getenv(asElectsim) != "" {
		os.Exit(electsim(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
	}
	os.Exit(m.Run())
}

// asElectsim makes the test binary electsim itself (see electsimCommand).
const asElectsim = "ELECTSIM_TEST_AS_ELECTSIM"

// electsimCommand returns electsim with args as a process of its own — the test binary,
// standing in for it — for what only a process shows: its own standard streams, signals.
func electsimCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), asElectsim+"=1")
	return cmd
}

// Bad input never crashes: one clear line on stderr naming the flag and what was expected,
// nothing on stdout, exit 2.
func TestBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string // the whole line on stderr
	}{
		{[]string{"run", "--algo", "viewstamped"}, `electsim run: --algo viewstamped: unknown algorithm "viewstamped" (choose one of ` + strings.Join(algo.Names(), ", ") + `)`},
		{[]string{"run", "--topology", "torus"}, `electsim run: --topology torus: unknown topology "torus" (choose one of complete, ring, bi-ring, line, star, grid:RxC, tree:K, random:D, file:PATH)`},
		{[]string{"run", "--topology", "ring"}, "electsim run: --topology ring: bully does not run on the ring topology: it runs on complete"},
		{[]string{"run", "--algo", "ring", "--topology", "bi-ring"}, "electsim run: --topology bi-ring: ring does not run on the bi-ring topology: it runs on complete or ring"},
		{[]string{"run", "--nodes", "0"}, "electsim run: --nodes 0: expected a number of nodes from 1 to 200000, e.g. --nodes 5"},
		{[]string{"run", "--nodes", "five"}, "electsim run: --nodes five: expected a number of nodes from 1 to 200000, e.g. --nodes 5"},
		{[]string{"run", "--ids", "3,7,3"}, "electsim run: --ids 3,7,3: node 3 appears twice; ids must be distinct"},
		{[]string{"run", "--ids", "3,-1"}, `electsim run: --ids 3,-1: expected positive whole numbers, got "-1"`},
		{[]string{"run", "--ids", "3,,7"}, "electsim run: --ids 3,,7: expected a node id between two commas, e.g. --ids 3,7,1,9,4"},
		{[]string{"run", "--ids", ",3,7"}, "electsim run: --ids ,3,7: expected a node id before the first comma, e.g. --ids 3,7,1,9,4"},
		{[]string{"run", "--ids", "3,7,"}, "electsim run: --ids 3,7,: expected a node id after the last comma, e.g. --ids 3,7,1,9,4"},
		{[]string{"run", "--nodes", "3", "--ids", "1,2,3"}, "electsim run: --nodes and --ids both given: --ids alone names the nodes and their ring order"},
		{[]string{"run", "--set", "quorum=3"}, `electsim run: --set quorum=3: bully has no parameter "quorum" (its parameters are heartbeat, timeout, answer-timeout, coordinator-timeout)`},
		{[]string{"run", "--set", "timeout"}, "electsim run: --set timeout: expected key=value, e.g. --set timeout=200ms"},
		{[]string{"run", "--set", "heartbeat=0"}, "electsim run: --set heartbeat=0: heartbeat: 0 is too short: expected at least 100us, such as 50ms"},
		{[]string{"run", "--set", "timeout=soon"}, `electsim run: --set timeout=soon: timeout: expected a duration such as 250us, 40ms, 1.5s or 2m, got "soon"`},
		{[]string{"run", "--delay", "fast"}, `electsim run: --delay fast: expected a duration such as 250us, 40ms, 1.5s or 2m, got "fast"`},
		{[]string{"run", "--delay", "20ms..5ms"}, `electsim run: --delay 20ms..5ms: range "20ms..5ms" runs backwards: write the smaller duration first`},
		{[]string{"run", "--run", "-2s"}, `electsim run: --run -2s: expected a duration such as 250us, 40ms, 1.5s or 2m, got "-2s"`},
		{[]string{"run", "--run", "10000h"}, "electsim run: --run 10000h: 10000h is too long: durations go up to 1000h"},
		{[]string{"run", "--run", ".5s"}, `electsim run: --run .5s: expected a duration such as 250us, 40ms, 1.5s or 2m, got ".5s": write 0.5s`},
		{[]string{"run", "--run", "5"}, `electsim run: --run 5: expected a duration with a unit, such as 5ms or 5s, got "5"`},
		{[]string{"run", "--no-color=yes"}, `electsim run: invalid argument "yes" for "--no-color" flag: expected true or false, or just --no-color (see -h)`},
		{[]string{"run", "--trace", ""}, "electsim run: --trace needs a file name (or - for stdout)"},
		{[]string{"run", "--trace", "-", "--json"}, "electsim run: --trace - and --json both write to stdout: write the trace to a file, e.g. --trace run.jsonl"},
		{[]string{"run", "--set", "timeout=1ms", "--set", "timeout=2ms"}, "electsim run: --set timeout=2ms: timeout is set twice (--set timeout=1ms first); give each parameter once"},
		{[]string{"run", "bully-boot", "--svg", "x.svg", "--kinds", "ELECTION,,OK"}, "electsim run: --kinds ELECTION,,OK: an empty item between commas; expected message kinds of bully (ELECTION, OK, COORDINATOR, HEARTBEAT), or all"},
		{[]string{"scenarios", "--show", ""}, `electsim scenarios: --show : no bundled scenario called "" (electsim scenarios lists them)`},
		{[]string{"--version", "-q"}, `electsim: --version takes nothing else, got ["-q"]`},
		{[]string{"help", "run", "extra"}, `electsim: help takes one command, e.g. electsim help run; got ["run" "extra"]`},
		{[]string{"check", "--faults", "none,crash"}, "electsim check: --faults none,crash: none stands alone: give none, or fault classes (crash, recover, partition, delay, pause, loss, drift)"},
		{[]string{"check", "--faults", "crash", "--out", ""}, "electsim check: --out needs a file name"},
		{[]string{"run", "bully-boot", "--svg", "x.svg", "--kinds", "all,OK"}, "electsim run: --kinds all,OK: all stands alone: give all, or the kinds (ELECTION, OK, COORDINATOR, HEARTBEAT)"},
		{[]string{"check", "--property", "foo"}, `electsim check: --property foo: unknown property "foo" (choose one of at-most-one-leader, agreement, eventual-leader)`},
		// Flags that make actions of a scenario wrong: every such line, at its place. (Its
		// expectations are judged on the run: one the flags make impossible fails.)
		{[]string{"run", "bully-leader-crash", "--nodes", "3"}, "bully-leader-crash.scn:14:17: unknown node 5 (nodes are 1..3, set by --nodes 3)\n" +
			"electsim run: 1 mistake in bully-leader-crash.scn with --nodes 3; nothing ran"},
		{[]string{"run", "bully-boot", "--run", "100ms"}, "bully-boot.scn:28:4: at 105ms is after the end of the run (100ms, set by --run 100ms); lengthen the run or move the action\n" +
			"bully-boot.scn:29:4: at 400ms is after the end of the run (100ms, set by --run 100ms); lengthen the run or move the action\n" +
			"electsim run: 2 mistakes in bully-boot.scn with --run 100ms; nothing ran"},
		{[]string{"run", "lease-pause-fencing", "--nodes", "1"}, "electsim run: --nodes 1: lease needs at least 3 nodes: candidates, a lock service (the second-highest id) and a resource (the highest)"},
		{[]string{"run", "a.scn", "b.scn"}, `electsim run: one scenario at a time, got ["a.scn" "b.scn"]`},
		{[]string{"scenarios", "--show", "nope"}, `electsim scenarios: --show nope: no bundled scenario called "nope" (electsim scenarios lists them)`},
		{[]string{"run", "--run", "0"}, "electsim run: --run 0: expected a positive duration such as 2s or 500ms"},
		{[]string{"run", "--drop", "150%"}, "electsim run: --drop 150%: expected a percentage from 0% to 100%, e.g. 5%"},
		{[]string{"run", "--seed", "-1"}, "electsim run: --seed -1: expected a whole number from 0 to 18446744073709551615"},
		{[]string{"run", "--engine", "threads"}, `electsim run: --engine threads: unknown engine "threads" (choose goroutine or inline)`},
		{[]string{"run", "--fifo", "maybe"}, "electsim run: --fifo maybe: expected on or off"},
		{[]string{"run", "--at", "1s crush 5"}, `electsim run: --at '1s crush 5': column 4: unknown action "crush" (expected crash, recover, pause, resume, partition, cut, heal, delay, drop, elect, say, break, clock)`},
		{[]string{"run", "--at", "1s crash 9"}, "electsim run: --at '1s crash 9': column 10: unknown node 9 (nodes are 1..5)"},
		{[]string{"run", "--at", "soon crash 5"}, `electsim run: --at 'soon crash 5': column 1: expected a duration such as 250us, 40ms, 1.5s or 2m, got "soon"`},
		{[]string{"run", "--at", "9s crash 5"}, "electsim run: --at '9s crash 5': 9s is after the end of the run (5s); lengthen the run with --run"},
		{[]string{"run", "--at", "1s partition 1 2 | 2 3"}, "electsim run: --at '1s partition 1 2 | 2 3': column 20: node 2 is named twice"},
		{[]string{"run", "--bogus"}, "electsim run: unknown flag: --bogus (see -h)"},
		{[]string{"run", "--nodes"}, "electsim run: flag needs an argument: --nodes (see -h)"},
		{[]string{"run", "scenario.scn"}, `electsim run: scenario.scn: no such scenario file`},
		{[]string{"run", "scenario"}, `electsim run: no scenario file scenario, and no bundled scenario called "scenario" (electsim scenarios lists them)`},
		// A file's name is a file's: a bundled scenario of the same name does not stand in for it.
		{[]string{"run", "bully-partition.scn"}, "electsim run: bully-partition.scn: no such scenario file (the bundled scenario of that name is bully-partition: electsim run bully-partition)"},
		{[]string{"run", "./bully-partition"}, "electsim run: ./bully-partition: no such scenario file"},
		{[]string{"run", "lessons/week1.scn"}, "electsim run: lessons/week1.scn: no such scenario file"},
		{[]string{"run", os.TempDir()}, "electsim run: " + os.TempDir() + ": is a directory; give a scenario file (.scn) or a bundled scenario's name"},
		{[]string{"fly"}, `electsim: unknown command "fly" (commands: run, tui, web, check, bench, sweep, scenarios, algorithms; see electsim -h)`},
		{[]string{"--nodes", "0"}, "electsim: --nodes 0: expected a number of nodes from 1 to 200000, e.g. --nodes 5"},
		{[]string{"run", "--trace", "/nonexistent-dir/t.jsonl"}, "electsim run: --trace /nonexistent-dir/t.jsonl: cannot write there: no such file or directory"},
		{[]string{"tui"}, "electsim tui: the terminal UI needs a terminal; electsim run bully-leader-crash plays it headless"},
		{[]string{"run", "--algo", "lease", "--nodes", "2"}, "electsim run: --nodes 2: lease needs at least 3 nodes: candidates, a lock service (the second-highest id) and a resource (the highest)"},
		{[]string{"check"}, "electsim check: --faults: say which faults to inject, e.g. --faults crash,partition (classes: crash, recover, partition, delay, pause, loss, drift; or none)"},
	}
	for _, tt := range tests {
		code, out, errOut := call(tt.args...)
		if code != 2 {
			t.Errorf("%q: exit %d, want 2", tt.args, code)
		}
		if out != "" {
			t.Errorf("%q: wrote to stdout: %q", tt.args, out)
		}
		if errOut != tt.want+"\n" {
			t.Errorf("%q: stderr\n got %q\nwant %q", tt.args, errOut, tt.want+"\n")
		}
	}
}

// -h works on every command and exits 0.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"run", "-h"}, {"run", "--help"}, {"-h", "run"},
		{"tui", "-h"}, {"check", "--help"}, {"bench", "-h"}, {"scenarios", "-h"}, {"algorithms", "-h"}, {"help", "run"}} {
		code, out, errOut := call(args...)
		if code != 0 || errOut != "" || !strings.Contains(out, "Usage:") {
			t.Errorf("%q: exit %d, stderr %q, stdout %q", args, code, errOut, out)
		}
	}
	_, out, _ := call("run", "-h")
	for _, flag := range []string{"--algo", "--nodes", "--ids", "--seed", "--delay", "--drop", "--set", "--run", "--engine", "--at", "--json", "--trace", "--quiet", "--no-color"} {
		if !strings.Contains(out, flag) {
			t.Errorf("run -h does not mention %s", flag)
		}
	}
}

// The human timeline and summary of the default demo, as a new user sees them (no colour).
func TestDemoGolden(t *testing.T) {
	code, out, errOut := call()
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	goldenfile.Check(t, "demo.golden", out)
}

// Bundled scenarios played by name: timeline, narration, summary and expectations.
func TestScenarioGoldens(t *testing.T) {
	for _, name := range []string{"ring-best-case", "lowest-id-crash-recovery", "gc-pause-split-brain", "raft-partition", "lease-pause-fencing",
		"zookeeper-recipe", "zookeeper-herd", "zookeeper-gc-pause", "zookeeper-gc-pause-no-fencing", "lease-clock-drift",
		"hs-phases", "peterson-relays", "franklin-neighbours", "itai-rodeh-anonymous", "floodmax-grid", "echo-waves",
		"invitation-partition",
		"paxos-duel-backoff", "paxos-partitioned-leader", "omega-unstable-process",
		"zab-newest-history", "k8s-lease-pause-fencing"} {
		code, out, errOut := call("run", name)
		if code != 0 || errOut != "" {
			t.Errorf("%s: exit %d, stderr %q", name, code, errOut)
		}
		goldenfile.Check(t, name+".golden", out)
	}
}

// A run configured entirely by flags, with --all: every step shown.
func TestRunFlagsGolden(t *testing.T) {
	code, out, errOut := call("run", "--nodes", "3", "--delay", "10ms", "--run", "400ms", "--seed", "3",
		"--at", "200ms crash 3", "--at", "300ms partition 1 | 2", "--all", "--engine", "inline")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	goldenfile.Check(t, "run-flags.golden", out)
}

// Timing assumptions broken on purpose are allowed, with a warning on stderr.
func TestWarnings(t *testing.T) {
	code, out, errOut := call("run", "--delay", "30ms", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.HasPrefix(errOut, "electsim: warning: answer-timeout 50ms is not more than 2 × the max delay 30ms") {
		t.Errorf("stderr %q", errOut)
	}
	if !strings.Contains(out, "Summary") || strings.Contains(out, "TIME ms") {
		t.Errorf("--quiet: want the summary and no timeline, got\n%s", out)
	}
}

// --json prints one object with the fields the README lists (after "A worked example"), in order.
func TestJSON(t *testing.T) {
	code, out, errOut := call("--json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("want one line, got %d", strings.Count(out, "\n"))
	}
	dec := json.NewDecoder(strings.NewReader(out))
	var keys []string
	tok, _ := dec.Token()
	if tok != json.Delim('{') {
		t.Fatalf("not an object: %s", out)
	}
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	want := "scenario algorithm engine ids topology seed end_ms steps messages final metrics violations expectations"
	if strings.Join(keys, " ") != want {
		t.Errorf("keys %q, want %q", strings.Join(keys, " "), want)
	}
	var v struct {
		Scenario  string  `json:"scenario"`
		Algorithm string  `json:"algorithm"`
		IDs       []int   `json:"ids"`
		Seed      uint64  `json:"seed"`
		EndMS     float64 `json:"end_ms"`
		Messages  struct {
			Sent      map[string]int `json:"sent"`
			Delivered map[string]int `json:"delivered"`
			Dropped   map[string]int `json:"dropped"`
		} `json:"messages"`
		Final struct {
			Leader *int `json:"leader"`
			Nodes  map[string]struct {
				Status string `json:"status"`
				Leader int    `json:"leader"`
			} `json:"nodes"`
		} `json:"final"`
		Metrics struct {
			FirstLeaderMS *float64  `json:"first_leader_ms"`
			RecoveriesMS  []float64 `json:"recoveries_ms"`
		} `json:"metrics"`
		Violations   []any `json:"violations"`
		Expectations []any `json:"expectations"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.Scenario != "bully-leader-crash" || v.Algorithm != "bully" || v.Seed != 42 || v.EndMS != 2000 {
		t.Errorf("header: %+v", v)
	}
	if v.Final.Leader == nil || *v.Final.Leader != 4 || v.Final.Nodes["5"].Status != "crashed" || v.Final.Nodes["1"].Leader != 4 {
		t.Errorf("final: %+v", v.Final)
	}
	if v.Messages.Sent["ELECTION"] == 0 || v.Messages.Dropped["ELECTION"] == 0 {
		t.Errorf("messages: %+v", v.Messages)
	}
	if v.Metrics.FirstLeaderMS == nil || len(v.Metrics.RecoveriesMS) != 1 || v.Violations == nil || v.Expectations == nil {
		t.Errorf("metrics %+v, violations %v, expectations %v", v.Metrics, v.Violations, v.Expectations)
	}
	// The keys of messages follow the algorithm's order, and node ids sort numerically.
	if !strings.Contains(out, `"sent":{"ELECTION":`) || !strings.Contains(out, `"nodes":{"1":`) {
		t.Errorf("order of keys: %s", out)
	}
	// No leader: null, as the contract says.
	_, out, _ = call("run", "--json", "--nodes", "4", "--at", "0ms partition 1 2", "--run", "1s")
	if !strings.Contains(out, `"final":{"leader":null`) {
		t.Errorf("a split cluster: %s", out)
	}
}

// --trace writes JSON Lines, each record with step and t_ms; the file appears whole.
func TestTraceFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "trace.jsonl")
	code, _, errOut := call("run", "--quiet", "--trace", path, "--run", "500ms", "--at", "300ms crash 5")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	lines, lastStep := 0, 0
	types := map[string]bool{}
	for sc.Scan() {
		var r struct {
			Step *int     `json:"step"`
			TMS  *float64 `json:"t_ms"`
			Type string   `json:"type"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d: %v: %s", lines+1, err, sc.Text())
		}
		if r.Step == nil || r.TMS == nil || r.Type == "" || *r.Step < lastStep {
			t.Fatalf("line %d: %s", lines+1, sc.Text())
		}
		lastStep = *r.Step
		types[r.Type] = true
		lines++
	}
	for _, typ := range []string{"boot", "send", "deliver", "drop", "timer", "state", "fault"} {
		if !types[typ] {
			t.Errorf("no %s record in the trace", typ)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the directory holds %d files, want only the trace (no temporary files)", len(entries))
	}
	// --trace - writes the trace alone to stdout.
	_, out, _ := call("run", "--trace", "-", "--run", "100ms")
	if !strings.HasPrefix(out, `{"step":1,"t_ms":0,"type":"boot"`) || strings.Contains(out, "Summary") {
		t.Errorf("--trace -: %.200s", out)
	}
}

// A trace that cannot be written leaves nothing behind, not even part of a file.
func TestTraceUnwritable(t *testing.T) {
	dir, reason, left := unwritableDir(t)
	path := filepath.Join(dir, "t.jsonl")
	code, _, errOut := call("run", "--trace", path)
	if code != 2 || !strings.Contains(errOut, "--trace "+path+": cannot write there: "+reason) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if n := left(); n != 0 {
		t.Errorf("left %d files behind", n)
	}
}

// unwritableDir returns a folder nothing can be written in, why writing there fails, and a
// count of the files left there. A read-only folder, for a user the permissions stop; for root,
// whom they do not, a regular file posing as a folder.
func unwritableDir(t *testing.T) (dir, reason string, left func() int) {
	t.Helper()
	top := t.TempDir()
	files := func() int {
		entries, _ := os.ReadDir(top)
		return len(entries)
	}
	if err := os.Chmod(top, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(top, 0o700) })
	f, err := os.Create(filepath.Join(top, "probe"))
	if err != nil {
		return top, "permission denied", files
	}
	f.Close()
	// Root writes in a read-only folder.
	return filepath.Join(top, "probe"), "not a directory", func() int { return files() - 1 }
}

// The built binary: bad input exits 2 with one line and no stack trace; the demo runs.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "electsim")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "run", "--ids", "1,1")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Errorf("exit: %v", err)
	}
	if got := errOut.String(); strings.Count(got, "\n") != 1 || strings.Contains(got, "goroutine") || strings.Contains(got, "panic") {
		t.Errorf("stderr %q", got)
	}
	out, err := exec.Command(bin).Output()
	if err != nil || !strings.Contains(string(out), "Summary — bully") {
		t.Errorf("bare electsim: %v\n%.300s", err, out)
	}
	if strings.Contains(string(out), "\x1b[") {
		t.Error("colour escapes written to a pipe")
	}
}

// A panic — a bug — reaches the user as one line and exit 2, never as a stack trace; with
// ELECTSIM_DEBUG set, the stack follows for whoever fixes it.
func TestPanicIsOneLine(t *testing.T) {
	var errOut bytes.Buffer
	boom := func() int { panic("sim: node 2 was handed an input before it booted\ngoroutine 7 [running]:") }
	code := guard(&errOut, func(string) string { return "" }, boom)
	want := "electsim: internal error: sim: node 2 was handed an input before it booted — this is a bug in electsim; please report it with the command line that caused it (runs are reproducible)\n"
	if code != 2 || errOut.String() != want {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
	errOut.Reset()
	guard(&errOut, func(k string) string { return map[string]string{"ELECTSIM_DEBUG": "1"}[k] }, boom)
	if !strings.Contains(errOut.String(), "goroutine 7 [running]") {
		t.Errorf("ELECTSIM_DEBUG: no stack in %q", errOut.String())
	}
}

// --trace into something that is not a plain file: a symlink is followed (the file it names is
// written, the link stays), and a device is written in place, never replaced.
func TestTraceIntoLinksAndDevices(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.jsonl")
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if code, _, errOut := call("run", "--quiet", "--run", "100ms", "--trace", link); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", fi, err)
	}
	if b, err := os.ReadFile(target); err != nil || !bytes.HasPrefix(b, []byte(`{"step":1`)) {
		t.Errorf("the link's target holds %.40q, %v", b, err)
	}
	if code, _, errOut := call("run", "--quiet", "--run", "100ms", "--trace", os.DevNull); code != 0 {
		t.Fatalf("--trace %s: exit %d: %s", os.DevNull, code, errOut)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeDevice == 0 {
		t.Fatalf("%s is no longer a device: %v %v", os.DevNull, fi, err)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		code, _, errOut := call("run", "--quiet", "--run", "100ms", "--trace", "/dev/full")
		if code != 2 || !strings.Contains(errOut, "no space left on device") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("--trace /dev/full: exit %d, stderr %q", code, errOut)
		}
		if fi, err := os.Stat("/dev/full"); err != nil || fi.Mode()&os.ModeDevice == 0 {
			t.Fatalf("/dev/full is no longer a device: %v %v", fi, err)
		}
	}
}

// A scenario file with several mistakes: every one reported at its line and column, nothing
// run, exit 2.
func TestScenarioMistakesGolden(t *testing.T) {
	code, out, errOut := call("run", "testdata/mistakes.scn")
	if code != 2 || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	goldenfile.Check(t, "mistakes.golden", errOut)
}

// The line that counts a scenario's mistakes names the command as every error does: bare
// electsim said "electsim electsim:".
func TestScenarioMistakesNameTheCommand(t *testing.T) {
	for _, tt := range []struct{ args []string }{{[]string{"run"}}, {[]string{"--seed", "3"}}} {
		code, _, errOut := call(append(tt.args, "testdata/mistakes.scn")...)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		want := "electsim: 14 mistakes in testdata/mistakes.scn; nothing ran"
		if tt.args[0] == "run" {
			want = "electsim run: 14 mistakes in testdata/mistakes.scn; nothing ran"
		}
		if code != 2 || lines[len(lines)-1] != want {
			t.Errorf("%v: exit %d, last line %q, want %q", tt.args, code, lines[len(lines)-1], want)
		}
	}
}

// A failing expectation: the run completes, the verdict shows ✗ with what was seen, and the
// exit code is 1 — in the human report and in --json. Flags override the file; --at adds.
func TestExpectationFailsExitOne(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "wrong.scn")
	src := "algo bully\nnodes 3\ndelay 10ms\nrun 1s\nat 500ms crash 3\nexpect leader 3\nexpect messages ELECTION <= 100\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := call("run", path, "--quiet")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(out, "Expectations — 1 of 2 hold") ||
		!strings.Contains(out, "✗ line 6    expect leader 3 — at the end node 3 is crashed; every live node names 2") ||
		!strings.Contains(out, "✓ line 7    expect messages ELECTION <= 100") {
		t.Errorf("report:\n%s", out)
	}
	code, out, _ = call("run", path, "--json")
	var v struct {
		Scenario     string `json:"scenario"`
		Expectations []struct {
			Line   int    `json:"line"`
			Text   string `json:"text"`
			OK     bool   `json:"ok"`
			Detail string `json:"detail"`
		} `json:"expectations"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 1 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	if v.Scenario != "wrong" || len(v.Expectations) != 2 || v.Expectations[0].OK || v.Expectations[0].Line != 6 ||
		v.Expectations[0].Text != "expect leader 3" || v.Expectations[0].Detail != "at the end node 3 is crashed; every live node names 2" {
		t.Errorf("json: %+v", v)
	}
	// Recover 3 with --at, and the file's expectation holds: exit 0.
	if code, out, _ := call("run", path, "--quiet", "--at", "800ms recover 3"); code != 0 {
		t.Errorf("with --at '800ms recover 3': exit %d\n%s", code, out)
	}
	// --nodes overrides the file, and the file's crash 3 still fits.
	if code, out, _ := call("run", path, "--json", "--nodes", "4"); code != 1 || !strings.Contains(out, `"ids":[1,2,3,4]`) {
		t.Errorf("with --nodes 4: exit %d\n%s", code, out)
	}
}

// --version names electsim and the Go that built it.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "version"} {
		var out, errOut strings.Builder
		if code := electsim([]string{arg}, &out, &errOut, func(string) string { return "" }); code != 0 || !strings.HasPrefix(out.String(), "electsim ") ||
			!strings.Contains(out.String(), runtime.Version()) || errOut.Len() != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", arg, code, out.String(), errOut.String())
		}
	}
}

// Flags that make a scenario's expectations impossible still run it: the expectations are
// judged on the run, and fail — here, fewer nodes than the leader it expects. Another algorithm
// leaves them out, and says so: they were about the scenario's own algorithm.
func TestFlagsOverExpectations(t *testing.T) {
	code, out, errOut := call("run", "ring-best-case", "--nodes", "4", "--no-color")
	if code != 1 || errOut != "" || !strings.Contains(out, "✗ line") {
		t.Errorf("--nodes 4: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	code, out, errOut = call("run", "lease-pause-fencing", "--algo", "bully", "--no-color")
	if code != 0 || errOut != "electsim: note: the 8 expectations of lease-pause-fencing are left out: they were written for lease, not bully\n" ||
		strings.Contains(out, "Expectations") {
		t.Errorf("--algo bully: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

// An output whose rename into place fails — something took its place meanwhile — says which
// file and why, never the temporary file's name, and leaves no temporary file behind.
func TestOutFileRenameFails(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "t.jsonl")
	temp := &interrupt.Cleanup{}
	o, err := createOut("--trace", dest, temp)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dest, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	err = o.Commit()
	if err == nil || strings.Contains(err.Error(), ".tmp") || !strings.HasPrefix(err.Error(), "writing "+dest+": ") {
		t.Fatalf("got %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left %v in the directory", entries)
	}
}

// An output never overwrites the scenario being run, nor another output: exit 2, and the
// scenario is untouched.
func TestOutputsDistinct(t *testing.T) {
	t.Chdir(t.TempDir())
	src, err := scenarios.BundledSource("bully-boot")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("lesson.scn", src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "lesson.scn", "--trace", "./lesson.scn"}, "electsim run: --trace ./lesson.scn: that is the scenario being run; write to another file\n"},
		{[]string{"run", "lesson.scn", "--svg", "x.out", "--mermaid", "x.out"}, "electsim run: --svg x.out: --mermaid writes there too; give each output a file of its own\n"},
	} {
		code, out, errOut := call(c.args...)
		if code != 2 || out != "" || errOut != c.want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", c.args, code, out, errOut, c.want)
		}
	}
	if got, _ := os.ReadFile("lesson.scn"); string(got) != string(src) {
		t.Error("the scenario was overwritten")
	}
	if _, err := os.Stat("x.out"); err == nil {
		t.Error("x.out was written")
	}
}

// fullWriter is standard output on a full disk: every write fails.
type fullWriter struct{}

// Write fails as a write to a full disk does: naming the path, /dev/stdout.
func (fullWriter) Write([]byte) (int, error) {
	return 0, &fs.PathError{Op: "write", Path: "/dev/stdout", Err: errors.New("no space left on device")}
}

// hiccupWriter fails its first write after ok bytes, and takes every write after that: a
// terminal that came back.
type hiccupWriter struct {
	ok     int
	failed bool
	after  strings.Builder // what it was given after it failed
}

func (h *hiccupWriter) Write(p []byte) (int, error) {
	switch {
	case h.failed:
		h.after.Write(p)
	case len(p) > h.ok:
		h.failed = true
		return 0, errors.New("input/output error")
	default:
		h.ok -= len(p)
	}
	return len(p), nil
}

// Once a write to standard output fails, nothing more is written — what follows would not make
// sense without what was lost — and the command says so, exit 2.
func TestStdoutWritesStopAtTheFirstFailure(t *testing.T) {
	w := &hiccupWriter{ok: 200}
	var stderr strings.Builder
	code := electsim([]string{"run", "bully-boot"}, w, &stderr, func(string) string { return "" })
	if code != exitBadUsage || !strings.Contains(stderr.String(), "cannot write to standard output: input/output error; nothing after that was written") {
		t.Errorf("exit %d, stderr %q; want exit 2 and what could not be written", code, stderr.String())
	}
	if !w.failed || w.after.Len() > 0 {
		t.Errorf("failed %v; written after the failure: %q, want nothing", w.failed, w.after.String())
	}
}

// Output that cannot be written is an error, exit 2, whatever the command: a table, a list or a
// check's report lost on a full disk is not a success.
func TestStdoutWriteFails(t *testing.T) {
	for _, args := range [][]string{{"run", "bully-boot"}, {"scenarios"}, {"algorithms"},
		{"check", "--faults", "crash", "--runs", "3"}, {"run", "--json"}} {
		var stderr strings.Builder
		code := electsim(args, fullWriter{}, &stderr, func(string) string { return "" })
		if code != exitBadUsage || !strings.Contains(stderr.String(), "cannot write to standard output: no space left on device") ||
			strings.Contains(stderr.String(), "/dev/stdout") {
			t.Errorf("%v to a full disk: exit %d, stderr %q; want exit 2, what could not be written and why", args, code, stderr.String())
		}
	}
}
