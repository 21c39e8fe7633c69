package report

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

func TestAppendJSONIsValidJSON(t *testing.T) {
	say := &sim.Action{Op: sim.Say, Text: "tab\there \"quoted\" \\ bell\a del\x7f → ★ \xff"}
	crash := &sim.Action{Op: sim.Crash, Nodes: []algo.ID{5}}
	recs := []sim.Record{
		{Step: 1, At: 0, Type: sim.RecFault, Action: crash, Node: 5},
		{Step: 2, At: 1500 * time.Microsecond, Type: sim.RecBoot, Node: 1},
		{Step: 2, At: 1500 * time.Microsecond, Type: sim.RecSend, Msg: algo.Message{Kind: "VOTE", From: 1, To: 2, Term: 3, Flag: true, Value: 2}, DeliverAt: 12345678},
		{Step: 3, At: 2 * time.Millisecond, Type: sim.RecSend, Msg: algo.Message{Kind: "OK", From: 1, To: 2}, Reason: network.Partition},
		{Step: 4, At: 3 * time.Millisecond, Type: sim.RecDrop, Msg: algo.Message{Kind: "OK", From: 1, To: 2}, Reason: network.Crashed},
		{Step: 5, At: 3 * time.Millisecond, Type: sim.RecState, Node: 2, Old: sim.Crashed, New: sim.Leader, Leader: 2, Note: "why"},
		{Step: 6, At: 4 * time.Millisecond, Type: sim.RecSay, Action: say},
		{Step: 7, At: 4 * time.Millisecond, Type: sim.RecBreak, Action: &sim.Action{Op: sim.Break}},
		{Step: 8, At: 5 * time.Millisecond, Type: sim.RecTimer, Node: 3, Timer: "answer"},
	}
	want := []string{
		`{"step":1,"t_ms":0,"type":"fault","fault":"crash","action":"crash 5","node":5}`,
		`{"step":2,"t_ms":1.5,"type":"boot","node":1}`,
		`{"step":2,"t_ms":1.5,"type":"send","from":1,"to":2,"kind":"VOTE","value":2,"term":3,"flag":true,"deliver_ms":12.345678}`,
		`{"step":3,"t_ms":2,"type":"send","from":1,"to":2,"kind":"OK","drop":"partition"}`,
		`{"step":4,"t_ms":3,"type":"drop","from":1,"to":2,"kind":"OK","reason":"crashed"}`,
		`{"step":5,"t_ms":3,"type":"state","node":2,"old":"crashed","new":"leader","leader":2,"term":0,"note":"why"}`,
		"{\"step\":6,\"t_ms\":4,\"type\":\"say\",\"text\":\"tab\\there \\\"quoted\\\" \\\\ bell\\u0007 del\\u007f → ★ \uFFFD\"}",
		`{"step":7,"t_ms":4,"type":"break"}`,
		`{"step":8,"t_ms":5,"type":"timer","node":3,"timer":"answer"}`,
	}
	for i, r := range recs {
		got := string(AppendJSON(nil, &r))
		if got != want[i] {
			t.Errorf("record %d:\n got %s\nwant %s", i, got, want[i])
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(got), &v); err != nil {
			t.Errorf("record %d is not JSON: %v: %s", i, err, got)
		}
	}
}

// TestAppendJSONLogPart writes a message's log part whole: each number that is not 0, every
// entry with its proposer where it has one.
func TestAppendJSONLogPart(t *testing.T) {
	r := sim.Record{Step: 4, At: 30 * time.Millisecond, Type: sim.RecDeliver, Msg: algo.Message{Kind: "APPEND", From: 1, To: 2, Term: 3,
		Log: &algo.LogPart{Index: 4, IndexTerm: 3, Entries: []algo.Entry{{Index: 5, Term: 3, Value: 17}, {Index: 6, Term: 3, By: 2, Value: 18}}}}}
	want := `{"step":4,"t_ms":30,"type":"deliver","from":1,"to":2,"kind":"APPEND","term":3,"log":{"index":4,"index_term":3,"entries":[{"index":5,"term":3,"value":17},{"index":6,"term":3,"by":2,"value":18}]}}`
	if got := string(AppendJSON(nil, &r)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	r.Msg.Log = &algo.LogPart{Commit: 2}
	if got := string(AppendJSON(nil, &r)); !strings.HasSuffix(got, `"term":3,"log":{"commit":2}}`) {
		t.Errorf("got %s", got)
	}
}
