package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"electsim/sim/sweep"
)

// A value whose runs had no leader crash has no recovery: "-" in the table, null in the JSON;
// crashes no leader followed are counted in a note; every kind is in messages_per_s.
func TestSweepRendering(t *testing.T) {
	res := &sweep.Result{Algorithm: "bully", Param: "timeout", Runs: 4, Kinds: []string{"ELECTION", "HEARTBEAT"},
		Rows: []sweep.Row{
			{Value: "60ms", FalseSuspicions: sweep.Stat{Mean: 2.25, P95: 4, N: 4}, Recovery: sweep.Stat{Mean: 120.5, P95: 130, N: 3},
				Crashes: 4, Unrecovered: 1, Leaderless: sweep.Stat{Mean: 10, P95: 20, N: 4}, SplitBrain: sweep.Stat{N: 4},
				PerSecond: []float64{3.14159, 20}},
			{Value: "120ms", FalseSuspicions: sweep.Stat{N: 4}, Leaderless: sweep.Stat{N: 4}, SplitBrain: sweep.Stat{N: 4},
				PerSecond: []float64{0, 20}},
		}}
	var b bytes.Buffer
	WriteSweep(&b, Plain{}, res)
	out := b.String()
	for _, want := range []string{
		"60ms         2.2      4.0  120.5  130.0", // the mean to one decimal
		"120ms        0.0      0.0      -      -",
		"timeout=60ms: 1 of 4 leader crashes had no agreed leader after them by the end of the run; recovery counts the others.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table has no %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := WriteJSON(&b, SweepJSONOf(res)); err != nil {
		t.Fatal(err)
	}
	want := `{"algorithm":"bully","param":"timeout","runs":4,"rows":[` +
		`{"value":"60ms","false_suspicions":{"mean":2.25,"p95":4},"recovery_ms":{"mean":120.5,"p95":130},"leaderless_ms":{"mean":10,"p95":20},"split_brain_ms":{"mean":0,"p95":0},"messages_per_s":{"ELECTION":3.142,"HEARTBEAT":20}},` +
		`{"value":"120ms","false_suspicions":{"mean":0,"p95":0},"recovery_ms":{"mean":null,"p95":null},"leaderless_ms":{"mean":0,"p95":0},"split_brain_ms":{"mean":0,"p95":0},"messages_per_s":{"ELECTION":0,"HEARTBEAT":20}}]}` + "\n"
	if got := b.String(); got != want {
		t.Errorf("JSON\n got %s\nwant %s", got, want)
	}
	var v any
	if err := json.Unmarshal(b.Bytes(), &v); err != nil {
		t.Error(err)
	}
	if got := SweepProgressText(340, 1000); got != "[######..............] 340 of 1,000 runs" {
		t.Errorf("progress %q", got)
	}
}
