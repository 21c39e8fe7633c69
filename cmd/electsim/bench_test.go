package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"electsim/algo"
	"electsim/report"
	"electsim/sim"
	"electsim/sim/bench"
)

// bench --json: counts equal to the theory for Bully and the ring, on both engines, and the
// fields scripts read.
func TestBenchJSON(t *testing.T) {
	code, out, errOut := call("bench", "--algo", "bully,ring", "--nodes", "50,200", "--json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var got struct {
		CPUs    int `json:"cpus"`
		Results []struct {
			Algorithm string                      `json:"algorithm"`
			Procs     int                         `json:"gomaxprocs"`
			Nodes     int                         `json:"nodes"`
			Engine    string                      `json:"engine"`
			Messages  map[string]map[string]int64 `json:"messages"`
			Theory    map[string]struct {
				Exact int64 `json:"exact"`
			} `json:"theory"`
			Leader     *int     `json:"leader"`
			LeaderAtMS *float64 `json:"leader_at_ms"`
			WallMS     float64  `json:"wall_ms"`
			PeakRSS    uint64   `json:"peak_rss_bytes"`
			Stopped    string   `json:"stopped"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Results) != 8 || got.CPUs < 1 {
		t.Fatalf("%d results, %d CPUs: want 2 algorithms × 2 sizes × 2 engines", len(got.Results), got.CPUs)
	}
	for _, r := range got.Results {
		if r.Engine == "goroutine" && r.Procs != 1 {
			t.Errorf("%s %d goroutine: GOMAXPROCS %d, want 1 by default", r.Algorithm, r.Nodes, r.Procs)
		}
		if r.Leader == nil || r.LeaderAtMS == nil || r.Stopped != "" || r.WallMS <= 0 {
			t.Errorf("%s %d %s: leader %v at %v, stopped %q, wall %v", r.Algorithm, r.Nodes, r.Engine, r.Leader, r.LeaderAtMS, r.Stopped, r.WallMS)
		}
		if len(r.Theory) == 0 {
			t.Errorf("%s: no theory", r.Algorithm)
		}
		// Each run is measured in a process of its own: a small one is small, whatever ran before.
		if r.PeakRSS == 0 || r.PeakRSS > 100<<20 {
			t.Errorf("%s %d %s: peak RSS %d", r.Algorithm, r.Nodes, r.Engine, r.PeakRSS)
		}
		for kind, th := range r.Theory {
			if sent := r.Messages["sent"][kind]; sent != th.Exact {
				t.Errorf("%s %d %s: %s sent %d, theory %d", r.Algorithm, r.Nodes, r.Engine, kind, sent, th.Exact)
			}
		}
	}
}

// The table shows each size and engine, the theory checked off, and the footnotes.
func TestBenchTable(t *testing.T) {
	code, out, errOut := call("bench", "--algo", "ring", "--nodes", "100", "--engine", "inline", "--no-color")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"Chang–Roberts", "ELECTION", "575 ✓", "100 ✓", "1.99s", "n·H_n = 519 on average"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// Mistakes name the flag and exit 2.
func TestBenchBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--algo", "rink"}, `electsim bench: --algo rink: unknown algorithm "rink" (expected ` + strings.Join(algo.Names(), ", ") + `)` + "\n"},
		{[]string{"--nodes", "1"}, "electsim bench: --nodes 1: expected node counts from 2 to 1000000, comma-separated, e.g. 1000,10000,100000 or 1k,10k,100k\n"},
		{[]string{"--nodes", "10,x"}, "electsim bench: --nodes 10,x: expected node counts from 2 to 1000000, comma-separated, e.g. 1000,10000,100000 or 1k,10k,100k\n"},
		{[]string{"--engine", "fast"}, "electsim bench: --engine fast: expected goroutine, inline or both\n"},
		{[]string{"--seed", "-1"}, "electsim bench: --seed -1: expected a whole number, 0 or more\n"},
		{[]string{"--max-messages", "0"}, "electsim bench: --max-messages 0: expected a positive whole number, e.g. 20000000 or 20m\n"},
		{[]string{"--procs", "0"}, fmt.Sprintf("electsim bench: --procs 0: expected a number of processors from 1 to 256 (this machine has %d)\n", runtime.NumCPU())},
		{[]string{"--procs", "50000"}, fmt.Sprintf("electsim bench: --procs 50000: expected a number of processors from 1 to 256 (this machine has %d)\n", runtime.NumCPU())},
		{[]string{"--algo", "raft", "--svg", "r.svg"}, "electsim bench: --svg r.svg: the plot shows Bully's and the ring's counts; add bully or ring to --algo\n"},
		{[]string{"extra"}, `electsim bench: unexpected argument "extra" (see -h)` + "\n"},
	} {
		code, out, errOut := call(append([]string{"bench"}, c.args...)...)
		if code != exitBadUsage || out != "" || errOut != c.want {
			t.Errorf("%v: exit %d, stdout %q, stderr\n got %q\nwant %q", c.args, code, out, errOut, c.want)
		}
	}
}

// A run that would not end in reason is not run, and the table says why.
func TestBenchBudget(t *testing.T) {
	code, out, _ := call("bench", "--algo", "bully", "--nodes", "5000", "--engine", "inline", "--no-color")
	if code != 0 || !strings.Contains(out, "5,000 nodes, inline: not run: it would send about 24,995,000 messages (n(n−1)), more than the 20,000,000 allowed") ||
		!strings.Contains(out, "not run") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// A count that differs from its theory is said, after the table or on stderr after the JSON,
// and exits 1; counts that agree say nothing.
func TestBenchVerdict(t *testing.T) {
	r := bench.Result{Algorithm: "ring", Nodes: 1000, Engine: sim.Inline, Steps: 1,
		Kinds: []string{"ELECTION", "ELECTED"}, Sent: []int64{7654, 999},
		Theory: []bench.Theory{{Kind: "ELECTION", Exact: 7654}, {Kind: "ELECTED", Exact: 1000}}}
	var out strings.Builder
	err := benchVerdict(&out, report.Plain{}, []bench.Result{r}, false)
	if !errors.As(err, new(failedError)) ||
		out.String() != "\n✗ a count differs from the theory — a bug in the algorithm, the engine or the oracle: ring, 1,000 nodes, inline engine: ELECTED 999 ≠ 1,000\n" {
		t.Errorf("a miss: %v, %q", err, out.String())
	}
	out.Reset()
	r.Sent[1] = 1000
	if err := benchVerdict(&out, report.Plain{}, []bench.Result{r}, true); err != nil || out.Len() != 0 {
		t.Errorf("no miss: %v, %q", err, out.String())
	}
}
