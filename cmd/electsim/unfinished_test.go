package main

import (
	"strings"
	"testing"
)

// A run that ends before its election does — a big ring in the default 5s — says so, and how
// to give it time, rather than leave a reader to take the broken agreement for a broken
// algorithm; the same run given the time elects, and says nothing of the kind.
func TestSummarySaysTheElectionHadNotFinished(t *testing.T) {
	for _, c := range []struct{ algo, topology string }{{"hs", "bi-ring"}, {"peterson", "ring"}, {"ring", "ring"}} {
		code, out, errOut := call("run", "--algo", c.algo, "--topology", c.topology, "--nodes", "400", "-q")
		if code != 0 || errOut != "" {
			t.Fatalf("%s: exit %d, %s", c.algo, code, errOut)
		}
		if !strings.Contains(out, "none agreed") {
			t.Fatalf("%s among 400 nodes elected within 5s: the test shows nothing\n%s", c.algo, out)
		}
		if !strings.Contains(out, "unfinished") || !strings.Contains(out, "--run") {
			t.Errorf("%s: the summary of a run cut short in mid-election does not say so:\n%s", c.algo, out)
		}
		code, out, _ = call("run", "--algo", c.algo, "--topology", c.topology, "--nodes", "400", "-q", "--run", "1h")
		if code != 0 || !strings.Contains(out, "every live node names it") || strings.Contains(out, "unfinished") {
			t.Errorf("%s with an hour: exit %d\n%s", c.algo, code, out)
		}
	}
}
