package main

import (
	"strings"
	"testing"
)

// run prints an invitation run's groups: one before the partition, two before the heal, one at
// the end; at-most-one-leader is shown as not judged, and no split brain is reported.
func TestRunPrintsInvitationGroups(t *testing.T) {
	code, out, errOut := call("run", "invitation-partition", "--quiet")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"groups       at 500ms, before partition 1 2 3 | 4 5: 1 group: {1 2 3 4 5} led by 5",
		"at 1s, before heal: 2 groups: {1 2 3} led by 3, {4 5} led by 5",
		"at the end, 1500ms: 1 group: {1 2 3 4 5} led by 5",
		"– at-most-one-leader (one coordinator per group)",
		"✓ one-coordinator-per-group   ✓ eventual-merge",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("run's output has no %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "violations") {
		t.Errorf("a violation is reported:\n%s", out)
	}
	_, out, _ = call("run", "invitation-partition", "--json")
	if want := `"groups":[{"at_ms":500,"before":"partition 1 2 3 | 4 5","groups":[{"coordinator":5,"number":2,"members":[1,2,3,4,5],"led":true}]},` +
		`{"at_ms":1000,"before":"heal","groups":[{"coordinator":3,"number":3,"members":[1,2,3],"led":true},{"coordinator":5,"number":2,"members":[4,5],"led":true}]},` +
		`{"at_ms":1500,"groups":[{"coordinator":5,"number":3,"members":[1,2,3,4,5],"led":true}]}]`; !strings.Contains(out, want) {
		t.Errorf("run --json has no %s:\n%s", want, out)
	}
	// The same partition under Bully: a split brain.
	if _, out, _ := call("run", "bully-partition", "--quiet"); !strings.Contains(out, "✗ at-most-one-leader") {
		t.Errorf("bully-partition shows no split brain:\n%s", out)
	}
}

// check --matrix --algo measures that algorithm's rows alone; check of an algorithm of groups
// judges its own first property by default, and refuses at-most-one-leader, saying what it has.
func TestCheckInvitation(t *testing.T) {
	code, out, errOut := call("check", "--matrix", "--algo", "invitation", "--runs", "3")
	if code != 0 || errOut != "" {
		t.Fatalf("matrix: exit %d, stderr %q\n%s", code, errOut, out)
	}
	if !strings.Contains(out, "invitation (one-coordinator-per-group)") || !strings.Contains(out, "invitation (eventual-merge)") ||
		strings.Contains(out, "bully") {
		t.Errorf("the matrix of invitation:\n%s", out)
	}
	code, out, _ = call("check", "--algo", "invitation", "--faults", "partition", "--runs", "3")
	if code != 0 || !strings.Contains(out, "property: one-coordinator-per-group") {
		t.Errorf("check: exit %d\n%s", code, out)
	}
	code, _, errOut = call("check", "--algo", "invitation", "--faults", "partition", "--property", "at-most-one-leader")
	if code != 2 || !strings.Contains(errOut, "one-coordinator-per-group") {
		t.Errorf("check --property at-most-one-leader: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut = call("check", "--matrix", "--algo", "invitation", "--faults", "crash"); code != 2 || !strings.Contains(errOut, "leave out --faults") {
		t.Errorf("check --matrix --faults: exit %d, stderr %q", code, errOut)
	}
}
