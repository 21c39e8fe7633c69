package main

import (
	"encoding/json"
	"testing"
)

// The checks, as a user types them: among five ZooKeeper servers whose logs end at zxids
// 4, 9, 9, 2 and 7, 3 is elected; crash it and 2 leads, though 5 has the higher id.
func TestZabNewestHistoryCommand(t *testing.T) {
	for _, tt := range []struct {
		extra  []string
		leader int
	}{
		{nil, 3},
		{[]string{"--run", "2s", "--at", "1s crash 3"}, 2},
	} {
		args := append([]string{"run", "--algo", "zab", "--nodes", "5", "--set", "zxid=1:4,2:9,3:9,4:2,5:7", "--json"}, tt.extra...)
		code, out, errOut := call(args...)
		if code != 0 || errOut != "" {
			t.Fatalf("%q: exit %d, stderr %q", args, code, errOut)
		}
		var run struct {
			Final struct{ Leader *int }
		}
		if err := json.Unmarshal([]byte(out), &run); err != nil {
			t.Fatal(err)
		}
		if run.Final.Leader == nil || *run.Final.Leader != tt.leader {
			t.Errorf("%q: agreed leader %v, want %d", args, run.Final.Leader, tt.leader)
		}
	}
}

// A per-node parameter naming a node the run does not have, or written wrong, is a usage error
// naming the flag.
func TestPerNodeParamFlagErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--algo", "zab", "--set", "zxid=7:1"}, "electsim run: --set zxid=7:1: zxid: unknown node 7 (nodes are 1..5)"},
		{[]string{"run", "--algo", "zab", "--ids", "3,8", "--set", "epoch=3:1,4:2"}, "electsim run: --set epoch=3:1,4:2: epoch: unknown node 4 (nodes are 3 8)"},
		{[]string{"run", "--algo", "zab", "--set", "zxid=1:4,1:5"}, `electsim run: --set zxid=1:4,1:5: zxid: node 1 is given twice (1:4 and "1:5"): give each node once`},
		{[]string{"run", "zab-newest-history", "--nodes", "3"}, "electsim run: --nodes 3: zxid: unknown node 4 (nodes are 1..3)"},
	} {
		code, _, errOut := call(tt.args...)
		if code != 2 || errOut != tt.want+"\n" {
			t.Errorf("%q: exit %d, stderr %q, want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}
