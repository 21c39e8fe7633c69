package sweep

import (
	"reflect"
	"testing"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

const ms = time.Millisecond

// bully3 is Bully on 1..3 (3 leads) with a fixed delay of 10ms, heartbeat 50ms, timeout 150ms,
// and the given actions, for 2s.
func bully3(t *testing.T, actions ...sim.Action) sim.Config {
	t.Helper()
	info, err := algo.Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig(info, 3)
	cfg.Network.Delay = network.Delay{Min: 10 * ms, Max: 10 * ms}
	cfg.Actions, cfg.RunFor, cfg.Engine = actions, 2*time.Second, sim.Inline
	cfg.Trace = true
	return cfg
}

func act(at time.Duration, op sim.Op, ids ...algo.ID) sim.Action {
	return sim.Action{At: at, Op: op, Nodes: ids}
}

// The definition of a false suspicion, on runs whose answer is known: a crashed, a paused or a
// partitioned leader is suspected rightly (0); a leader whose heartbeats are slowed beyond the
// timeout is alive and reachable, and both followers suspect it falsely.
func TestFalseSuspicionDefinition(t *testing.T) {
	slow := func(from, to algo.ID) sim.Action {
		return sim.Action{At: 500 * ms, Op: sim.SetDelay, Link: &network.Link{From: from, To: to}, Delay: network.Delay{Min: 400 * ms, Max: 400 * ms}}
	}
	tests := []struct {
		name string
		cfg  sim.Config
		want int
	}{
		{"quiet", bully3(t), 0},
		{"leader crashes", bully3(t, act(500*ms, sim.Crash, 3)), 0},
		{"leader paused", bully3(t, act(500*ms, sim.Pause, 3)), 0},
		{"leader cut off", bully3(t, sim.Action{At: 500 * ms, Op: sim.Partition, Groups: [][]algo.ID{{3}}}), 0},
		// The links from 3 slowed to 400ms for good: 1 and 2 each time out on a live leader
		// and call an election; 3 answers OK (late) and asserts itself again, so they time out
		// again, round after round. Only their first suspicion at 650ms and the rounds after
		// count; with the links from 3 slowed, every round is one suspicion each.
		{"heartbeats slowed", bully3(t, slow(3, 1), slow(3, 2)), -1},
	}
	for _, tt := range tests {
		st, err := measure(tt.cfg)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tt.want >= 0 && st.falseSuspicions != tt.want:
			t.Errorf("%s: %d false suspicions, want %d", tt.name, st.falseSuspicions, tt.want)
		case tt.want < 0 && (st.falseSuspicions == 0 || st.falseSuspicions%2 != 0):
			t.Errorf("%s: %d false suspicions, want some, as many from 1 as from 2", tt.name, st.falseSuspicions)
		}
	}
}

// The same seed gives the same table whatever the number of workers; another seed, another.
func TestSweepWorkersDoNotMatter(t *testing.T) {
	info, _ := algo.Lookup("bully")
	base := sim.DefaultConfig(info, 5)
	base.Network.Delay = network.Delay{Min: 5 * ms, Max: 80 * ms}
	base.Actions = []sim.Action{act(time.Second, sim.Crash, 5)}
	base.RunFor, base.Engine, base.Seed = 2*time.Second, sim.Inline, 7
	opts := Options{Base: base, Param: "timeout", Runs: 12,
		Values: []algo.Value{{Min: 60 * ms, Max: 60 * ms}, {Min: 120 * ms, Max: 120 * ms}, {Min: 300 * ms, Max: 300 * ms}},
		Labels: []string{"60ms", "120ms", "300ms"}}
	var want *Result
	for _, workers := range []int{1, 2, 5} {
		opts.Workers = workers
		calls := 0
		res, err := Run(opts, func(done, total int) {
			calls++
			if done != calls || total != 36 {
				t.Errorf("progress %d of %d at call %d", done, total, calls)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = res
			continue
		}
		if !reflect.DeepEqual(res, want) {
			t.Errorf("%d workers:\n%+v\nwant\n%+v", workers, res, want)
		}
	}
	// The trade-off: fewer false suspicions and a longer recovery as the timeout grows.
	r := want.Rows
	if !(r[0].FalseSuspicions.Mean > r[1].FalseSuspicions.Mean && r[1].FalseSuspicions.Mean >= r[2].FalseSuspicions.Mean) ||
		!(r[0].Recovery.Mean < r[2].Recovery.Mean) {
		t.Errorf("no trade-off: %+v", r)
	}
	opts.Base.Seed = 8
	other, _ := Run(opts, nil)
	if reflect.DeepEqual(other, want) {
		t.Error("seed 8 gave the table of seed 7")
	}
}

func TestStat(t *testing.T) {
	for _, tt := range []struct {
		in   []float64
		want Stat
	}{
		{nil, Stat{}},
		{[]float64{4}, Stat{4, 4, 1}},
		{[]float64{3, 1, 2, 4}, Stat{2.5, 4, 4}},
		// 20 samples 1..20: the 95th percentile by nearest rank is the 19th.
		{[]float64{20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, Stat{10.5, 19, 20}},
	} {
		if got := stat(tt.in); got != tt.want {
			t.Errorf("stat(%v) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}
