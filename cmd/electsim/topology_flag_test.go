package main

import (
	"strings"
	"testing"
)

// An empty --topology is a mistake named as one — what the flag takes — not a run on the
// complete graph that the algorithm then refuses.
func TestEmptyTopologyIsAUsageError(t *testing.T) {
	code, out, errOut := call("run", "--algo", "peterson", "--topology", "")
	want := "electsim run: --topology: expected a topology: complete, ring, bi-ring"
	if code != 2 || out != "" || !strings.HasPrefix(errOut, want) || strings.Contains(errOut, "goroutine") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q…", code, out, errOut, want)
	}
}
