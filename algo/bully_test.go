package algo

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// The tests below drive one Bully node by hand through a fakeEnv, on the cluster {1,2,3,4,5}
// with a max delay of 15ms, and check each rule of docs/algorithms.md (Bully).

const ms = time.Millisecond

var bullyIDs = []ID{1, 2, 3, 4, 5}

// bullyCluster returns the cluster {1..5} with max delay 15ms and the given parameters.
func bullyCluster(t testing.TB, params Params) *Cluster {
	t.Helper()
	c, err := NewCluster(bullyIDs, 15*ms, params)
	if err != nil {
		t.Fatalf("NewCluster: %v", err)
	}
	return c
}

// bullySetup is the state a test puts a node in before the step it checks.
type bullySetup int

const (
	setupFresh     bullySetup = iota // constructed, not started: Follower with no leader
	setupCandidate                   // started, waiting for an OK
	setupWaiting                     // a Candidate that got an OK: waiting for COORDINATOR
	setupFollower                    // follows the node given as leader
	setupLeader                      // leads (a non-top node gets there by its answer timer)
)

func (s bullySetup) String() string {
	return [...]string{"fresh", "candidate", "waiting", "follower", "leader"}[s]
}

// newBully puts node id in the given state, using only the node's own inputs, and clears the
// fake's recordings so that the caller sees only the next step's effects. leader is the node a
// follower follows.
func newBully(t testing.TB, id ID, setup bullySetup, leader ID, tracing bool, params Params) (*Bully, *fakeEnv) {
	t.Helper()
	b := NewBully(id, bullyCluster(t, params))
	env := newFakeEnv(t, id, tracing)
	var want State
	switch setup {
	case setupFresh:
		want = State{Status: Follower}
	case setupCandidate:
		b.Start(env)
		want = State{Status: Candidate}
		if id == 5 {
			t.Fatalf("setup: node 5 cannot stay a candidate")
		}
	case setupWaiting:
		b.Start(env)
		b.Receive(env, Message{Kind: KindOK, From: 5, To: id})
		want = State{Status: Candidate}
	case setupFollower:
		if leader <= id {
			t.Fatalf("setup: node %d cannot follow %d", id, leader)
		}
		b.Start(env)
		b.Receive(env, Message{Kind: KindCoordinator, From: leader, To: id})
		want = State{Status: Follower, Leader: leader}
	case setupLeader:
		b.Start(env)
		if id != 5 {
			b.Timer(env, timerAnswer)
		}
		want = State{Status: Leader, Leader: id}
	}
	if b.State() != want {
		t.Fatalf("setup %s of node %d: state %+v, want %+v", setup, id, b.State(), want)
	}
	env.Clear()
	return b, env
}

// higherThan returns the ids of the cluster above id, ascending.
func higherThan(id ID) []ID {
	var h []ID
	for _, j := range bullyIDs {
		if j > id {
			h = append(h, j)
		}
	}
	return h
}

// othersThan returns the ids of the cluster other than id, ascending.
func othersThan(id ID) []ID {
	var o []ID
	for _, j := range bullyIDs {
		if j != id {
			o = append(o, j)
		}
	}
	return o
}

// sends builds the expected Sent() list: every id in to receives kind.
func sends(kind string, to ...ID) []string {
	out := make([]string, len(to))
	for i, j := range to {
		out[i] = fmt.Sprintf("%s→%d", kind, j)
	}
	return out
}

func wantState(t testing.TB, b *Bully, want State) {
	t.Helper()
	if got := b.State(); got != want {
		t.Errorf("state = %+v, want %+v", got, want)
	}
}

func wantSent(t testing.TB, env *fakeEnv, want []string) {
	t.Helper()
	if got := env.Sent(); !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
}

// wantPending checks that exactly the named timers are armed, with those durations.
func wantPending(t testing.TB, env *fakeEnv, want map[string]time.Duration) {
	t.Helper()
	if len(env.Pending) != len(want) {
		t.Errorf("pending timers %v, want %v", env.Pending, want)
		return
	}
	for name, d := range want {
		if got, ok := env.Pending[name]; !ok || got != d {
			t.Errorf("pending timers %v, want %v", env.Pending, want)
			return
		}
	}
}

// wantQuiet checks that the step did nothing: no sends, no timer set or cancelled, and the
// state is unchanged.
func wantQuiet(t testing.TB, b *Bully, env *fakeEnv, before State) {
	t.Helper()
	if len(env.sends) != 0 {
		t.Errorf("sent %v, want nothing", env.Sent())
	}
	if len(env.ops) != 0 {
		t.Errorf("timer operations %v, want none", env.Ops())
	}
	wantState(t, b, before)
}

// wantElection checks that node id has just started an election: Candidate with no leader,
// ELECTION to exactly the higher ids ascending (after any sends listed in first), only the
// answer timer armed, at 50ms.
func wantElection(t testing.TB, b *Bully, env *fakeEnv, id ID, first ...string) {
	t.Helper()
	wantState(t, b, State{Status: Candidate})
	wantSent(t, env, append(first, sends(KindElection, higherThan(id)...)...))
	wantPending(t, env, map[string]time.Duration{timerAnswer: 50 * ms})
}

// wantLeader checks that node id has just become leader: leader = me, COORDINATOR to every
// other node ascending, only the heartbeat timer armed, at 50ms.
func wantLeader(t testing.TB, b *Bully, env *fakeEnv, id ID) {
	t.Helper()
	wantState(t, b, State{Status: Leader, Leader: id})
	wantSent(t, env, sends(KindCoordinator, othersThan(id)...))
	wantPending(t, env, map[string]time.Duration{timerHeartbeat: 50 * ms})
}

func wantNote(t testing.TB, env *fakeEnv) {
	t.Helper()
	if len(env.notes) == 0 || slices.Contains(env.notes, "") {
		t.Errorf("notes %q, want at least one and none empty", env.notes)
	}
}

// "Start an election: status Candidate. […] Otherwise send ELECTION to every higher id and set
// answer-timeout." (Boot starts an election.)
func TestBullyStartNonTop(t *testing.T) {
	for _, id := range []ID{1, 2, 3, 4} {
		t.Run(fmt.Sprint(id), func(t *testing.T) {
			b, env := newBully(t, id, setupFresh, 0, true, nil)
			b.Start(env)
			wantElection(t, b, env, id)
			if got := env.Sets(timerAnswer); !slices.Equal(got, []time.Duration{50 * ms}) {
				t.Errorf("answer timer set %v, want once at 50ms", got)
			}
			wantNote(t, env)
		})
	}
}

// "Start an election: […] If no node has a higher id, become leader." "Become leader: status
// Leader, leader = me; send COORDINATOR to every other node; send HEARTBEAT […] every heartbeat."
func TestBullyStartTop(t *testing.T) {
	b, env := newBully(t, 5, setupFresh, 0, true, nil)
	b.Start(env)
	wantLeader(t, b, env, 5)
	if env.Sets(timerAnswer) != nil {
		t.Errorf("the top node set an answer timer: %v", env.Ops())
	}
	wantNote(t, env)
}

// "On ELECTION from lower j: send OK to j. If I am Leader, also send COORDINATOR to j."
func TestBullyElectionFromLowerAsLeader(t *testing.T) {
	for _, id := range []ID{5, 3} {
		t.Run(fmt.Sprint(id), func(t *testing.T) {
			b, env := newBully(t, id, setupLeader, 0, true, nil)
			b.Receive(env, Message{Kind: KindElection, From: 2, To: id})
			wantSent(t, env, []string{"OK→2", "COORDINATOR→2"})
			wantState(t, b, State{Status: Leader, Leader: id})
			wantPending(t, env, map[string]time.Duration{timerHeartbeat: 50 * ms})
		})
	}
}

// "On ELECTION from lower j: send OK to j. […] Otherwise, if I am not a Candidate, start an
// election." (A Follower takes over.)
func TestBullyElectionFromLowerAsFollower(t *testing.T) {
	b, env := newBully(t, 3, setupFollower, 5, true, nil)
	b.Receive(env, Message{Kind: KindElection, From: 1, To: 3})
	wantElection(t, b, env, 3, "OK→1")
	if !env.Cancelled(timerSuspect) {
		t.Errorf("suspect timer not cancelled: %v", env.Ops())
	}
	wantNote(t, env)
}

// "On ELECTION from lower j: send OK to j. […] if I am not a Candidate, start an election": a
// Candidate only answers OK and starts no second election.
func TestBullyElectionFromLowerAsCandidate(t *testing.T) {
	for _, setup := range []bullySetup{setupCandidate, setupWaiting} {
		t.Run(setup.String(), func(t *testing.T) {
			b, env := newBully(t, 3, setup, 0, false, nil)
			pending := maps.Clone(env.Pending)
			b.Receive(env, Message{Kind: KindElection, From: 2, To: 3})
			wantSent(t, env, []string{"OK→2"})
			if len(env.ops) != 0 {
				t.Errorf("timer operations %v, want none", env.Ops())
			}
			wantPending(t, env, pending)
			wantState(t, b, State{Status: Candidate})
		})
	}
}

// "On ELECTION from lower j": an ELECTION from a higher id is ignored in every status.
func TestBullyElectionFromHigherIgnored(t *testing.T) {
	for _, setup := range []bullySetup{setupCandidate, setupWaiting, setupFollower, setupLeader} {
		t.Run(setup.String(), func(t *testing.T) {
			b, env := newBully(t, 3, setup, 5, false, nil)
			before := b.State()
			b.Receive(env, Message{Kind: KindElection, From: 4, To: 3})
			wantQuiet(t, b, env, before)
		})
	}
}

// "On OK: cancel the answer timer; stay Candidate; set coordinator-timeout."
func TestBullyOKWhileCandidate(t *testing.T) {
	b, env := newBully(t, 2, setupCandidate, 0, true, nil)
	b.Receive(env, Message{Kind: KindOK, From: 4, To: 2})
	if !env.Cancelled(timerAnswer) {
		t.Errorf("answer timer not cancelled: %v", env.Ops())
	}
	wantPending(t, env, map[string]time.Duration{timerCoordinator: 150 * ms})
	wantState(t, b, State{Status: Candidate})
	wantSent(t, env, nil)
	wantNote(t, env)

	// A second OK keeps the node waiting for COORDINATOR.
	env.Clear()
	b.Receive(env, Message{Kind: KindOK, From: 5, To: 2})
	wantPending(t, env, map[string]time.Duration{timerCoordinator: 150 * ms})
	wantState(t, b, State{Status: Candidate})
	wantSent(t, env, nil)
}

// "On OK" applies to a Candidate: a late OK to a Follower or a Leader changes nothing.
func TestBullyOKWhenNotCandidate(t *testing.T) {
	for _, setup := range []bullySetup{setupFresh, setupFollower, setupLeader} {
		t.Run(setup.String(), func(t *testing.T) {
			b, env := newBully(t, 3, setup, 5, false, nil)
			before := b.State()
			b.Receive(env, Message{Kind: KindOK, From: 4, To: 3})
			wantQuiet(t, b, env, before)
		})
	}
}

// "Answer timer fires: become leader."
func TestBullyAnswerTimerBecomesLeader(t *testing.T) {
	for _, id := range []ID{1, 3, 4} {
		t.Run(fmt.Sprint(id), func(t *testing.T) {
			b, env := newBully(t, id, setupCandidate, 0, true, nil)
			env.Pending = map[string]time.Duration{} // the engine fired it: it is no longer armed
			b.Timer(env, timerAnswer)
			wantLeader(t, b, env, id)
			wantNote(t, env)
		})
	}
}

// "Coordinator timer fires: start an election."
func TestBullyCoordinatorTimerRestarts(t *testing.T) {
	b, env := newBully(t, 3, setupWaiting, 0, true, nil)
	delete(env.Pending, timerCoordinator) // the engine fired it
	b.Timer(env, timerCoordinator)
	wantElection(t, b, env, 3)
	wantNote(t, env)
}

// Timers act only in the status they belong to: answer and coordinator while Candidate,
// heartbeat while Leader, suspect while Follower. Elsewhere (and for an unknown name) they do
// nothing.
func TestBullyTimersInWrongStatus(t *testing.T) {
	cases := []struct {
		timer string
		setup bullySetup
	}{
		{timerAnswer, setupFollower},
		{timerAnswer, setupLeader},
		{timerCoordinator, setupFollower},
		{timerCoordinator, setupLeader},
		{timerHeartbeat, setupCandidate},
		{timerHeartbeat, setupWaiting},
		{timerHeartbeat, setupFollower},
		{timerSuspect, setupCandidate},
		{timerSuspect, setupWaiting},
		{timerSuspect, setupLeader},
		{"bogus", setupCandidate},
		{"bogus", setupFollower},
		{"bogus", setupLeader},
	}
	for _, c := range cases {
		t.Run(c.timer+"/"+c.setup.String(), func(t *testing.T) {
			b, env := newBully(t, 3, c.setup, 5, false, nil)
			before := b.State()
			b.Timer(env, c.timer)
			wantQuiet(t, b, env, before)
		})
	}
}

// "Become leader: […] send HEARTBEAT to every other node every heartbeat."
func TestBullyHeartbeatTimerAsLeader(t *testing.T) {
	for _, id := range []ID{5, 3} {
		t.Run(fmt.Sprint(id), func(t *testing.T) {
			b, env := newBully(t, id, setupLeader, 0, false, nil)
			for round := range 3 {
				env.Clear()
				delete(env.Pending, timerHeartbeat) // the engine fired it
				b.Timer(env, timerHeartbeat)
				wantSent(t, env, sends(KindHeartbeat, othersThan(id)...))
				if got := env.Sets(timerHeartbeat); !slices.Equal(got, []time.Duration{50 * ms}) {
					t.Errorf("round %d: heartbeat timer set %v, want once at 50ms", round, got)
				}
				wantPending(t, env, map[string]time.Duration{timerHeartbeat: 50 * ms})
				wantState(t, b, State{Status: Leader, Leader: id})
			}
		})
	}
}

// "On COORDINATOR or HEARTBEAT from k: k > me: follow k (status Follower, reset the suspicion
// timer) if I have no leader, or k ≥ my leader. A Leader that hears of a higher leader steps
// down and follows it."
func TestBullyLeaderMessageFromHigher(t *testing.T) {
	cases := []struct {
		name   string
		id     ID
		setup  bullySetup
		leader ID // whom the follower follows
		from   ID
		follow bool
	}{
		{"fresh, no leader", 2, setupFresh, 0, 3, true},
		{"candidate, no leader", 2, setupCandidate, 0, 4, true},
		{"candidate after OK", 2, setupWaiting, 0, 4, true},
		{"follower, k > my leader", 2, setupFollower, 4, 5, true},
		{"follower, k = my leader", 2, setupFollower, 4, 4, true},
		{"follower, k < my leader", 2, setupFollower, 5, 4, false},
		{"follower, k < my leader, k just above me", 2, setupFollower, 5, 3, false},
		{"leader steps down", 3, setupLeader, 0, 4, true},
	}
	for _, kind := range []string{KindCoordinator, KindHeartbeat} {
		for _, c := range cases {
			t.Run(kind+"/"+c.name, func(t *testing.T) {
				b, env := newBully(t, c.id, c.setup, c.leader, true, nil)
				before := b.State()
				b.Receive(env, Message{Kind: kind, From: c.from, To: c.id})
				if !c.follow {
					wantQuiet(t, b, env, before)
					return
				}
				wantState(t, b, State{Status: Follower, Leader: c.from})
				wantSent(t, env, nil)
				wantPending(t, env, map[string]time.Duration{timerSuspect: 150 * ms})
				if got := env.Sets(timerSuspect); !slices.Equal(got, []time.Duration{150 * ms}) {
					t.Errorf("suspect timer set %v, want once at 150ms", got)
				}
				if c.setup == setupLeader && !env.Cancelled(timerHeartbeat) {
					t.Errorf("a leader stepping down did not cancel its heartbeat timer: %v", env.Ops())
				}
				if c.setup == setupWaiting && !env.Cancelled(timerCoordinator) {
					t.Errorf("a candidate following did not cancel its coordinator timer: %v", env.Ops())
				}
				if before != b.State() {
					wantNote(t, env)
				}
			})
		}
	}
}

// "On COORDINATOR or HEARTBEAT from k: […] k < me: if I am Leader, send COORDINATOR to k (it
// will step down). Else, if I am not a Candidate and have no leader above me, start an
// election."
func TestBullyLeaderMessageFromLower(t *testing.T) {
	for _, kind := range []string{KindCoordinator, KindHeartbeat} {
		t.Run(kind+"/leader answers", func(t *testing.T) {
			for _, id := range []ID{3, 5} {
				b, env := newBully(t, id, setupLeader, 0, true, nil)
				b.Receive(env, Message{Kind: kind, From: 1, To: id})
				wantSent(t, env, []string{"COORDINATOR→1"})
				wantState(t, b, State{Status: Leader, Leader: id})
				wantPending(t, env, map[string]time.Duration{timerHeartbeat: 50 * ms})
			}
		})
		// A started Follower always follows a higher node; only a node with no leader (the
		// zero state, before Start) is a Follower with no leader above it.
		t.Run(kind+"/follower without leader elects", func(t *testing.T) {
			b, env := newBully(t, 3, setupFresh, 0, true, nil)
			b.Receive(env, Message{Kind: kind, From: 2, To: 3})
			wantElection(t, b, env, 3)
			wantNote(t, env)
		})
		t.Run(kind+"/follower of a higher node ignores", func(t *testing.T) {
			b, env := newBully(t, 3, setupFollower, 5, false, nil)
			before := b.State()
			b.Receive(env, Message{Kind: kind, From: 2, To: 3})
			wantQuiet(t, b, env, before)
		})
		for _, setup := range []bullySetup{setupCandidate, setupWaiting} {
			t.Run(kind+"/"+setup.String()+" does nothing", func(t *testing.T) {
				b, env := newBully(t, 3, setup, 0, false, nil)
				before := b.State()
				b.Receive(env, Message{Kind: kind, From: 2, To: 3})
				wantQuiet(t, b, env, before)
			})
		}
	}
}

// "Suspicion timer fires (Follower, no HEARTBEAT from the leader for timeout): start an
// election."
func TestBullySuspectTimerAsFollower(t *testing.T) {
	b, env := newBully(t, 3, setupFollower, 5, true, nil)
	delete(env.Pending, timerSuspect) // the engine fired it
	b.Timer(env, timerSuspect)
	wantElection(t, b, env, 3)
	wantNote(t, env)
}

// "follow k (status Follower, reset the suspicion timer)": each HEARTBEAT from my leader re-arms
// "suspect" for the full timeout, and changes nothing else.
func TestBullyHeartbeatResetsSuspicion(t *testing.T) {
	b, env := newBully(t, 3, setupFollower, 5, false, nil)
	for i := 1; i <= 3; i++ {
		env.Clear()
		env.now = time.Duration(i) * 40 * ms
		b.Receive(env, Message{Kind: KindHeartbeat, From: 5, To: 3})
		if got := env.Sets(timerSuspect); !slices.Equal(got, []time.Duration{150 * ms}) {
			t.Errorf("heartbeat %d: suspect timer set %v, want once at 150ms", i, got)
		}
		wantPending(t, env, map[string]time.Duration{timerSuspect: 150 * ms})
		wantSent(t, env, nil)
		wantState(t, b, State{Status: Follower, Leader: 5})
	}
}

// "`elect`: start an election", from any status.
func TestBullyElectFromAnyStatus(t *testing.T) {
	for _, setup := range []bullySetup{setupFresh, setupCandidate, setupWaiting, setupFollower, setupLeader} {
		t.Run("3/"+setup.String(), func(t *testing.T) {
			b, env := newBully(t, 3, setup, 4, true, nil)
			b.Elect(env)
			wantElection(t, b, env, 3)
			wantNote(t, env)
		})
	}
	for _, setup := range []bullySetup{setupFresh, setupLeader} {
		t.Run("5/"+setup.String(), func(t *testing.T) {
			b, env := newBully(t, 5, setup, 0, true, nil)
			b.Elect(env)
			wantLeader(t, b, env, 5)
			wantNote(t, env)
		})
	}
}

// Parameters set in the cluster override the defaults of docs/algorithms.md (heartbeat 50ms,
// timeout 150ms, answer-timeout 50ms, coordinator-timeout 150ms).
func TestBullyParamsOverrideDefaults(t *testing.T) {
	info, err := Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		key, value string
		timer      string
		want       time.Duration
		setup      bullySetup
		id, leader ID
	}{
		{"answer-timeout", "80ms", timerAnswer, 80 * ms, setupCandidate, 3, 0},
		{"coordinator-timeout", "200ms", timerCoordinator, 200 * ms, setupWaiting, 3, 0},
		{"heartbeat", "20ms", timerHeartbeat, 20 * ms, setupLeader, 5, 0},
		{"timeout", "300ms", timerSuspect, 300 * ms, setupFollower, 3, 5},
	}
	for _, c := range cases {
		t.Run(c.key, func(t *testing.T) {
			v, err := info.ParseParam(c.key, c.value)
			if err != nil {
				t.Fatal(err)
			}
			params := Params{c.key: v}
			// Record the setup itself: the timer is set while reaching the state.
			b := NewBully(c.id, bullyCluster(t, params))
			env := newFakeEnv(t, c.id, false)
			b.Start(env)
			switch c.setup {
			case setupWaiting:
				b.Receive(env, Message{Kind: KindOK, From: 5, To: c.id})
			case setupFollower:
				b.Receive(env, Message{Kind: KindCoordinator, From: c.leader, To: c.id})
			}
			if got, ok := env.Pending[c.timer]; !ok || got != c.want {
				t.Errorf("%s = %s: pending timers %v, want %s at %s", c.key, c.value, env.Pending, c.timer, c.want)
			}
		})
	}
}

// Each parameter's documented Default is the value the node uses when it is not set.
func TestBullyParamDefaultsMatchBehaviour(t *testing.T) {
	info, err := Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	cfg := newBullyConfig(bullyCluster(t, nil))
	used := map[string]time.Duration{
		"heartbeat":           cfg.heartbeat,
		"timeout":             cfg.timeout,
		"answer-timeout":      cfg.answer,
		"coordinator-timeout": cfg.coordinator,
	}
	if got := info.ParamKeys(); len(got) != len(used) {
		t.Fatalf("bully parameters %v, want the 4 of docs/algorithms.md", got)
	}
	for _, p := range info.Params {
		v, err := info.ParseParam(p.Key, p.Default)
		if err != nil {
			t.Errorf("%s: default %q does not parse: %v", p.Key, p.Default, err)
			continue
		}
		if want, ok := used[p.Key]; !ok || v.Min != want {
			t.Errorf("%s: documented default %s, node uses %s", p.Key, p.Default, FormatDuration(want))
		}
	}
}

// bullyInput is one input to a node, for the random walks below.
type bullyInput struct {
	what string // "start", "elect", "receive", "timer"
	msg  Message
	name string
}

func (in bullyInput) String() string {
	switch in.what {
	case "receive":
		return "receive " + in.msg.String()
	case "timer":
		return "timer " + in.name
	}
	return in.what
}

// randomInput draws an input for node id: any message kind from any other node, any armed
// timer (an engine fires only armed timers), elect, or a restart.
func randomInput(r *rand.Rand, id ID, env *fakeEnv) bullyInput {
	switch n := r.IntN(20); {
	case n == 0:
		return bullyInput{what: "start"}
	case n == 1:
		return bullyInput{what: "elect"}
	case n < 8 && len(env.Pending) > 0:
		return bullyInput{what: "timer", name: env.anyTimer(r)}
	default:
		kinds := []string{KindElection, KindOK, KindCoordinator, KindHeartbeat}
		others := othersThan(id)
		return bullyInput{what: "receive", msg: Message{
			Kind: kinds[r.IntN(len(kinds))], From: others[r.IntN(len(others))], To: id}}
	}
}

func (in bullyInput) apply(b *Bully, env *fakeEnv) {
	switch in.what {
	case "start":
		b.Start(env)
	case "elect":
		b.Elect(env)
	case "receive":
		b.Receive(env, in.msg)
	case "timer":
		delete(env.Pending, in.name) // it fired
		b.Timer(env, in.name)
	}
}

// walkBully feeds every node of {1..5} a long seeded random sequence of inputs and calls check
// after each step.
func walkBully(t *testing.T, tracing bool, check func(t *testing.T, id ID, in bullyInput, before, after State, env *fakeEnv)) {
	for _, id := range bullyIDs {
		for seed := range uint64(20) {
			r := rand.New(rand.NewPCG(seed, uint64(id)))
			b := NewBully(id, bullyCluster(t, nil))
			env := newFakeEnv(t, id, tracing)
			b.Start(env)
			for step := range 300 {
				env.Clear()
				env.now += ms
				in := randomInput(r, id, env)
				before := b.State()
				in.apply(b, env)
				check(t, id, in, before, b.State(), env)
				if t.Failed() {
					t.Fatalf("node %d, seed %d, step %d: %s from %+v", id, seed, step, in, before)
				}
			}
		}
	}
}

// "algorithms call Note only when Tracing is true": with tracing off, no input ever leads to a
// Note (the fake fails the test if one does).
func TestBullyNoNotesWithoutTracing(t *testing.T) {
	walkBully(t, false, func(t *testing.T, id ID, in bullyInput, before, after State, env *fakeEnv) {})
}

// "Note records why the node did what it did in this step": with tracing on, every change of
// state comes with a non-empty note. The walk also checks the invariants of §3.1's states:
// a Leader leads itself, a Candidate has no leader, a started Follower follows a higher node,
// and every timer is one of the four, set to its configured duration.
func TestBullyStateChangesHaveNotes(t *testing.T) {
	durations := map[string]time.Duration{
		timerAnswer: 50 * ms, timerCoordinator: 150 * ms, timerHeartbeat: 50 * ms, timerSuspect: 150 * ms,
	}
	walkBully(t, true, func(t *testing.T, id ID, in bullyInput, before, after State, env *fakeEnv) {
		checkHighestWins(t, id, before, after, env)
		for _, o := range env.ops {
			want, ok := durations[o.Name]
			if !ok || (o.Op == "set" && o.After != want) {
				t.Errorf("timer operation %s", o)
			}
		}
		for _, m := range env.sends {
			if m.To == id || m.To < 1 || m.To > 5 {
				t.Errorf("sent %s", m)
			}
		}
	})
}

// The registry entry: Kinds are ELECTION, OK, COORDINATOR, HEARTBEAT in that order; HEARTBEAT
// is the routine traffic; Bully has no terms; New builds an unstarted node.
func TestBullyInfo(t *testing.T) {
	info, err := Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "bully" || info.Summary == "" {
		t.Errorf("name %q summary %q", info.Name, info.Summary)
	}
	if want := []string{"ELECTION", "OK", "COORDINATOR", "HEARTBEAT"}; !slices.Equal(info.Kinds, want) {
		t.Errorf("Kinds = %v, want %v", info.Kinds, want)
	}
	if !slices.Contains(info.Routine, "HEARTBEAT") || !info.IsRoutine("HEARTBEAT") {
		t.Errorf("Routine = %v, want it to contain HEARTBEAT", info.Routine)
	}
	for _, k := range []string{"ELECTION", "OK", "COORDINATOR"} {
		if info.IsRoutine(k) {
			t.Errorf("%s is routine; only HEARTBEAT should be", k)
		}
	}
	if info.Terms {
		t.Error("Terms = true; Bully has no terms")
	}
	n := info.New(3, bullyCluster(t, nil))
	if _, ok := n.(*Bully); !ok {
		t.Fatalf("New returned %T", n)
	}
	if got := n.State(); got != (State{}) {
		t.Errorf("unstarted node state %+v, want the zero State", got)
	}
}

// Warnings: "answer-timeout […] Must exceed 2× max delay" and a timeout that does not exceed
// heartbeat + max delay suspects a live leader.
func TestBullyWarnings(t *testing.T) {
	info, err := Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		maxDelay time.Duration
		params   []string
		want     []string // substrings, one per expected warning, in order
	}{
		{"defaults, max delay 15ms", 15 * ms, nil, nil},
		{"answer-timeout 2× max delay", 15 * ms, []string{"answer-timeout=30ms"}, []string{"answer-timeout"}},
		{"answer-timeout below 2× max delay", 15 * ms, []string{"answer-timeout=10ms"}, []string{"answer-timeout"}},
		{"answer-timeout just above 2× max delay", 15 * ms, []string{"answer-timeout=31ms"}, nil},
		{"defaults, max delay 25ms", 25 * ms, nil, []string{"answer-timeout"}},
		{"timeout = heartbeat + max delay", 15 * ms, []string{"timeout=65ms"}, []string{"timeout 65ms"}},
		{"both", 100 * ms, nil, []string{"answer-timeout", "timeout"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkWarnings(t, info, bullyIDs, c.maxDelay, algoParams(t, "bully", c.params...), c.want)
		})
	}
}

// NewBully panics on an id that is not in the cluster: a broken invariant of the engine.
func TestBullyNewUnknownIDPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewBully(9) on {1..5} did not panic")
		}
	}()
	NewBully(9, bullyCluster(t, nil))
}
