package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/algo/algotest/example"
	"electsim/scenarios"
	"electsim/tui"
)

// throwawayEnv makes TestMain register the guide's example algorithm: so the children bench
// runs each measurement in know it too.
const throwawayEnv = "ELECTSIM_TEST_THROWAWAY"

// An algorithm added the documented way — algo.Register, nothing else edited — is picked up by
// every tool: the algorithms list, run (with its topology), check, the matrix, bench with its
// theory, and the TUI.
func TestThrowawayAlgorithm(t *testing.T) {
	t.Setenv(throwawayEnv, "1")
	defer algo.Register(example.Info())()

	if _, out, _ := call("algorithms"); !strings.Contains(out, "lelann — Le Lann's ring election") || !strings.Contains(out, "topologies  ring") {
		t.Errorf("electsim algorithms does not list lelann:\n%s", out)
	}

	code, out, errOut := call("run", "--algo", "lelann", "--ids", "3,7,1,9,4", "--json")
	var r struct {
		Topology struct {
			Name  string
			Edges [][2]algo.ID
		}
		Final struct{ Leader algo.ID }
	}
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.Final.Leader != 9 || r.Topology.Name != "ring" || len(r.Topology.Edges) != 5 {
		t.Errorf("run: exit %d, %v, %+v, stderr %s", code, err, r, errOut)
	}
	if code, _, errOut := call("run", "--algo", "lelann", "--topology", "bi-ring"); code != 2 ||
		errOut != "electsim run: --topology bi-ring: lelann does not run on the bi-ring topology: it runs on ring\n" {
		t.Errorf("run on bi-ring: exit %d, %q", code, errOut)
	}

	// check: what it declares to hold holds, what it declares to break breaks.
	if code, out, errOut := call("check", "--algo", "lelann", "--faults", "delay,pause", "--runs", "30"); code != 0 {
		t.Errorf("check under delays and pauses: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := call("check", "--algo", "lelann", "--faults", "crash,recover", "--runs", "200"); code != 1 || !strings.Contains(out, "at-most-one-leader") {
		t.Errorf("check under crashes and recoveries: exit %d, want a counterexample\n%s", code, out)
	}
	if _, out, errOut := call("check", "--matrix", "--runs", "2"); !strings.Contains(out, "lelann (at-most-one-leader)") {
		t.Errorf("the matrix has no row for lelann:\n%s%s", out, errOut)
	}

	code, out, errOut = call("bench", "--algo", "lelann", "--nodes", "40", "--engine", "inline")
	if code != 0 || !strings.Contains(out, "lelann") || !strings.Contains(out, "1,600  ≤ 1,600 ✓") {
		t.Errorf("bench: exit %d\n%s%s", code, out, errOut)
	}

	sc, err := scenarios.Parse("lelann.scn", []byte("algo lelann\nids 3 7 1 9 4\nrun 1s\n"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := tui.New(tui.Options{Scenario: sc, Config: sc.Config(), NoColor: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if view := m.View(); !strings.Contains(view, "lelann") {
		t.Errorf("the TUI does not show lelann:\n%s", view)
	}
}

// skipper sends its id two places round the ring: a send along no edge of the ring topology.
type skipper struct{ to algo.ID }

func (s *skipper) Start(env algo.Env)                           { env.Send(s.to, algo.Message{Kind: "SKIP", Hop: 2}) }
func (s *skipper) Receive(algo.Env, algo.Message)               {}
func (s *skipper) Timer(algo.Env, string)                       {}
func (s *skipper) Elect(algo.Env)                               {}
func (s *skipper) State() algo.State                            { return algo.State{} }
func (s *skipper) Clone() algo.Node                             { c := *s; return &c }
func (s *skipper) AppendState(b []byte, _ time.Duration) []byte { return b }

// A node that sends along no edge of the topology stops electsim run with exit 2, naming the
// node, the message and the missing edge.
func TestSendOffTheTopology(t *testing.T) {
	defer algo.Register(&algo.Info{Name: "skipper", Kinds: []string{"SKIP"}, Topologies: []string{algo.UniRing},
		New: func(id algo.ID, c *algo.Cluster) algo.Node { return &skipper{to: c.Succ(c.Succ(id))} }})()
	code, _, errOut := call("run", "--algo", "skipper", "--ids", "3,7,1,9", "--quiet")
	if code != 2 || !strings.Contains(errOut, "node 1 sent SKIP(hop 2) to node 3, but the ring topology has no edge 1→3") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// A node that sends to an id not in the cluster — the algorithm's bug, not electsim's — stops
// electsim run with exit 2 and a user's error naming the algorithm, the node, the message and
// the id, not an internal error.
func TestSendToAnIDNotInTheCluster(t *testing.T) {
	defer algo.Register(&algo.Info{Name: "stray", Kinds: []string{"SKIP"}, Topologies: []string{algo.UniRing},
		New: func(id algo.ID, c *algo.Cluster) algo.Node { return &skipper{to: 42} }})()
	code, _, errOut := call("run", "--algo", "stray", "--ids", "3,7,1,9", "--quiet")
	want := "node 1 sent SKIP(hop 2) to node 42, but no node of the cluster has id 42: stray sends only to the ids in Cluster.Ring"
	if code != 2 || !strings.Contains(errOut, want) || strings.Contains(errOut, "internal error") || strings.Contains(errOut, "goroutine") {
		t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, errOut, want)
	}
}
