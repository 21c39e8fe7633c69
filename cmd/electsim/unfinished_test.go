package main

import (
	"encoding/json"
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
		if got := unfinishedJSON(t, "run", "--algo", c.algo, "--topology", c.topology, "--nodes", "400", "--json"); got <= 0 {
			t.Errorf("%s: --json has unfinished %d; want the messages in flight", c.algo, got)
		}
		code, out, _ = call("run", "--algo", c.algo, "--topology", c.topology, "--nodes", "400", "-q", "--run", "1h")
		if code != 0 || !strings.Contains(out, "every live node names it") || strings.Contains(out, "unfinished") {
			t.Errorf("%s with an hour: exit %d\n%s", c.algo, code, out)
		}
		if got := unfinishedJSON(t, "run", "--algo", c.algo, "--topology", c.topology, "--nodes", "400", "--json", "--run", "1h"); got != -1 {
			t.Errorf("%s with an hour: --json has unfinished %d; want no such field", c.algo, got)
		}
	}
}

// unfinishedJSON runs electsim with args (a run with --json) and returns the object's
// "unfinished" field, or -1 when it has none.
func unfinishedJSON(t *testing.T, args ...string) int64 {
	t.Helper()
	code, out, errOut := call(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	raw, ok := obj["unfinished"]
	if !ok {
		return -1
	}
	var n int64
	if err := json.Unmarshal(raw, &n); err != nil {
		t.Fatal(err)
	}
	return n
}
