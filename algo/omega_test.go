package algo

import (
	"strings"
	"testing"
)

// newOmegaNode returns process id of the cluster {1..n} (max delay 15ms, params), with a tracing
// fake env, not yet started.
func newOmegaNode(t testing.TB, id ID, n int, kv ...string) (*Omega, *fakeEnv) {
	t.Helper()
	ids := make([]ID, n)
	for i := range ids {
		ids[i] = ID(i + 1)
	}
	c, err := NewCluster(ids, 15*ms, algoParams(t, "omega", kv...))
	if err != nil {
		t.Fatal(err)
	}
	return NewOmega(id, c), newFakeEnv(t, id, true)
}

func epochBeat(from ID, epoch uint32) Message {
	return Message{Kind: KindHeartbeat, From: from, Phase: epoch}
}

func fireOmega(o *Omega, env *fakeEnv, name string) {
	delete(env.Pending, name)
	o.Timer(env, name)
}

// Every boot is a recovery: the epoch on stable storage goes up by one, the process trusts the
// top rank (the lowest id) before it has heard anyone, heartbeats its epoch to every other
// process and starts its first period of `timeout`.
func TestOmegaStart(t *testing.T) {
	o, env := newOmegaNode(t, 3, 4)
	o.Start(env)
	if env.Disk[diskEpoch] != 1 || o.State() != (State{Status: Follower, Leader: 1}) {
		t.Errorf("epoch on disk %d, state %+v: want 1, following 1", env.Disk[diskEpoch], o.State())
	}
	wantSends(t, env, "HEARTBEAT(phase 1) 3→1", "HEARTBEAT(phase 1) 3→2", "HEARTBEAT(phase 1) 3→4")
	if env.Pending[timerPeriod] != 100*ms || env.Pending[timerHeartbeat] != 50*ms {
		t.Errorf("pending %v: want the period in 100ms, the next heartbeat in 50ms", env.Pending)
	}
	wantNote(t, env)
	// Two recoveries later: epoch 3, and the top rank trusted again — itself, for node 1.
	disk := env.Disk
	for range 2 {
		o, env = newOmegaNode(t, 1, 4)
		env.Disk = disk
		o.Start(env)
	}
	if env.Disk[diskEpoch] != 3 || o.State() != (State{Status: Leader, Leader: 1}) {
		t.Errorf("after two recoveries: epoch %d, state %+v; want 3, trusting itself", env.Disk[diskEpoch], o.State())
	}
	env.Clear()
	fireOmega(o, env, timerHeartbeat)
	wantSends(t, env, "HEARTBEAT(phase 3) 1→2", "HEARTBEAT(phase 3) 1→3", "HEARTBEAT(phase 3) 1→4")
}

// At the end of a period a process trusts the lowest (epoch, id) among those it heard in it and
// itself; a change lengthens the period by `timeout`, up to `max-timeout`; what it heard is
// forgotten for the next period.
func TestOmegaPeriodSelectsLowestEpoch(t *testing.T) {
	o, env := newOmegaNode(t, 3, 4)
	o.Start(env)
	// A period without 1: among 2 (epoch 2), 4 (epoch 1) and me (epoch 1), (1, 3) is lowest.
	o.Receive(env, epochBeat(2, 2))
	o.Receive(env, epochBeat(4, 1))
	env.Clear()
	fireOmega(o, env, timerPeriod)
	if o.State() != (State{Status: Leader, Leader: 3}) || env.Pending[timerPeriod] != 200*ms {
		t.Errorf("state %+v, pending %v: want 3 trusting itself, a period of 200ms", o.State(), env.Pending)
	}
	if len(env.notes) != 1 || !strings.Contains(env.notes[0], "the lowest (epoch, id) is 3's (1, 3) — I trust it instead of 1; my period grows to 200ms") {
		t.Errorf("notes %q", env.notes)
	}
	// 4 with epoch 1 and a later, higher epoch of 2 (which replaces it): 4 is at epoch 2 now.
	o.Receive(env, epochBeat(4, 1))
	o.Receive(env, epochBeat(4, 2))
	o.Receive(env, epochBeat(2, 1))
	env.Clear()
	fireOmega(o, env, timerPeriod)
	if o.State() != (State{Status: Follower, Leader: 2}) || env.Pending[timerPeriod] != 300*ms {
		t.Errorf("state %+v, pending %v: want following 2 (epoch 1, rank before 3), a period of 300ms", o.State(), env.Pending)
	}
	// Heard nobody: only itself is left. Then no change: the period stays.
	for _, want := range []string{"400ms", "400ms", "400ms"} {
		env.Clear()
		fireOmega(o, env, timerPeriod)
		if o.State().Leader != 3 || FormatDuration(env.Pending[timerPeriod]) != want {
			t.Errorf("state %+v, period %s: want 3, %s (max-timeout)", o.State(), FormatDuration(env.Pending[timerPeriod]), want)
		}
	}
	if len(env.sends) != 0 {
		t.Errorf("the end of a period sent %v: heartbeats go by their own timer", env.Sent())
	}
}

// A process that keeps recovering is passed over: its epoch rises above those that stayed up.
func TestOmegaUnstableProcessNotTrusted(t *testing.T) {
	o, env := newOmegaNode(t, 2, 3)
	o.Start(env)
	o.Receive(env, epochBeat(1, 4)) // 1 has recovered three times
	o.Receive(env, epochBeat(3, 1))
	fireOmega(o, env, timerPeriod)
	if o.State() != (State{Status: Leader, Leader: 2}) {
		t.Errorf("state %+v: want 2 trusting itself, (1, 2) below (4, 1)", o.State())
	}
}

// Ω has no elections: `elect` changes nothing and says so.
func TestOmegaElect(t *testing.T) {
	o, env := newOmegaNode(t, 2, 3)
	o.Start(env)
	env.Clear()
	o.Elect(env)
	if len(env.sends)+len(env.ops) != 0 || o.State().Leader != 1 || !strings.Contains(env.Notes(), "Ω has no elections") {
		t.Errorf("elect: sent %v, timers %v, state %+v, notes %q", env.Sent(), env.Ops(), o.State(), env.notes)
	}
}

// Parameters: max-timeout below timeout is refused; a max-timeout that a heartbeat and a delay
// can outlast is warned about.
func TestOmegaParams(t *testing.T) {
	info := omegaInfo()
	c, err := NewCluster([]ID{1, 2, 3}, 15*ms, algoParams(t, "omega", "timeout=200ms", "max-timeout=150ms"))
	if err != nil {
		t.Fatal(err)
	}
	if err := info.Validate(c); err == nil || !strings.Contains(err.Error(), "max-timeout 150ms is below timeout 200ms") {
		t.Errorf("Validate = %v", err)
	}
	checkWarnings(t, info, []ID{1, 2, 3}, 15*ms, nil, nil)
	checkWarnings(t, info, []ID{1, 2, 3}, 15*ms, algoParams(t, "omega", "timeout=50ms", "max-timeout=60ms"),
		[]string{"max-timeout 60ms is not more than heartbeat 50ms + the max delay 15ms"})
}
