package algo_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/algo/algotest"
	"electsim/network"
	"electsim/sim"
)

// Zab passes the whole conformance check: Clone and AppendState, both engines alike, every
// fault class survived, its declared guarantees held or shown broken, the highest id elected
// when every history is alike (algotest.Algorithm); and Clone and AppendState with histories
// that differ.
func TestZabConforms(t *testing.T) {
	info, err := algo.Lookup("zab")
	if err != nil {
		t.Fatal(err)
	}
	algotest.Algorithm(t, info, 10)
	t.Run("histories", func(t *testing.T) {
		algotest.Conformance(t, info, zabParams(t, info, "zxid=1:4,2:9,3:9", "epoch=1:1,2:0"))
	})
}

// zabParams parses key=value settings for algorithm info.
func zabParams(t *testing.T, info *algo.Info, kv ...string) algo.Params {
	t.Helper()
	p := algo.Params{}
	for _, s := range kv {
		k, v, _ := strings.Cut(s, "=")
		val, err := info.ParseParam(k, v)
		if err != nil {
			t.Fatal(err)
		}
		p[k] = val
	}
	return p
}

// zabRun runs info among n nodes with the given settings, every message 10ms, until runFor,
// with actions, on engine e, and returns its summary.
func zabRun(t *testing.T, info *algo.Info, n int, e sim.Engine, runFor time.Duration, actions []sim.Action, kv ...string) sim.Summary {
	t.Helper()
	cfg := sim.DefaultConfig(info, n)
	cfg.Params = zabParams(t, info, kv...)
	cfg.Network.Delay = network.Delay{Min: 10 * time.Millisecond, Max: 10 * time.Millisecond}
	cfg.RunFor, cfg.Engine, cfg.Actions = runFor, e, actions
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	return s.Run()
}

// "electsim run --algo zab --nodes 5 --set zxid=1:4,2:9,3:9,4:2,5:7 elects 3; crash it and 2
// leads": 2 and 3 have the newest history, and 3 the higher id; without 3, 2's history is
// still the newest, though 5's id is higher — on both engines.
func TestZabNewestHistoryWins(t *testing.T) {
	info, _ := algo.Lookup("zab")
	zxid := "zxid=1:4,2:9,3:9,4:2,5:7"
	for _, e := range []sim.Engine{sim.Goroutine, sim.Inline} {
		sum := zabRun(t, info, 5, e, time.Second, nil, zxid)
		if sum.Leader != 3 || len(sum.Violations) != 0 {
			t.Errorf("%s: agreed leader %d, violations %v; want 3 and none", e, sum.Leader, sum.Violations)
		}
		sum = zabRun(t, info, 5, e, 2*time.Second, []sim.Action{{At: time.Second, Op: sim.Crash, Nodes: []algo.ID{3}}}, zxid)
		if sum.Leader != 2 || len(sum.Violations) != 0 {
			t.Errorf("%s: after 3 crashed, agreed leader %d, violations %v; want 2 and none", e, sum.Leader, sum.Violations)
		}
		for _, v := range sum.Nodes {
			if v.ID != 3 && v.Term != 2 {
				t.Errorf("%s: after the second election node %d has epoch %d, want 2", e, v.ID, v.Term)
			}
		}
	}
}

// A server whose epoch is stale loses to one whose epoch is newer, however long its log: the
// epoch is compared before the zxid.
func TestZabStaleEpochLoses(t *testing.T) {
	info, _ := algo.Lookup("zab")
	sum := zabRun(t, info, 5, sim.Inline, time.Second, nil, "epoch=1:2,2:2,3:2,4:1,5:1", "zxid=1:3,2:5,3:4,4:20,5:20")
	if sum.Leader != 2 {
		t.Errorf("agreed leader %d, want 2: the longest log of the newest epoch", sum.Leader)
	}
}

// When every server boots at once with the same history and every message takes as long,
// each server hears the others' votes in the order of their ids and adopts each higher one:
// server k sends its vote once, and again for each of the n − k above it — (n−1)·n(n+1)/2
// NOTIFICATIONs, the most one round can take, as no server adopts a vote twice. Then each
// follower sends FOLLOWERINFO and ACKEPOCH, and the leader NEWEPOCH and NEWLEADER to each: n − 1
// of each.
func TestZabBootMessages(t *testing.T) {
	info, _ := algo.Lookup("zab")
	for n := 1; n <= 7; n++ {
		for _, e := range []sim.Engine{sim.Goroutine, sim.Inline} {
			sum := zabRun(t, info, n, e, 500*time.Millisecond, nil)
			sent := map[string]int64{}
			for i, k := range sum.Kinds {
				sent[k] = sum.Sent[i]
			}
			want := map[string]int64{
				algo.KindNotification: int64((n - 1) * n * (n + 1) / 2),
				algo.KindFollowerInfo: int64(n - 1), algo.KindNewEpoch: int64(n - 1), algo.KindAckEpoch: int64(n - 1),
				algo.KindNewLeader: int64(n - 1),
			}
			for k, w := range want {
				if sent[k] != w {
					t.Errorf("%d servers, %s: %d %s, want %d", n, e, sent[k], k, w)
				}
			}
			if sum.Leader != algo.ID(n) {
				t.Errorf("%d servers, %s: agreed leader %d, want %d", n, e, sum.Leader, n)
			}
		}
	}
}

// A server that restarts while a leader leads finds it through the answers of the servers
// that follow it, and follows it too: no new election, the same leader, its epoch joined.
func TestZabRestartJoinsTheLeader(t *testing.T) {
	info, _ := algo.Lookup("zab")
	sum := zabRun(t, info, 5, sim.Inline, 1500*time.Millisecond, []sim.Action{
		{At: 400 * time.Millisecond, Op: sim.Crash, Nodes: []algo.ID{2}},
		{At: 800 * time.Millisecond, Op: sim.Recover, Nodes: []algo.ID{2}},
	})
	if sum.Leader != 5 || sum.LeaderChanges != 1 {
		t.Errorf("agreed leader %d after %d leader changes, want 5 after 1", sum.Leader, sum.LeaderChanges)
	}
	for _, v := range sum.Nodes {
		if v.Term != 1 {
			t.Errorf("node %d has epoch %d, want 1: the epoch the leader established", v.ID, v.Term)
		}
	}
}

// leader-has-latest catches a Zab whose votes compare server ids first: 5, the highest id,
// wins though its zxid, 7, is older than 2's and 3's, which voted for it. Zab itself keeps it.
func TestZabLeaderHasLatestCatchesBrokenOrder(t *testing.T) {
	zxid := "zxid=1:4,2:9,3:9,4:2,5:7"
	broken := algo.BrokenZab()
	sum := zabRun(t, broken, 5, sim.Inline, time.Second, nil, zxid)
	var got []string
	for _, v := range sum.Violations {
		if v.Property == algo.PropLeaderHasLatest {
			got = append(got, v.String())
		}
	}
	want := "leader-has-latest 70ms: nodes 2 5 (5 leads with epoch 0, zxid 7, but 2, which voted for it in round 1, has epoch 0, zxid 9)"
	if !slices.Equal(got, []string{want}) {
		t.Errorf("violations %q, want %q", got, want)
	}
	if sum.Leader != 5 {
		t.Errorf("the broken order elected %d, want 5", sum.Leader)
	}
	info, _ := algo.Lookup("zab")
	if sum := zabRun(t, info, 5, sim.Inline, time.Second, nil, zxid); fmt.Sprint(sum.Violations) != "[]" {
		t.Errorf("Zab itself: violations %v", sum.Violations)
	}
}
