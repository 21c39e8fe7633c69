package algo_test

import (
	"slices"
	"testing"
	"time"

	"electsim/algo"
	"electsim/algo/algotest"
	"electsim/network"
	"electsim/sim"
)

// client-go's lease passes the whole conformance check (algotest.Algorithm), fencing on and off.
func TestK8sLeaseConforms(t *testing.T) {
	info, err := algo.Lookup("k8s-lease")
	if err != nil {
		t.Fatal(err)
	}
	algotest.Algorithm(t, info, 10)
}

// k8sRun runs client-go's lease among 5 nodes (1–3 candidates, 4 the API server, 5 the
// resource), every message 10ms, to runFor, with actions, on engine e.
func k8sRun(t *testing.T, e sim.Engine, runFor time.Duration, actions []sim.Action, kv ...string) sim.Summary {
	t.Helper()
	info, _ := algo.Lookup("k8s-lease")
	return zabRun(t, info, 5, e, runFor, actions, kv...)
}

func sent(sum sim.Summary, kind string) int64 {
	if i := slices.Index(sum.Kinds, kind); i >= 0 {
		return sum.Sent[i]
	}
	return -1
}

func violations(sum sim.Summary, property string) []string {
	var vs []string
	for _, v := range sum.Violations {
		if v.Property == property {
			vs = append(vs, v.String())
		}
	}
	return vs
}

// At boot the three candidates find no Lease and try to create it at version 0 at once: the
// API server applies the first UPDATE and answers the other two 409 Conflict.
func TestK8sLeaseCompareAndSwap(t *testing.T) {
	sum := k8sRun(t, sim.Inline, 45*time.Millisecond, nil)
	if sent(sum, algo.KindUpdate) != 3 || sent(sum, algo.KindConflict) != 2 {
		t.Errorf("UPDATE %d, CONFLICT %d; want 3 and 2", sent(sum, algo.KindUpdate), sent(sum, algo.KindConflict))
	}
	if sum.Nodes[0].Status != sim.Leader {
		t.Errorf("node 1, first to UPDATE, is %s", sum.Nodes[0].Status)
	}
}

// The holder 1 freezes at 260ms for 640ms. The others saw its last renewal at 220ms, and 2
// takes the Lease over at 520ms, 300ms later by its clock. 1 wakes still leading — its round of
// renewals starts afresh — and writes: without fencing the resource takes its writes after 2's,
// stale ones; with fencing it refuses the first, and 1 stops leading.
func TestK8sLeasePausedHolder(t *testing.T) {
	pause := []sim.Action{
		{At: 260 * time.Millisecond, Op: sim.Pause, Nodes: []algo.ID{1}},
		{At: 900 * time.Millisecond, Op: sim.Resume, Nodes: []algo.ID{1}},
	}
	for _, e := range []sim.Engine{sim.Goroutine, sim.Inline} {
		sum := k8sRun(t, e, 1200*time.Millisecond, pause)
		if got := violations(sum, sim.AtMostOneLeader); !slices.Equal(got, []string{"at-most-one-leader 540ms–1100ms: nodes 1 2"}) {
			t.Errorf("%s: %q, want 1 and 2 leading from 540ms until 1's round gives up at 1100ms", e, got)
		}
		stale := violations(sum, algo.PropNoStaleWrite)
		if len(stale) != 4 || stale[0] != "no-stale-write 910ms: nodes 1 5 (the resource accepted token 0 from 1 after token 1)" {
			t.Errorf("%s: stale writes %q, want four, the first at 910ms", e, stale)
		}
		sum = k8sRun(t, e, 1200*time.Millisecond, pause, "fencing=on")
		if got := violations(sum, sim.AtMostOneLeader); !slices.Equal(got, []string{"at-most-one-leader 540ms–920ms: nodes 1 2"}) {
			t.Errorf("%s, fencing: %q, want 1 and 2 leading until 1's REJECT at 920ms", e, got)
		}
		if got := violations(sum, algo.PropNoStaleWrite); len(got) != 0 || sent(sum, algo.KindReject) != 1 {
			t.Errorf("%s, fencing: stale writes %q, REJECT %d; want none and 1", e, got, sent(sum, algo.KindReject))
		}
		if sum.Leader != 2 {
			t.Errorf("%s, fencing: agreed leader %d at the end, want 2", e, sum.Leader)
		}
	}
}

// A holder whose clock runs at 0.4 of true time — slower than the ratio of lease-duration to
// renew-deadline, 1.5, tolerates — cut off from the API server, believes in its round of
// renewals for 2.5 renew-deadlines: it leads beside its successor from 540ms to 820ms, and its
// write of 700ms is stale.
func TestK8sLeaseSlowClock(t *testing.T) {
	sum := k8sRun(t, sim.Inline, 1500*time.Millisecond, []sim.Action{
		{At: 100 * time.Millisecond, Op: sim.Clock, Nodes: []algo.ID{1}, Rate: 0.4},
		{At: 300 * time.Millisecond, Op: sim.Cut, Link: &network.Link{From: 1, To: 4}},
	})
	if got := violations(sum, sim.AtMostOneLeader); !slices.Equal(got, []string{"at-most-one-leader 540ms–820ms: nodes 1 2"}) {
		t.Errorf("%q, want 1 and 2 leading from 540ms to 820ms", got)
	}
	if got := violations(sum, algo.PropNoStaleWrite); !slices.Equal(got, []string{"no-stale-write 710ms: nodes 1 5 (the resource accepted token 0 from 1 after token 1)"}) {
		t.Errorf("%q, want 1's write accepted at 710ms after 2's", got)
	}
}
