//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"electsim/internal/outfile"
)

// --trace /dev/stdout on a pipe writes the trace into the pipe, between the timeline's lines,
// each line whole; and the summary follows.
func TestTraceToStdoutPipe(t *testing.T) {
	cmd := electsimCommand(t, "run", "--trace", "/dev/stdout", "--run", "200ms", "--no-color")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	checkMixed(t, string(out))
}

// --trace /dev/stdout with standard output redirected to a file writes through it: the file
// is not replaced behind standard output's back, so the summary written after the trace is
// there too.
func TestTraceToStdoutFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := electsimCommand(t, "run", "--trace", "/dev/stdout", "--run", "200ms", "--no-color")
	var errOut strings.Builder
	cmd.Stdout, cmd.Stderr = f, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errOut.String())
	}
	b, _ := os.ReadFile(path)
	checkMixed(t, string(b))
	// The same through the file's own name.
	cmd = electsimCommand(t, "run", "--trace", path, "--run", "200ms", "--no-color", "--quiet")
	f.Truncate(0)
	f.Seek(0, 0)
	cmd.Stdout, cmd.Stderr = f, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errOut.String())
	}
	b, _ = os.ReadFile(path)
	if !strings.Contains(string(b), `"type":"boot"`) || !strings.Contains(string(b), "Summary — bully") {
		t.Errorf("--trace into the file stdout goes to:\n%s", b)
	}
}

// checkMixed checks the output of a run whose trace went to its standard output: the
// timeline's lines and the trace's, each whole, then the summary.
func checkMixed(t *testing.T, out string) {
	t.Helper()
	records, timeline := 0, 0
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "{") {
			var r map[string]any
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("a broken trace line: %v: %q", err, line)
			}
			records++
		} else if strings.Contains(line, "COORDINATOR") {
			timeline++
		}
	}
	if records < 20 || timeline == 0 || !strings.Contains(out, "Summary — bully, 5 nodes, 200ms") {
		t.Errorf("%d trace records, %d timeline lines:\n%s", records, timeline, out)
	}
}

// A run killed outright (SIGKILL) cannot remove its temporary file; it is named after the
// file and the process, and the next run that writes the file removes it.
func TestKilledRunLeavesNoStaleTemporaryForLong(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.jsonl")
	cmd := electsimCommand(t, "run", "--algo", "ring", "--nodes", "200", "--run", "1000h", "--trace", trace, "--quiet")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	temp := filepath.Join(dir, outfile.TempName("t.jsonl", cmd.Process.Pid, 1))
	for i := 0; ; i++ {
		if fi, err := os.Stat(temp); err == nil && fi.Size() > 0 {
			break
		}
		if i == 500 {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no %s while the run writes; the folder holds %v", filepath.Base(temp), must(os.ReadDir(dir)))
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, err := os.Stat(temp); err != nil {
		t.Fatalf("the killed run's temporary file is gone already: %v", err)
	}
	code, _, errOut := call("run", "--run", "10ms", "--trace", trace, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if names := must(os.ReadDir(dir)); len(names) != 1 || names[0].Name() != "t.jsonl" {
		t.Errorf("the folder holds %v, want only t.jsonl", names)
	}
}

// An output that exists keeps its permissions; a new one gets those the umask leaves.
func TestOutputModes(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "run.svg")
	if err := os.WriteFile(svg, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	mmd := filepath.Join(dir, "run.mmd")
	if code, _, errOut := call("run", "--run", "100ms", "--svg", svg, "--mermaid", mmd, "--quiet"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	syscall.Umask(0o022)
	os.Chmod(svg, 0o640)
	if code, _, errOut := call("run", "--run", "100ms", "--svg", svg, "--quiet"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for path, want := range map[string]os.FileMode{svg: 0o640, mmd: 0o600} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", filepath.Base(path), fi.Mode().Perm(), want)
		}
	}
}

// A socket is refused, saying so; so is a directory.
func TestOutputRefusals(t *testing.T) {
	code, _, errOut := call("run", "--svg", os.TempDir())
	if code != exitBadUsage || errOut != "electsim run: --svg "+os.TempDir()+": is a directory; give a file name\n" {
		t.Errorf("a directory: exit %d, %q", code, errOut)
	}
}
