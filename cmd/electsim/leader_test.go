package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `leader` in a scenario and in --at: the node every live node names at that instant. The
// timeline says which node it was; the run is that of its id.
func TestRunLeaderAction(t *testing.T) {
	code, out, errOut := call("run", "--nodes", "5", "--delay", "10ms", "--run", "1s", "--at", "500ms crash leader", "--no-color")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "  5       crash             leader → crashed · the leader, node 5: every live node names it\n") {
		t.Errorf("the timeline does not say the leader, 5, crashed:\n%s", out)
	}
	code, trace, _ := call("run", "--nodes", "5", "--delay", "10ms", "--run", "1s", "--at", "500ms crash leader", "--trace", "-")
	if code != 0 || !strings.Contains(trace, `"fault":"crash","action":"crash leader (node 5)","node":5,`) {
		t.Errorf("exit %d; the trace does not say crash leader (node 5):\n%s", code, trace)
	}
}

// An action naming `leader` at an instant when no node leads stops the run there: the timeline
// and summary up to that instant, then exit 2 with the line of the scenario (or the --at) and
// why — who names whom.
func TestRunLeaderActionWithNoLeaderStopsTheRun(t *testing.T) {
	file := filepath.Join(t.TempDir(), "lesson.scn")
	src := "algo bully\nnodes 5\ndelay 10ms\nrun 2s\n\nat 500ms crash 5\nat 600ms pause leader\nexpect no split-brain\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := call("run", file, "--no-color")
	why := "no node leads at 600ms — the live nodes do not all name one live leader: nodes 1 2 3 4 name 5, which is crashed"
	if code != exitBadUsage || errOut != "electsim run: "+file+":7: at 600ms pause leader: "+why+"; the run stopped there\n" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "  stopped      early, at 600ms: pause leader: "+why+"\n") ||
		!strings.Contains(out, "   600.000     80          pause             pause leader: "+why+"; the run stops here\n") {
		t.Errorf("the timeline and summary do not end at 600ms saying why:\n%s", out)
	}
	code, _, errOut = call("run", "--nodes", "5", "--delay", "10ms", "--at", "500ms crash 5", "--at", "0.6s pause leader", "--quiet")
	if code != exitBadUsage || errOut != "electsim run: --at '600ms pause leader': "+why+"; the run stopped there\n" {
		t.Errorf("--at: exit %d, stderr %q", code, errOut)
	}
}
