package main

import (
	"encoding/json"
	"testing"
)

// The check, as a user types it: a leader crash among ten nodes sends one NOTIFY after
// it (none before), and eight with every candidate watching the leader — the herd effect.
func TestZooKeeperHerdCommand(t *testing.T) {
	for _, tt := range []struct {
		extra  []string
		notify int
	}{
		{nil, 1},
		{[]string{"--set", "watch=leader"}, 8},
	} {
		args := append([]string{"run", "--algo", "zookeeper", "--nodes", "10", "--at", "1s crash leader", "--json"}, tt.extra...)
		code, out, errOut := call(args...)
		if code != 0 || errOut != "" {
			t.Fatalf("%q: exit %d, stderr %q", args, code, errOut)
		}
		var run struct {
			Messages struct{ Sent map[string]int }
		}
		if err := json.Unmarshal([]byte(out), &run); err != nil {
			t.Fatal(err)
		}
		if got := run.Messages.Sent["NOTIFY"]; got != tt.notify {
			t.Errorf("%q: %d NOTIFY sent, want %d", args, got, tt.notify)
		}
		_, before, _ := call("run", "--algo", "zookeeper", "--nodes", "10", "--run", "1s", "--json")
		var quiet struct {
			Messages struct{ Sent map[string]int }
		}
		if err := json.Unmarshal([]byte(before), &quiet); err != nil || quiet.Messages.Sent["NOTIFY"] != 0 {
			t.Errorf("before the crash: %v NOTIFY, want 0 (%v)", quiet.Messages.Sent["NOTIFY"], err)
		}
	}
}
