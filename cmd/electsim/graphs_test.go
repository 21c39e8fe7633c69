package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
)

// On random connected graphs of 10 to 2,000 nodes, floodmax and echo elect the highest id, and
// every message the trace shows travels along an edge of the topology --json gives.
func TestGraphElectionsAlongEdges(t *testing.T) {
	for _, algo := range []string{"floodmax", "echo"} {
		for _, c := range []struct {
			n    int
			d    string
			seed int
		}{{10, "2", 3}, {137, "3.5", 11}, {600, "6", 5}, {2000, "3", 7}} {
			args := []string{"run", "--algo", algo, "--nodes", fmt.Sprint(c.n), "--topology", "random:" + c.d,
				"--seed", fmt.Sprint(c.seed), "--run", "120s"}
			name := strings.Join(args[1:], " ")
			code, out, errOut := call(append(args, "--json")...)
			if code != 0 {
				t.Fatalf("%s --json: exit %d: %s", name, code, errOut)
			}
			var sum struct {
				Topology struct {
					Name  string
					Edges [][2]int
				}
				Final struct{ Leader int }
			}
			if err := json.Unmarshal([]byte(out), &sum); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if sum.Final.Leader != c.n {
				t.Errorf("%s: leader %d, want the highest id %d", name, sum.Final.Leader, c.n)
			}
			edges := map[[2]int]bool{}
			for _, e := range sum.Topology.Edges {
				edges[e], edges[[2]int{e[1], e[0]}] = true, true
			}
			if sum.Topology.Name != "random:"+c.d || len(sum.Topology.Edges) < c.n-1 {
				t.Fatalf("%s: topology %q with %d edges", name, sum.Topology.Name, len(sum.Topology.Edges))
			}
			code, out, errOut = call(append(args, "--trace", "-")...)
			if code != 0 {
				t.Fatalf("%s --trace -: exit %d: %s", name, code, errOut)
			}
			sends := 0
			sc := bufio.NewScanner(strings.NewReader(out))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var r struct {
					Type     string
					From, To int
				}
				if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
					t.Fatalf("%s: trace line %q: %v", name, sc.Text(), err)
				}
				if r.Type != "send" {
					continue
				}
				sends++
				if !edges[[2]int{r.From, r.To}] {
					t.Fatalf("%s: a message %d→%d along no edge of the topology", name, r.From, r.To)
				}
			}
			if sends < 2*(c.n-1) {
				t.Errorf("%s: only %d sends in the trace", name, sends)
			}
		}
	}
}

// A topology that does not fit the nodes, or a bad edge-list file, is a usage error naming
// --topology, with the file's line and column. A named pipe or a file of /proc is refused
// before it is read (a pipe no one writes to would hang); an error repeats a few characters
// of a long line of the file, or of a long flag, escaped, never the whole (issue 28, item 7).
func TestTopologyFlagErrors(t *testing.T) {
	dir := t.TempDir()
	bad := dir + "/net.txt"
	if err := os.WriteFile(bad, []byte("1 2\n2 x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := dir + "/other.txt"
	if err := os.WriteFile(other, []byte("1 2\n2 9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := dir + "/fifo"
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	long := dir + "/long.txt" // one line of 15 MB: an error shows a few characters of it
	if err := os.WriteFile(long, bytes.Repeat([]byte("7"), 15<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--algo", "echo", "--nodes", "8", "--topology", "grid:2x3"},
			"electsim run: --topology grid:2x3: topology grid:2x3 has 6 places, and the run has 8 nodes: give grid:RxC with R·C = 8\n"},
		{[]string{"run", "--algo", "echo", "--nodes", "3", "--topology", "file:" + bad},
			"electsim run: --topology file:" + bad + ": " + bad + ":2:3: \"x\": expected a node id, a positive whole number\n"},
		{[]string{"run", "--algo", "echo", "--nodes", "3", "--topology", "file:" + other},
			"electsim run: --topology file:" + other + ": " + other + ":2:1: the edge 2–9 names node 9, which is not in the run (nodes are 1..3); its edges must join the run's ids\n"},
		{[]string{"run", "--algo", "echo", "--nodes", "3", "--topology", "file:" + fifo},
			"electsim run: --topology file:" + fifo + ": " + fifo + ": is a named pipe, not a file: give an edge-list file, one edge a line: two node ids\n"},
		{[]string{"run", "--algo", "echo", "--nodes", "3", "--topology", "file:/proc/self/environ"},
			"electsim run: --topology file:/proc/self/environ: /proc/self/environ: is a file of the system's /proc or /sys, not a file of yours: give an edge-list file, one edge a line: two node ids\n"},
		{[]string{"run", "--algo", "echo", "--nodes", "3", "--topology", "file:" + long},
			"electsim run: --topology file:" + long + ": " + long + ":1:1: \"777777777777\"…: expected a node id, a positive whole number\n"},
		{[]string{"run", "--algo", "echo", "--nodes", "3", "--topology", "grid:" + strings.Repeat("\x1b", 50_000)},
			"electsim run: --topology grid:" + strings.Repeat(`\x1b`, 55) + "… (50,005 characters): topology \"grid:" + strings.Repeat(`\x1b`, 35) + "\"…: expected grid:RxC, rows and columns positive whole numbers (grid:3x4)\n"},
		{[]string{"run", "--algo", "echo", "--nodes", "3", "--topology", "edges 1-2 2-9"},
			"electsim run: --topology edges 1-2 2-9: topology edges: the edge 2–9 names node 9, which is not in the run; its edges must join the run's ids\n"},
		{[]string{"run", "--algo", "echo", "--nodes", "3", "--topology", "edges 1-2 2-x"},
			"electsim run: --topology edges 1-2 2-x: column 5: expected an edge such as 1-2 (two node ids joined by -), got \"2-x\"\n"},
		{[]string{"run", "--algo", "bully", "--topology", "random:3"},
			"electsim run: --topology random:3: bully does not run on the random:3 topology: it runs on complete\n"},
	} {
		code, _, errOut := call(c.args...)
		if code != 2 || errOut != c.want {
			t.Errorf("%v: exit %d, stderr %q\\nwant %q", c.args, code, errOut, c.want)
		}
	}
}
