package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/scenarios"
	"electsim/sim"
)

// A run whose nodes alone would not fit is refused before it starts, exit 2, saying why: under
// ulimit -v a run may hold a few hundred megabytes, and 200,000 nodes need some 880 MB.
func TestRunRefusesNodesThatWouldNotFit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("runs electsim under ulimit -v (Linux)")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `ulimit -v 2200000 && exec "$0" run --algo ring --nodes 200000 --quiet`, exe)
	cmd.Env = append(os.Environ(), asElectsim+"=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	want := "electsim run: ring on 200,000 nodes would need about 879 MB of memory for its nodes alone (about 4.5 KB a node), more than the "
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitBadUsage || out.Len() != 0 ||
		!strings.HasPrefix(errOut.String(), want) || !strings.HasSuffix(errOut.String(), " a run may use; try fewer nodes\n") {
		t.Errorf("exit %v, stdout %q, stderr %q", err, out.String(), errOut.String())
	}
}

// A run a guard stopped early exits 2, saying when and why, once its report is out: the run
// asked for did not happen.
func TestHaltedRunIsAnError(t *testing.T) {
	sum := sim.Summary{Algorithm: "bully", IDs: []algo.ID{1, 2}, End: 10950 * time.Microsecond,
		Halted: "the run needed more than the 2 MB of memory it may use (2.1 MB: 30,000 events queued, 400 nodes); try fewer nodes or a shorter run"}
	err := haltedError(scenarios.New("x"), sum)
	want := "the run stopped early, at 10.95ms: " + sum.Halted
	if err == nil || err.Error() != want {
		t.Errorf("%v, want %q", err, want)
	}
}

// Under ulimit -v, a run that would outgrow what the process may have stops cleanly — one
// line, exit 2 — where the runtime used to die with a stack trace.
func TestRunUnderAddressSpaceLimit(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" {
		t.Skip("builds the binary and runs it under ulimit -v (Linux)")
	}
	bin := filepath.Join(t.TempDir(), "electsim")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// About 2.1 GB of address space: the runtime reserves 1.5 GB of it as it starts.
	cmd := exec.Command("sh", "-c", `ulimit -v 2200000 && exec "$0" run --algo bully --nodes 3000 --quiet`, bin)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	err := cmd.Run()
	got := errOut.String()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || strings.Count(got, "\n") != 1 ||
		!strings.HasPrefix(got, "electsim run: the run stopped early, at 0ms: the run needed more than the ") {
		t.Errorf("exit %v, stderr %.600q", err, got)
	}
}
