package algo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// The tests below drive one LowestID node by hand through a fakeEnv, on the cluster given in
// the ring order 3 1 4 2 (lowest-id ignores the order) with a max delay of 10ms, and check the
// rules of docs/algorithms.md (Lowest-ID). Time is moved by hand with the fake's now.

// lowCluster returns the cluster {1..4} with max delay 10ms and the given parameters.
func lowCluster(t testing.TB, params Params) *Cluster {
	t.Helper()
	c, err := NewCluster(ringOrder, 10*ms, params)
	if err != nil {
		t.Fatalf("NewCluster: %v", err)
	}
	return c
}

// heartbeatFrom delivers a HEARTBEAT from each of from to l at the fake's current time.
func heartbeatFrom(l *LowestID, env *fakeEnv, from ...ID) {
	for _, j := range from {
		l.Receive(env, Message{Kind: KindHeartbeat, From: j, To: l.id})
	}
}

// newLowest boots node id at time 0, delivers a HEARTBEAT from each of heard at 10ms, and ends
// the listening at 150ms; recordings are cleared. With heard nil it stays listening (booted at
// 0, time 10ms).
func newLowest(t testing.TB, id ID, heard []ID, listen bool, tracing bool) (*LowestID, *fakeEnv) {
	t.Helper()
	l := NewLowestID(id, lowCluster(t, nil))
	env := newFakeEnv(t, id, tracing)
	l.Start(env)
	env.now = 10 * ms
	heartbeatFrom(l, env, heard...)
	if listen {
		env.now = 150 * ms
		delete(env.Pending, timerListen)
		l.Timer(env, timerListen)
	}
	env.Clear()
	return l, env
}

func wantLowState(t testing.TB, l *LowestID, want State) {
	t.Helper()
	if got := l.State(); got != want {
		t.Errorf("state = %+v, want %+v", got, want)
	}
}

// lowestState is the state of node id whose view's lowest id is lowest.
func lowestState(id, lowest ID) State {
	if id == lowest {
		return State{Status: Leader, Leader: id}
	}
	return State{Status: Follower, Leader: lowest}
}

// tick fires the heartbeat timer at time now.
func tick(l *LowestID, env *fakeEnv, now time.Duration) {
	env.now = now
	delete(env.Pending, timerHeartbeat)
	l.Timer(env, timerHeartbeat)
}

// "For timeout after boot a node is a Candidate (it is still listening)"; "Every node sends
// HEARTBEAT to every other node each heartbeat" — from boot: HEARTBEAT to all others, heartbeat
// timer 50ms, listen timer = timeout 150ms.
func TestLowestIDStart(t *testing.T) {
	for _, id := range ringOrder {
		t.Run(fmt.Sprint(id), func(t *testing.T) {
			l := NewLowestID(id, lowCluster(t, nil))
			env := newFakeEnv(t, id, true)
			l.Start(env)
			wantLowState(t, l, State{Status: Candidate})
			var others []ID
			for _, j := range []ID{1, 2, 3, 4} {
				if j != id {
					others = append(others, j)
				}
			}
			wantSent(t, env, sends(KindHeartbeat, others...))
			wantPending(t, env, map[string]time.Duration{timerHeartbeat: 50 * ms, timerListen: 150 * ms})
			wantNote(t, env)
		})
	}
}

// "For timeout after boot a node is a Candidate (it is still listening); after that its leader
// is the lowest id in its view, and it is Leader iff that is itself." Heartbeats and heartbeat
// ticks while listening choose nobody.
func TestLowestIDListenThenChoose(t *testing.T) {
	cases := []struct {
		id    ID
		heard []ID
		want  ID
	}{
		{3, []ID{1, 2, 4}, 1},
		{3, []ID{4, 2}, 2},
		{3, []ID{4}, 3},
		{3, nil, 3},
		{1, []ID{2, 3, 4}, 1},
		{4, []ID{3}, 3},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d/%v", c.id, c.heard), func(t *testing.T) {
			l, env := newLowest(t, c.id, nil, false, true)
			for i, j := range c.heard {
				env.now = time.Duration(20+10*i) * ms
				heartbeatFrom(l, env, j)
			}
			tick(l, env, 50*ms)
			tick(l, env, 100*ms)
			heartbeatFrom(l, env, c.heard...)
			wantLowState(t, l, State{Status: Candidate})
			env.Clear()
			env.now = 150 * ms
			delete(env.Pending, timerListen)
			l.Timer(env, timerListen)
			wantLowState(t, l, lowestState(c.id, c.want))
			wantSent(t, env, nil)
			wantPending(t, env, map[string]time.Duration{timerHeartbeat: 50 * ms})
			wantNote(t, env)
		})
	}
}

// "A node's view is itself plus every node heard from within timeout": a node not heard from
// for longer is dropped at the next heartbeat tick, and the leader is chosen again.
func TestLowestIDDropsSilentNodes(t *testing.T) {
	l, env := newLowest(t, 3, []ID{1, 2, 4}, true, true) // 1, 2 and 4 heard at 10ms
	wantLowState(t, l, State{Status: Follower, Leader: 1})
	env.now = 120 * ms
	heartbeatFrom(l, env, 2) // 2 again at 120ms; 1 and 4 fall silent
	env.Clear()
	tick(l, env, 160*ms) // 1 heard 150ms ago: still within timeout
	wantLowState(t, l, State{Status: Follower, Leader: 1})
	wantSent(t, env, sends(KindHeartbeat, 1, 2, 4))
	if len(env.notes) != 0 {
		t.Errorf("notes %q without a change", env.notes)
	}
	env.Clear()
	tick(l, env, 200*ms) // 1 and 4 silent for 190ms: dropped
	wantLowState(t, l, State{Status: Follower, Leader: 2})
	wantNote(t, env)
	if !strings.Contains(env.Notes(), "no HEARTBEAT from 1 and 4 for 150ms") {
		t.Errorf("note %q does not name the dropped nodes 1 and 4", env.Notes())
	}
	env.Clear()
	tick(l, env, 250*ms) // 2 silent for 130ms: kept
	wantLowState(t, l, State{Status: Follower, Leader: 2})
	env.Clear()
	tick(l, env, 300*ms) // 2 silent for 180ms: dropped, I am alone
	wantLowState(t, l, State{Status: Leader, Leader: 3})
	if !strings.Contains(env.Notes(), "no HEARTBEAT from 2 for 150ms") {
		t.Errorf("note %q does not name the dropped node 2", env.Notes())
	}
}

// "A sender lower than my leader changes who leads at once": no tick needed.
func TestLowestIDLowerHeartbeatSwitchesAtOnce(t *testing.T) {
	cases := []struct {
		id    ID
		heard []ID
		from  ID
	}{
		{3, []ID{2, 4}, 1}, // a follower of 2 hears 1
		{2, []ID{3, 4}, 1}, // the leader 2 hears 1
		{4, nil, 3},        // a lone leader hears 3
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d/%v/%d", c.id, c.heard, c.from), func(t *testing.T) {
			l, env := newLowest(t, c.id, c.heard, true, true)
			env.now = 170 * ms
			heartbeatFrom(l, env, c.from)
			wantLowState(t, l, State{Status: Follower, Leader: c.from})
			wantSent(t, env, nil)
			if len(env.ops) != 0 {
				t.Errorf("timer operations %v, want none", env.Ops())
			}
			wantNote(t, env)
		})
	}
}

// "its leader is the lowest id in its view": a HEARTBEAT from a node higher than the leader never
// changes the leader while the lower one keeps heartbeating; once that one falls silent, the
// next lowest takes over at the next tick after timeout.
func TestLowestIDHigherHeartbeatNeverTakesOver(t *testing.T) {
	for _, id := range []ID{1, 3} {
		t.Run(fmt.Sprint(id), func(t *testing.T) {
			l, env := newLowest(t, id, []ID{1, 2, 4}, true, false)
			want := lowestState(id, 1)
			wantLowState(t, l, want)
			now := 150 * ms
			for range 20 {
				now += 50 * ms
				env.now = now - 10*ms
				heartbeatFrom(l, env, 2, 4)
				if id != 1 {
					heartbeatFrom(l, env, 1)
				}
				tick(l, env, now)
				wantLowState(t, l, want)
			}
			if id == 1 {
				return
			}
			// 1 falls silent: it goes from the view after timeout, at a tick.
			last := now - 10*ms
			for {
				now += 50 * ms
				env.now = now - 10*ms
				heartbeatFrom(l, env, 2, 4)
				tick(l, env, now)
				if now-last <= 150*ms {
					if l.State().Leader != 1 {
						t.Fatalf("leader %d at %s, 1 heard %s before: within timeout", l.State().Leader, now, now-last)
					}
					continue
				}
				wantLowState(t, l, State{Status: Follower, Leader: 2})
				break
			}
		})
	}
}

// Every heartbeat tick, listening or not, sends HEARTBEAT to every other node and re-arms the
// heartbeat timer at 50ms.
func TestLowestIDHeartbeatTimer(t *testing.T) {
	for _, listen := range []bool{false, true} {
		l, env := newLowest(t, 2, []ID{1}, listen, false)
		for i := range 3 {
			env.Clear()
			tick(l, env, time.Duration(i+2)*40*ms)
			wantSent(t, env, sends(KindHeartbeat, 1, 3, 4))
			if got := env.Sets(timerHeartbeat); !slices.Equal(got, []time.Duration{50 * ms}) {
				t.Errorf("heartbeat timer set %v, want once at 50ms", got)
			}
		}
	}
}

// Elect: "lowest-id has no elections": while listening it does nothing (a note when tracing);
// after, it looks at its view again at once.
func TestLowestIDElect(t *testing.T) {
	t.Run("listening", func(t *testing.T) {
		l, env := newLowest(t, 3, []ID{1}, false, true)
		l.Elect(env)
		wantLowState(t, l, State{Status: Candidate})
		wantSent(t, env, nil)
		if len(env.ops) != 0 {
			t.Errorf("timer operations %v, want none", env.Ops())
		}
		wantNote(t, env)
	})
	t.Run("after", func(t *testing.T) {
		l, env := newLowest(t, 3, []ID{1, 2}, true, true) // 1 and 2 heard at 10ms
		env.now = 160 * ms
		heartbeatFrom(l, env, 2)
		env.Clear()
		l.Elect(env) // nothing changed: 1 heard 150ms ago
		wantLowState(t, l, State{Status: Follower, Leader: 1})
		wantSent(t, env, nil)
		if len(env.ops) != 0 {
			t.Errorf("timer operations %v, want none", env.Ops())
		}
		env.now = 200 * ms // 1 silent for 190ms
		l.Elect(env)
		wantLowState(t, l, State{Status: Follower, Leader: 2})
		wantSent(t, env, nil)
		if len(env.ops) != 0 {
			t.Errorf("timer operations %v, want none", env.Ops())
		}
		wantNote(t, env)
		if !strings.Contains(env.Notes(), "no HEARTBEAT from 1") {
			t.Errorf("note %q does not name the dropped node", env.Notes())
		}
	})
}

// "Start boots the node, or restarts it after a crash; its state is fresh either way": a
// restarted node listens again, and forgets whom it heard before.
func TestLowestIDRestart(t *testing.T) {
	l, env := newLowest(t, 3, []ID{1}, true, true)
	wantLowState(t, l, State{Status: Follower, Leader: 1})
	env.now = 160 * ms
	l.Start(env)
	wantLowState(t, l, State{Status: Candidate})
	wantPending(t, env, map[string]time.Duration{timerHeartbeat: 50 * ms, timerListen: 150 * ms})
	env.now = 170 * ms
	heartbeatFrom(l, env, 4)
	env.now = 310 * ms // 1 heard 300ms ago, before the restart
	l.Timer(env, timerListen)
	wantLowState(t, l, State{Status: Leader, Leader: 3})
}

// Other message kinds are not lowest-id's: ignored.
func TestLowestIDIgnoresOtherKinds(t *testing.T) {
	l, env := newLowest(t, 3, []ID{2}, true, true)
	for _, k := range []string{KindElection, KindOK, KindCoordinator, KindElected, KindAck} {
		l.Receive(env, Message{Kind: k, From: 1, To: 3, Value: 1})
	}
	wantLowState(t, l, State{Status: Follower, Leader: 2})
	if len(env.sends)+len(env.ops)+len(env.notes) != 0 {
		t.Errorf("sent %v, timer operations %v, notes %q: want nothing", env.Sent(), env.Ops(), env.notes)
	}
}

// lowModel is what a LowestID node should know, kept by the walk independently of the node:
// whether it is listening, and when it last heard from each node since it booted.
type lowModel struct {
	listening bool
	heard     map[ID]time.Duration
}

// lowest returns the lowest id of id's view at now: itself and every node heard within 150ms.
func (m *lowModel) lowest(id ID, now time.Duration) ID {
	low := id
	for j, at := range m.heard {
		if now-at <= 150*ms && j < low {
			low = j
		}
	}
	return low
}

// walkLowest feeds every node a long seeded random sequence of inputs — heartbeats (and now and
// then another kind) from random nodes, armed timers, elect, restarts — with time moving by
// 0–60ms a step, and calls check after each step with the model updated.
func walkLowest(t *testing.T, tracing bool, check func(t *testing.T, l *LowestID, in bullyInput, before, after State, env *fakeEnv, m *lowModel)) {
	for _, id := range ringOrder {
		var others []ID
		for _, j := range ringOrder {
			if j != id {
				others = append(others, j)
			}
		}
		for seed := range uint64(20) {
			rng := rand.New(rand.NewPCG(seed, uint64(id)))
			l := NewLowestID(id, lowCluster(t, nil))
			env := newFakeEnv(t, id, tracing)
			l.Start(env)
			model := &lowModel{listening: true, heard: map[ID]time.Duration{}}
			for step := range 300 {
				env.Clear()
				env.now += time.Duration(rng.IntN(61)) * ms
				var in bullyInput
				switch n := rng.IntN(20); {
				case n == 0:
					in = bullyInput{what: "start"}
					model = &lowModel{listening: true, heard: map[ID]time.Duration{}}
				case n < 3:
					in = bullyInput{what: "elect"}
				case n < 9 && len(env.Pending) > 0:
					in = bullyInput{what: "timer", name: env.anyTimer(rng)}
					if in.name == timerListen {
						model.listening = false
					}
				default:
					kind := KindHeartbeat
					if n == 19 {
						kind = KindElection
					}
					in = bullyInput{what: "receive", msg: Message{Kind: kind, From: others[rng.IntN(len(others))], To: id}}
					if kind == KindHeartbeat {
						model.heard[in.msg.From] = env.now
					}
				}
				before := l.State()
				applyInput(l, env, in)
				check(t, l, in, before, l.State(), env, model)
				if t.Failed() {
					t.Fatalf("node %d, seed %d, step %d: %s from %+v", id, seed, step, in, before)
				}
			}
		}
	}
}

// "algorithms call Note only when Tracing is true": with tracing off, no input leads to a Note.
func TestLowestIDNoNotesWithoutTracing(t *testing.T) {
	walkLowest(t, false, func(*testing.T, *LowestID, bullyInput, State, State, *fakeEnv, *lowModel) {})
}

// "Note records why the node did what it did": with tracing on, every change of state comes
// with a non-empty note that starts with a reason. The walk also checks §3.3 against a model of
// the view: a Candidate while listening and only then; whenever the node chooses (the end of
// listening, a heartbeat tick, elect) its leader is the lowest id heard from within timeout,
// itself included, and it is Leader iff that is itself; a HEARTBEAT from below the leader makes
// the sender leader at once, from above changes nothing; only HEARTBEAT is sent, to the others;
// timers are heartbeat 50ms and listen 150ms.
func TestLowestIDStateChangesHaveNotes(t *testing.T) {
	walkLowest(t, true, func(t *testing.T, l *LowestID, in bullyInput, before, after State, env *fakeEnv, m *lowModel) {
		if before != after {
			if len(env.notes) == 0 || slices.Contains(env.notes, "") || strings.HasPrefix(env.notes[len(env.notes)-1], ":") {
				t.Errorf("%+v → %+v with notes %q", before, after, env.notes)
			}
		}
		if m.listening {
			if after != (State{Status: Candidate}) {
				t.Errorf("listening, state %+v, want a candidate with no leader", after)
			}
		} else {
			chooses := in.what == "elect" || in.what == "timer" && (in.name == timerHeartbeat || in.name == timerListen)
			switch {
			case chooses:
				if want := lowestState(l.id, m.lowest(l.id, env.now)); after != want {
					t.Errorf("state %+v, want %+v", after, want)
				}
			case in.what == "receive" && in.msg.Kind == KindHeartbeat && in.msg.From < before.Leader:
				if want := lowestState(l.id, in.msg.From); after != want {
					t.Errorf("HEARTBEAT from %d below leader %d: state %+v, want %+v", in.msg.From, before.Leader, after, want)
				}
			case before != after:
				t.Errorf("%s changed %+v → %+v", in, before, after)
			}
		}
		for _, o := range env.ops {
			if o.Op == "set" && !(o.Name == timerHeartbeat && o.After == 50*ms || o.Name == timerListen && o.After == 150*ms) {
				t.Errorf("timer operation %s", o)
			}
		}
		for _, m := range env.sends {
			if m.Kind != KindHeartbeat || m.To == l.id {
				t.Errorf("sent %s", m)
			}
		}
	})
}

// The registry entry, its defaults and its warning: "timeout ≤ heartbeat + max delay" means live
// nodes are dropped from views.
func TestLowestIDInfo(t *testing.T) {
	info, err := Lookup("lowest-id")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(info.Kinds, []string{"HEARTBEAT"}) || !info.IsRoutine("HEARTBEAT") || info.Terms {
		t.Errorf("Kinds %v Routine %v Terms %v", info.Kinds, info.Routine, info.Terms)
	}
	if n := info.New(2, lowCluster(t, nil)); n.State() != (State{}) {
		t.Errorf("unstarted node state %+v", n.State())
	}
	cfg := newLowestIDConfig(lowCluster(t, nil))
	for _, p := range info.Params {
		v, err := info.ParseParam(p.Key, p.Default)
		if err != nil {
			t.Fatal(err)
		}
		used := map[string]time.Duration{"heartbeat": cfg.heartbeat, "timeout": cfg.timeout}[p.Key]
		if v.Min != used {
			t.Errorf("%s: documented default %s, node uses %s", p.Key, p.Default, used)
		}
	}
	cases := []struct {
		maxDelay          time.Duration
		heartbeat, limit  string
		warns             bool
		heartbeatOverride bool
	}{
		{10 * ms, "", "", false, false},
		{100 * ms, "", "", true, false},     // 150ms = 50ms + 100ms
		{99 * ms, "", "", false, false},     // 150ms > 50ms + 99ms
		{10 * ms, "", "60ms", true, false},  // 60ms = 50ms + 10ms
		{10 * ms, "", "61ms", false, false}, // just enough
		{10 * ms, "140ms", "", true, true},  // 150ms = 140ms + 10ms
	}
	for _, c := range cases {
		params := Params{}
		if c.limit != "" {
			v, _ := info.ParseParam("timeout", c.limit)
			params["timeout"] = v
		}
		if c.heartbeat != "" {
			v, _ := info.ParseParam("heartbeat", c.heartbeat)
			params["heartbeat"] = v
		}
		cl, err := NewCluster(ringOrder, c.maxDelay, params)
		if err != nil {
			t.Fatal(err)
		}
		got := info.Warnings(cl)
		if c.warns != (len(got) == 1) || len(got) > 1 {
			t.Errorf("max delay %s, heartbeat %q, timeout %q: warnings %q, want a warning: %v", c.maxDelay, c.heartbeat, c.limit, got, c.warns)
		}
		if c.warns && len(got) == 1 && !strings.Contains(got[0], "timeout") {
			t.Errorf("warning %q does not name timeout", got[0])
		}
	}
	// Parameters reach the node.
	hb, _ := info.ParseParam("heartbeat", "20ms")
	to, _ := info.ParseParam("timeout", "300ms")
	l := NewLowestID(1, lowCluster(t, Params{"heartbeat": hb, "timeout": to}))
	env := newFakeEnv(t, 1, false)
	l.Start(env)
	wantPending(t, env, map[string]time.Duration{timerHeartbeat: 20 * ms, timerListen: 300 * ms})
}

// NewLowestID panics on an id that is not in the cluster: a broken invariant of the engine.
func TestLowestIDNewUnknownIDPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewLowestID(9) did not panic")
		}
	}()
	NewLowestID(9, lowCluster(t, nil))
}
