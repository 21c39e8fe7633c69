package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"electsim/internal/goldenfile"
)

// A small sweep's table: the heading, one row per value, the notes.
func TestSweepGolden(t *testing.T) {
	code, out, errOut := call("sweep", "--algo", "bully", "--param", "timeout=60ms,150ms,300ms", "--runs", "8",
		"--delay", "5ms..24ms", "--at", "1s crash 5", "--run", "2s", "--no-color")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	goldenfile.Check(t, "sweep-bully.golden", out)
}

// The issue's own check (docs/teaching.md, "Tuning the failure detector"): over ten timeouts
// from 60ms to 600ms, a hundred runs each, false suspicions fall and recovery rises. --json
// has exactly the documented shape; the same seed gives the same table with one worker or two.
func TestSweepTradeOff(t *testing.T) {
	args := []string{"sweep", "--algo", "bully", "--param", "timeout=60ms..600ms", "--steps", "10", "--runs", "100",
		"--delay", "5ms..80ms", "--at", "2s crash 5", "--json"}
	code, out, _ := call(append(args, "--workers", "1")...)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if _, again, _ := call(append(args, "--workers", "2")...); again != out {
		t.Errorf("two workers gave another table:\n%s\nwant\n%s", again, out)
	}
	var res map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if keys := sortedKeys(res); !slices.Equal(keys, []string{"algorithm", "param", "rows", "runs"}) {
		t.Fatalf("top-level keys %v", keys)
	}
	var rows []map[string]json.RawMessage
	if err := json.Unmarshal(res["rows"], &rows); err != nil || len(rows) != 10 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	type stat struct{ Mean, P95 float64 }
	var susp, rec []float64
	for i, row := range rows {
		if keys := sortedKeys(row); !slices.Equal(keys, []string{"false_suspicions", "leaderless_ms", "messages_per_s", "recovery_ms", "split_brain_ms", "value"}) {
			t.Fatalf("row %d keys %v", i, keys)
		}
		var s, r stat
		var perS map[string]float64
		if json.Unmarshal(row["false_suspicions"], &s) != nil || json.Unmarshal(row["recovery_ms"], &r) != nil || json.Unmarshal(row["messages_per_s"], &perS) != nil {
			t.Fatalf("row %d: %s", i, row)
		}
		if keys := sortedKeys(perS); !slices.Equal(keys, []string{"COORDINATOR", "ELECTION", "HEARTBEAT", "OK"}) {
			t.Errorf("messages_per_s kinds %v", keys)
		}
		susp, rec = append(susp, s.Mean), append(rec, r.Mean)
	}
	if string(rows[0]["value"]) != `"60ms"` || string(rows[9]["value"]) != `"600ms"` {
		t.Errorf("values %s .. %s", rows[0]["value"], rows[9]["value"])
	}
	for i := 1; i < len(rows); i++ {
		if susp[i] > susp[i-1] || rec[i] <= rec[i-1] {
			t.Errorf("at %s: false suspicions %v, recovery %v: want falling and rising", rows[i]["value"], susp, rec)
			break
		}
	}
	if susp[0] <= 10*susp[len(susp)-1]+1 {
		t.Errorf("false suspicions %v: want many at 60ms, next to none at 600ms", susp)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// --svg writes the trade-off curve, whole.
func TestSweepSVG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tradeoff.svg")
	code, _, errOut := call("sweep", "--algo", "bully", "--param", "timeout=60ms..300ms", "--steps", "3", "--runs", "4", "--run", "2s", "--svg", path)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(b)
	if !strings.HasPrefix(svg, "<svg ") || !strings.HasSuffix(svg, "</svg>\n") || strings.Count(svg, "<polyline") != 4 ||
		!strings.Contains(svg, "bully: the timeout trades false suspicions for recovery time") {
		t.Errorf("not the plot:\n%s", svg)
	}
}

// Bad input names the flag, says what was expected, exits 2.
func TestSweepBadInput(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep"}, "electsim sweep: --param: say which parameter to vary and across what, e.g. --param timeout=60ms..600ms (bully has heartbeat, timeout, answer-timeout, coordinator-timeout)"},
		{[]string{"sweep", "--param", "timeout"}, "electsim sweep: --param timeout: expected key=LOW..HIGH or key=V1,V2,..., e.g. --param timeout=60ms..600ms"},
		{[]string{"sweep", "--param", "speed=1ms..2ms"}, `electsim sweep: --param speed=1ms..2ms: bully has no parameter "speed" (its parameters are heartbeat, timeout, answer-timeout, coordinator-timeout)`},
		{[]string{"sweep", "--param", "timeout=600ms..60ms"}, "electsim sweep: --param timeout=600ms..60ms: the range runs from 600ms to 60ms: write the smaller value first"},
		{[]string{"sweep", "--param", "timeout=60ms..fast"}, `electsim sweep: --param timeout=60ms..fast: timeout: expected a duration such as 250us, 40ms, 1.5s or 2m, got "fast"`},
		{[]string{"sweep", "--param", "timeout=60ms..600ms", "--steps", "1"}, "electsim sweep: --steps 1: expected a number of values from 2 to 1000, e.g. --steps 10"},
		{[]string{"sweep", "--param", "timeout=60ms,90ms", "--steps", "3"}, "electsim sweep: --steps goes with --param KEY=LOW..HIGH; timeout=60ms,90ms lists its values"},
		{[]string{"sweep", "--param", "timeout=60ms", "--runs", "0"}, "electsim sweep: --runs 0: expected a number of runs per value from 1 to 1000000, e.g. --runs 100"},
		{[]string{"sweep", "--param", "timeout=60ms", "--workers", "x"}, "electsim sweep: --workers x: expected a number of runs at once from 1 to 1024, e.g. --workers 2"},
		{[]string{"sweep", "--param", "timeout=60ms", "--svg", "-", "--json"}, "electsim sweep: --svg - and --json both write to stdout: write the plot to a file, e.g. --svg tradeoff.svg"},
		{[]string{"sweep", "--algo", "zookeeper", "--param", "watch=herd"}, `electsim sweep: --param watch=herd: watch: expected predecessor or leader, got "herd"`},
	} {
		code, out, errOut := call(tt.args...)
		if code != 2 || out != "" || errOut != tt.want+"\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr\n got %q\nwant %q", tt.args, code, out, errOut, tt.want+"\n")
		}
	}
}

// A list of words sweeps a choice: ZooKeeper's watch, the herd effect in messages per second.
func TestSweepChoice(t *testing.T) {
	code, out, errOut := call("sweep", "--algo", "zookeeper", "--nodes", "10", "--param", "watch=predecessor,leader",
		"--runs", "3", "--at", "1s crash leader", "--run", "2s", "--json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var res struct {
		Rows []struct {
			Value        string
			MessagesPerS map[string]float64 `json:"messages_per_s"`
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	// One NOTIFY a run, and eight, in 2s of virtual time.
	got := []float64{res.Rows[0].MessagesPerS["NOTIFY"], res.Rows[1].MessagesPerS["NOTIFY"]}
	if want := []float64{0.5, 4}; !reflect.DeepEqual(got, want) {
		t.Errorf("NOTIFY per second %v, want %v", got, want)
	}
}

// docs/sweep-bully-timeout.svg, the plot docs/teaching.md shows, is what its command draws
// (go test -update rewrites it); --svg - writes the plot alone to stdout.
func TestSweepDocPlot(t *testing.T) {
	code, out, _ := call("sweep", "--algo", "bully", "--param", "timeout=60ms..600ms", "--steps", "10", "--runs", "100",
		"--delay", "5ms..80ms", "--at", "2s crash 5", "--svg", "-")
	if code != 0 || !strings.HasPrefix(out, "<svg ") {
		t.Fatalf("exit %d:\n%.200s", code, out)
	}
	const path = "../../docs/sweep-bully-timeout.svg"
	if goldenfile.Updating() {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != out {
		t.Errorf("docs/sweep-bully-timeout.svg is not what its command draws (go test -update rewrites it)")
	}
}
