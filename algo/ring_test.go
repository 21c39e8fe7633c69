package algo

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// The tests below drive one Ring node by hand through a fakeEnv, on the ring 3 → 1 → 4 → 2 → 3 with
// a max delay of 10ms, and check each rule of docs/algorithms.md (Ring) and the three additions
// ring.go documents: an ACK per hop, rounds carried in Term with per-round duplicate suppression,
// and suspected successors skipped.

// ringOrder is the ring of the tests. The successor of 3 is 1, not 4 (the next higher id).
var ringOrder = []ID{3, 1, 4, 2}

// ringElection is the default election-timeout on ringOrder: (2n+2) × max delay = 10 × 10ms.
const ringElection = 100 * ms

// ringCluster returns the cluster with that ring order, max delay 10ms and the given parameters.
func ringCluster(t testing.TB, ring []ID, params Params) *Cluster {
	t.Helper()
	c, err := NewCluster(ring, 10*ms, params)
	if err != nil {
		t.Fatalf("NewCluster: %v", err)
	}
	return c
}

// ringNext returns the successor of id in ringOrder.
func ringNext(id ID) ID {
	i := slices.Index(ringOrder, id)
	return ringOrder[(i+1)%len(ringOrder)]
}

// ringPrev returns the predecessor of id in ringOrder.
func ringPrev(id ID) ID {
	i := slices.Index(ringOrder, id)
	return ringOrder[(i+len(ringOrder)-1)%len(ringOrder)]
}

// ringSetup is the state a test puts a Ring node in before the step it checks.
type ringSetup int

const (
	ringFresh     ringSetup = iota // constructed, not started: Follower, no leader, round 0
	ringCandidate                  // started: round 1, a participant, its ELECTION acknowledged
	ringFollower                   // started, then ELECTED(leader) of round 1: the round is over
	ringLeader                     // started, then its own ELECTION came back: elected in round 1
)

func (s ringSetup) String() string {
	return [...]string{"fresh", "candidate", "follower", "leader"}[s]
}

// newRing puts node id of ringOrder in the given state using only the node's own inputs, every
// ELECTION and ELECTED it sent acknowledged, and clears the recordings so that the caller sees
// only the next step's effects. leader is the node a follower follows.
func newRing(t testing.TB, id ID, setup ringSetup, leader ID, tracing bool) (*Ring, *fakeEnv) {
	t.Helper()
	r := NewRing(id, ringCluster(t, ringOrder, nil))
	env := newFakeEnv(t, id, tracing)
	var want State
	switch setup {
	case ringCandidate:
		r.Start(env)
		want = State{Status: Candidate}
	case ringFollower:
		r.Start(env)
		r.Receive(env, ringMsg(KindElected, ringPrev(id), id, leader, 1))
		want = State{Status: Follower, Leader: leader}
	case ringLeader:
		r.Start(env)
		r.Receive(env, ringMsg(KindElection, ringPrev(id), id, id, 1))
		want = State{Status: Leader, Leader: id}
	}
	ackAll(r, env)
	if r.State() != want {
		t.Fatalf("setup %s of node %d: state %+v, want %+v", setup, id, r.State(), want)
	}
	env.Clear()
	return r, env
}

// ackAll delivers, in order, the ACK a live successor returns for every ELECTION and ELECTED
// recorded in env.
func ackAll(r *Ring, env *fakeEnv) {
	for _, m := range slices.Clone(env.sends) {
		if m.Kind == KindElection || m.Kind == KindElected {
			r.Receive(env, ringMsg(KindAck, m.To, m.From, m.Value, m.Term))
		}
	}
}

// ringMsg builds a message as the engine delivers it.
func ringMsg(kind string, from, to, value ID, term uint64) Message {
	return Message{Kind: kind, From: from, To: to, Value: value, Term: term}
}

// msgs returns the recorded sends in Message.String form: "ELECTION(4) t1 3→1".
func msgs(env *fakeEnv) []string {
	out := make([]string, len(env.sends))
	for i, m := range env.sends {
		out[i] = m.String()
	}
	return out
}

// wantMsgs checks the recorded sends, with their values and terms, in order.
func wantMsgs(t testing.TB, env *fakeEnv, want ...string) {
	t.Helper()
	if got := msgs(env); !slices.Equal(got, want) {
		t.Errorf("sent %q, want %q", got, want)
	}
}

func wantRingState(t testing.TB, r *Ring, want State) {
	t.Helper()
	if got := r.State(); got != want {
		t.Errorf("state = %+v, want %+v", got, want)
	}
}

// wantSwallowed checks that the step only acknowledged m: the ACK is the one send, no timer was
// touched, and the state is unchanged.
func wantSwallowed(t testing.TB, r *Ring, env *fakeEnv, m Message, before State) {
	t.Helper()
	wantMsgs(t, env, ringMsg(KindAck, m.To, m.From, m.Value, m.Term).String())
	if len(env.ops) != 0 {
		t.Errorf("timer operations %v, want none", env.Ops())
	}
	wantRingState(t, r, before)
}

// wantRingQuiet checks that the step did nothing at all.
func wantRingQuiet(t testing.TB, r *Ring, env *fakeEnv, before State) {
	t.Helper()
	if len(env.sends) != 0 {
		t.Errorf("sent %q, want nothing", msgs(env))
	}
	if len(env.ops) != 0 {
		t.Errorf("timer operations %v, want none", env.Ops())
	}
	wantRingState(t, r, before)
}

// wantInitiated checks that node id has just initiated round `round`: Candidate with no leader,
// ELECTION(id) of that round to to (after the sends listed in first), the election timer set,
// the suspect and heartbeat timers not armed, and a note when tracing.
func wantInitiated(t testing.TB, r *Ring, env *fakeEnv, id, to ID, round uint64, first ...string) {
	t.Helper()
	wantRingState(t, r, State{Status: Candidate})
	wantMsgs(t, env, append(first, ringMsg(KindElection, id, to, id, round).String())...)
	if got := env.Sets(timerElection); !slices.Equal(got, []time.Duration{ringElection}) {
		t.Errorf("election timer set %v, want once at %s", got, ringElection)
	}
	for _, name := range []string{timerSuspect, timerHeartbeat} {
		if _, ok := env.Pending[name]; ok {
			t.Errorf("%s timer still armed after initiating: %v", name, env.Pending)
		}
	}
	if !r.participant {
		t.Error("not a participant after initiating")
	}
	if r.round != round {
		t.Errorf("round %d, want %d", r.round, round)
	}
	if env.tracing {
		wantNote(t, env)
	}
}

// "Boot: initiate: participant = true, status Candidate, send ELECTION(me) to the successor" —
// in round 1 (Term 1), to the ring successor, with answer-timeout 50ms for its ACK and the
// participant timer at (2n+2) × max delay.
func TestRingStart(t *testing.T) {
	for _, id := range ringOrder {
		t.Run(fmt.Sprint(id), func(t *testing.T) {
			r, env := newRing(t, id, ringFresh, 0, true)
			r.Start(env)
			wantInitiated(t, r, env, id, ringNext(id), 1)
			wantPending(t, env, map[string]time.Duration{timerAnswer: 50 * ms, timerElection: ringElection})
			if got := env.Sets(timerAnswer); !slices.Equal(got, []time.Duration{50 * ms}) {
				t.Errorf("answer timer set %v, want once at 50ms", got)
			}
		})
	}
	// The successor of 3 is 1, whatever the ids: not 4, the next higher one.
	r, env := newRing(t, 3, ringFresh, 0, false)
	r.Start(env)
	if got := env.SentKind(KindElection); !slices.Equal(got, []ID{1}) {
		t.Errorf("node 3 sent ELECTION to %v, want [1] (its successor on the ring 3 1 4 2)", got)
	}
}

// "`elect` / leader suspected: initiate" — from any status, in a new round (round + 1).
func TestRingElectFromAnyStatus(t *testing.T) {
	for _, setup := range []ringSetup{ringCandidate, ringFollower, ringLeader} {
		t.Run(setup.String(), func(t *testing.T) {
			r, env := newRing(t, 3, setup, 4, true)
			r.Elect(env)
			wantInitiated(t, r, env, 3, 1, 2)
		})
	}
}

// "On ELECTION(x): x > me: forward ELECTION(x), participant = true" — at the current round, to
// the successor, after the ACK; the participant timer is (re)armed and the status is unchanged.
func TestRingElectionHigherForwards(t *testing.T) {
	for _, setup := range []ringSetup{ringCandidate, ringFollower} {
		t.Run(setup.String(), func(t *testing.T) {
			r, env := newRing(t, 3, setup, 4, true)
			before := r.State()
			// The follower's round 1 is over: a new round is asking.
			term := uint64(1)
			if setup == ringFollower {
				term = 2
			}
			r.Receive(env, ringMsg(KindElection, 2, 3, 4, term))
			wantMsgs(t, env, fmt.Sprintf("ACK(4) t%d 3→2", term), fmt.Sprintf("ELECTION(4) t%d 3→1", term))
			if !r.participant {
				t.Error("not a participant after forwarding")
			}
			if got := env.Sets(timerElection); !slices.Equal(got, []time.Duration{ringElection}) {
				t.Errorf("election timer set %v, want once at %s", got, ringElection)
			}
			if env.Pending[timerAnswer] != 50*ms {
				t.Errorf("answer timer %v, want 50ms for the forwarded hop", env.Pending)
			}
			wantRingState(t, r, before)
			wantNote(t, env)
		})
	}
}

// "x < me: if not a participant, send ELECTION(me) and participant = true" — a node that has
// not taken part in the round (here: it first hears of round 1, or of a new round 2) sends its
// own id instead.
func TestRingElectionLowerNotParticipant(t *testing.T) {
	t.Run("fresh", func(t *testing.T) {
		r, env := newRing(t, 3, ringFresh, 0, true)
		r.Receive(env, ringMsg(KindElection, 2, 3, 2, 1))
		wantMsgs(t, env, "ACK(2) t1 3→2", "ELECTION(3) t1 3→1")
		if !r.participant || r.round != 1 {
			t.Errorf("participant %v round %d, want true 1", r.participant, r.round)
		}
		wantPending(t, env, map[string]time.Duration{timerAnswer: 50 * ms, timerElection: ringElection})
		wantNote(t, env)
	})
	t.Run("follower, new round", func(t *testing.T) {
		r, env := newRing(t, 3, ringFollower, 4, true)
		r.Receive(env, ringMsg(KindElection, 2, 3, 1, 2))
		wantMsgs(t, env, "ACK(1) t2 3→2", "ELECTION(3) t2 3→1")
		if !r.participant || r.round != 2 {
			t.Errorf("participant %v round %d, want true 2", r.participant, r.round)
		}
		if got := env.Sets(timerElection); !slices.Equal(got, []time.Duration{ringElection}) {
			t.Errorf("election timer set %v, want once at %s", got, ringElection)
		}
		wantRingState(t, r, State{Status: Follower, Leader: 4})
		wantNote(t, env)
	})
}

// "x < me: […] else [a participant] swallow it" — only the ACK goes out.
func TestRingElectionLowerParticipantSwallows(t *testing.T) {
	for _, x := range []ID{1, 2} {
		r, env := newRing(t, 3, ringCandidate, 0, true)
		m := ringMsg(KindElection, 2, 3, x, 1)
		r.Receive(env, m)
		wantSwallowed(t, r, env, m, State{Status: Candidate})
		wantNote(t, env)
	}
}

// "x = me: I am elected: status Leader, participant = false, send ELECTED(me)" — in the round,
// to the successor; the participant timer is cancelled and the heartbeat timer armed at 50ms.
func TestRingElectionOwnElects(t *testing.T) {
	for _, id := range []ID{4, 3} {
		t.Run(fmt.Sprint(id), func(t *testing.T) {
			r, env := newRing(t, id, ringCandidate, 0, true)
			r.Receive(env, ringMsg(KindElection, ringPrev(id), id, id, 1))
			wantRingState(t, r, State{Status: Leader, Leader: id})
			wantMsgs(t, env,
				fmt.Sprintf("ACK(%d) t1 %d→%d", id, id, ringPrev(id)),
				fmt.Sprintf("ELECTED(%d) t1 %d→%d", id, id, ringNext(id)))
			if r.participant {
				t.Error("still a participant after being elected")
			}
			if !env.Cancelled(timerElection) {
				t.Errorf("election timer not cancelled: %v", env.Ops())
			}
			wantPending(t, env, map[string]time.Duration{timerHeartbeat: 50 * ms, timerAnswer: 50 * ms})
			wantNote(t, env)
		})
	}
}

// "Every ELECTION/ELECTED hop is answered with ACK" — to its sender, first, with the same Value
// and Term, whatever the node then does with it (forward, swallow, drop as stale).
func TestRingAckEchoesValueAndTerm(t *testing.T) {
	for _, setup := range []ringSetup{ringFresh, ringCandidate, ringFollower, ringLeader} {
		for _, kind := range []string{KindElection, KindElected} {
			for _, x := range ringOrder {
				for _, term := range []uint64{0, 1, 2} {
					if setup == ringFresh && term == 0 {
						continue // an unstarted node only hears of rounds ≥ 1
					}
					r, env := newRing(t, 3, setup, 4, false)
					r.Receive(env, ringMsg(kind, 2, 3, x, term))
					want := ringMsg(KindAck, 3, 2, x, term)
					if len(env.sends) == 0 || env.sends[0] != want {
						t.Errorf("%s: %s(%d) t%d: sent %q, want %s first", setup, kind, x, term, msgs(env), want)
					}
					if n := len(env.SentKind(KindAck)); n != 1 {
						t.Errorf("%s: %s(%d) t%d: %d ACKs, want 1", setup, kind, x, term, n)
					}
				}
			}
		}
	}
}

// "Within a round a node passes each candidate's ELECTION and each ELECTED on once": a second
// ELECTION(x) or ELECTED(x) of the same round is only acknowledged.
func TestRingDuplicatesSwallowed(t *testing.T) {
	cases := []struct {
		name string
		id   ID
		m    Message
	}{
		{"ELECTION(x > me)", 3, ringMsg(KindElection, 2, 3, 4, 1)},
		{"ELECTION(x < me), first from a fresh node", 4, ringMsg(KindElection, 1, 4, 3, 1)},
		{"ELECTED(x)", 3, ringMsg(KindElected, 2, 3, 4, 1)},
		{"ELECTED(x), first from a fresh node", 1, ringMsg(KindElected, 3, 1, 4, 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			setup := ringCandidate
			if strings.Contains(c.name, "fresh") {
				setup = ringFresh
			}
			r, env := newRing(t, c.id, setup, 0, true)
			r.Receive(env, c.m)
			if len(env.sends) < 2 {
				t.Fatalf("first copy: sent %q, want it passed on", msgs(env))
			}
			ackAll(r, env)
			before := r.State()
			env.Clear()
			r.Receive(env, c.m)
			wantSwallowed(t, r, env, c.m, before)
			wantNote(t, env)
		})
	}
}

// "the round ends back at the leader: n ELECTED messages": the leader's own ELECTED coming back
// ends the lap, and is not sent on; a later copy of it, or of its own ELECTION, is swallowed.
func TestRingOwnElectedEndsLap(t *testing.T) {
	r, env := newRing(t, 4, ringLeader, 0, true)
	for i, m := range []Message{
		ringMsg(KindElected, 1, 4, 4, 1),
		ringMsg(KindElected, 1, 4, 4, 1),
		ringMsg(KindElection, 1, 4, 4, 1),
	} {
		env.Clear()
		r.Receive(env, m)
		wantSwallowed(t, r, env, m, State{Status: Leader, Leader: 4})
		wantNote(t, env)
		if i == 0 && !r.lapDone {
			t.Error("own ELECTED came back: lap not recorded as done")
		}
	}
}

// BUG (ring.go onElection): "Within a round a node passes each candidate's ELECTION […] on
// once" — a late copy of ELECTION(x < me) arriving after the round is over (ELECTED seen) must
// be swallowed. The node instead sends its own ELECTION of that round again and arms the
// participant timer, which later starts a new election and unseats a settled leader.
func TestRingLateElectionCopyAfterRoundEnds(t *testing.T) {
	t.Run("follower", func(t *testing.T) {
		r, env := newRing(t, 3, ringFresh, 0, true)
		r.Start(env)
		r.Receive(env, ringMsg(KindElection, 2, 3, 1, 1)) // swallowed: a participant
		r.Receive(env, ringMsg(KindElected, 2, 3, 4, 1))  // round 1 is over: 4 leads
		ackAll(r, env)
		env.Clear()
		m := ringMsg(KindElection, 2, 3, 1, 1) // a copy of the first, late
		r.Receive(env, m)
		wantSwallowed(t, r, env, m, State{Status: Follower, Leader: 4})
		if _, ok := env.Pending[timerElection]; ok {
			env.Clear()
			r.Timer(env, timerElection)
			t.Errorf("the copy armed the participant timer; when it fires: state %+v, sent %q", r.State(), msgs(env))
		}
	})
	t.Run("leader", func(t *testing.T) {
		r, env := newRing(t, 4, ringFresh, 0, true)
		r.Start(env)
		r.Receive(env, ringMsg(KindElection, 1, 4, 3, 1)) // swallowed: a participant
		r.Receive(env, ringMsg(KindElection, 1, 4, 4, 1)) // elected in round 1
		ackAll(r, env)
		env.Clear()
		m := ringMsg(KindElection, 1, 4, 3, 1) // a copy of the first, late
		r.Receive(env, m)
		wantSwallowed(t, r, env, m, State{Status: Leader, Leader: 4})
		if _, ok := env.Pending[timerElection]; ok {
			env.Clear()
			r.Timer(env, timerElection)
			t.Errorf("the copy armed the participant timer; when it fires the leader becomes %+v and sends %q", r.State(), msgs(env))
		}
	})
}

// "A node that hears of a newer round joins it, forgetting the old one": the candidates it
// passed on in the old round are forgotten, so ELECTION(4) of round 2 is passed on again. A
// suspicion is not forgotten: "It skips a suspect until it hears from it again, or for a while".
func TestRingHigherTermJoinsRound(t *testing.T) {
	r, env := newRing(t, 3, ringFresh, 0, true)
	r.Start(env)                                      // ELECTION(3) t1 → 1, never acknowledged
	r.Receive(env, ringMsg(KindElection, 2, 3, 4, 1)) // ELECTION(4) t1 → 1, passed on
	env.Clear()
	env.now = 50 * ms
	r.Timer(env, timerAnswer) // 1 is suspected: both go to 4 instead
	wantMsgs(t, env, "ELECTION(3) t1 3→4", "ELECTION(4) t1 3→4")
	env.Clear()
	env.now = 60 * ms
	r.Receive(env, ringMsg(KindElection, 2, 3, 4, 2))
	wantMsgs(t, env, "ACK(4) t2 3→2", "ELECTION(4) t2 3→4")
	if r.round != 2 || !r.participant {
		t.Errorf("round %d participant %v, want 2 true", r.round, r.participant)
	}
	wantNote(t, env)
}

// "It skips a suspect until it hears from it again, or for a while (suspicion)": a message from
// the suspect, or the end of the suspicion, makes it the successor again.
func TestRingSuspicionEnds(t *testing.T) {
	suspectOne := func(t *testing.T) (*Ring, *fakeEnv) {
		r, env := newRing(t, 3, ringFresh, 0, false)
		r.Start(env)
		env.now = 50 * ms
		r.Timer(env, timerAnswer) // 1 is suspected from 50ms
		env.Clear()
		return r, env
	}
	// passOn hands the node ELECTION(4) of a new round and returns whom it passed it to.
	passOn := func(t *testing.T, r *Ring, env *fakeEnv, term uint64) ID {
		t.Helper()
		env.Clear()
		r.Receive(env, ringMsg(KindElection, 2, 3, 4, term))
		if got := env.SentKind(KindElection); len(got) == 1 {
			return got[0]
		}
		t.Fatalf("sent %q, want ELECTION(4) passed on", msgs(env))
		return 0
	}
	t.Run("heard from", func(t *testing.T) {
		r, env := suspectOne(t)
		env.now = 60 * ms
		if to := passOn(t, r, env, 2); to != 4 {
			t.Errorf("passed to %d while 1 is suspected, want 4", to)
		}
		r.Receive(env, ringMsg(KindAck, 1, 3, 3, 1)) // a late ACK: 1 is alive
		if to := passOn(t, r, env, 3); to != 1 {
			t.Errorf("passed to %d after hearing from 1, want 1", to)
		}
	})
	t.Run("for a while", func(t *testing.T) {
		r, env := suspectOne(t)
		env.now = 50*ms + r.cfg.suspicion - ms
		if to := passOn(t, r, env, 2); to != 4 {
			t.Errorf("passed to %d before the suspicion (%s) ends, want 4", to, r.cfg.suspicion)
		}
		env.now = 50*ms + r.cfg.suspicion
		if to := passOn(t, r, env, 3); to != 1 {
			t.Errorf("passed to %d after the suspicion (%s) ended, want 1", to, r.cfg.suspicion)
		}
		if r.cfg.suspicion < 4*r.cfg.timeout || r.cfg.suspicion < time.Duration(len(ringOrder)+1)*r.cfg.answer {
			t.Errorf("suspicion %s: not long enough to get round past every other node", r.cfg.suspicion)
		}
	})
}

// "a message of an older round is stale: ELECTED is dropped" — only acknowledged, whatever the
// node's status.
func TestRingStaleElectedDropped(t *testing.T) {
	for _, setup := range []ringSetup{ringCandidate, ringFollower, ringLeader} {
		t.Run(setup.String(), func(t *testing.T) {
			r, env := newRing(t, 3, setup, 4, true)
			r.Elect(env) // round 2
			ackAll(r, env)
			env.Clear()
			for _, x := range []ID{4, 1} {
				m := ringMsg(KindElected, 2, 3, x, 1)
				r.Receive(env, m)
				wantSwallowed(t, r, env, m, State{Status: Candidate})
				wantNote(t, env)
				env.Clear()
			}
		})
	}
}

// "ELECTION — someone asking for an election — starts a new round unless one is already under
// way": while a participant, an ELECTION of an older round is only acknowledged.
func TestRingStaleElectionWhileParticipantSwallowed(t *testing.T) {
	for _, x := range []ID{4, 1, 3} {
		r, env := newRing(t, 3, ringCandidate, 0, true)
		r.Elect(env) // round 2, a participant
		ackAll(r, env)
		env.Clear()
		m := ringMsg(KindElection, 2, 3, x, 1)
		r.Receive(env, m)
		wantSwallowed(t, r, env, m, State{Status: Candidate})
		if r.round != 2 {
			t.Errorf("ELECTION(%d) t1: round %d, want 2", x, r.round)
		}
		wantNote(t, env)
	}
}

// "[an ELECTION of a round that is over] starts a new round unless one is already under way,
// or x could not beat the node's leader": node 1, following 3 after round 2, holds round 3 for
// a stale ELECTION(4) — 4 could beat 3 — and what it sends carries Term 3; a stale ELECTION(2)
// could not, and is swallowed.
func TestRingStaleElectionStartsNewRound(t *testing.T) {
	r := NewRing(1, ringCluster(t, ringOrder, nil))
	env := newFakeEnv(t, 1, true)
	r.Elect(env)
	r.Elect(env)
	r.Receive(env, ringMsg(KindElected, 3, 1, 3, 2))
	ackAll(r, env)
	if r.State() != (State{Status: Follower, Leader: 3}) || r.round != 2 || r.participant {
		t.Fatalf("setup: state %+v round %d participant %v", r.State(), r.round, r.participant)
	}
	env.Clear()
	r.Receive(env, ringMsg(KindElection, 3, 1, 2, 1))
	wantMsgs(t, env, "ACK(2) t1 1→3")
	if r.round != 2 || r.participant {
		t.Errorf("stale ELECTION(2), which cannot beat leader 3: round %d participant %v, want 2 false", r.round, r.participant)
	}
	env.Clear()
	r.Receive(env, ringMsg(KindElection, 3, 1, 4, 1))
	wantMsgs(t, env, "ACK(4) t1 1→3", "ELECTION(4) t3 1→4")
	if r.round != 3 || !r.participant {
		t.Errorf("round %d participant %v, want 3 true", r.round, r.participant)
	}
	if got := env.Sets(timerElection); !slices.Equal(got, []time.Duration{ringElection}) {
		t.Errorf("election timer set %v, want once at %s", got, ringElection)
	}
	wantNote(t, env)
}

// ringFollowerOfRound2 returns node 3 after round 2 ended with 4 elected: it initiated rounds 1
// and 2 and then heard ELECTED(4) of round 2; every hop acknowledged.
func ringFollowerOfRound2(t testing.TB) (*Ring, *fakeEnv) {
	t.Helper()
	r, env := newRing(t, 3, ringCandidate, 0, true)
	r.Elect(env)
	r.Receive(env, ringMsg(KindElected, 2, 3, 4, 2))
	ackAll(r, env)
	if r.State() != (State{Status: Follower, Leader: 4}) || r.round != 2 || r.participant {
		t.Fatalf("setup: state %+v round %d participant %v", r.State(), r.round, r.participant)
	}
	env.Clear()
	return r, env
}

// Chang–Roberts elects a node only when its own ELECTION has come all the way round in the
// round. A stale ELECTION(me) of an old round reaching a node that follows 4 — higher, alive —
// must not elect it: 3 could not beat 4, so the message is swallowed. (Regression: it used to
// move the message into a new round itself and elect itself at once.)
func TestRingStaleOwnElectionDoesNotElect(t *testing.T) {
	r, env := ringFollowerOfRound2(t)
	r.Receive(env, ringMsg(KindElection, 2, 3, 3, 1))
	if r.State() != (State{Status: Follower, Leader: 4}) || len(env.SentKind(KindElected)) > 0 {
		t.Errorf("stale ELECTION(3) t1 changed node 3: state %+v, sent %q", r.State(), msgs(env))
	}
	wantMsgs(t, env, "ACK(3) t1 3→2")
}

// "an ACK from the successor clears the pending hop": the answer timer is re-armed for the
// oldest hop still waiting, and cancelled when none is; an ACK from another node clears nothing.
func TestRingAckClearsHop(t *testing.T) {
	r, env := newRing(t, 3, ringFresh, 0, false)
	r.Start(env) // t0: ELECTION(3) t1 → 1
	env.now = 10 * ms
	env.Clear()
	r.Receive(env, ringMsg(KindElection, 2, 3, 4, 1)) // t10: ELECTION(4) t1 → 1
	if got := env.Sets(timerAnswer); got != nil {
		t.Errorf("a second hop re-armed the answer timer: %v", got)
	}
	env.now = 15 * ms
	env.Clear()
	r.Receive(env, ringMsg(KindAck, 4, 3, 3, 1)) // not from the successor
	if env.Cancelled(timerAnswer) {
		t.Error("an ACK from 4, not the successor, cancelled the answer timer")
	}
	env.now = 20 * ms
	env.Clear()
	r.Receive(env, ringMsg(KindAck, 1, 3, 3, 1))
	if got := env.Sets(timerAnswer); !slices.Equal(got, []time.Duration{40 * ms}) {
		t.Errorf("after the first ACK the answer timer was set %v, want once at 40ms (50ms after the hop at 10ms)", got)
	}
	wantMsgs(t, env)
	env.now = 30 * ms
	env.Clear()
	r.Receive(env, ringMsg(KindAck, 1, 3, 4, 1))
	if !env.Cancelled(timerAnswer) || env.Sets(timerAnswer) != nil {
		t.Errorf("after the last ACK: timer operations %v, want the answer timer cancelled", env.Ops())
	}
	wantPending(t, env, map[string]time.Duration{timerElection: ringElection})
	// With nothing waiting, the answer timer does nothing.
	env.Clear()
	r.Timer(env, timerAnswer)
	wantRingQuiet(t, r, env, State{Status: Candidate})
}

// BUG (ring.go onAck): "Every ELECTION and ELECTED is ACKed to its sender with the same Value and
// Term", so an ACK clears the hop it answers. onAck matches only the sender: when the ACK of an
// older hop to the same successor is lost, the ACK of the newer one clears the older hop, and
// the newer one — acknowledged — is later re-sent round the ring past a live successor.
func TestRingAckClearsTheHopItAcknowledges(t *testing.T) {
	r, env := newRing(t, 3, ringFresh, 0, true)
	r.Start(env) // t0: ELECTION(3) t1 → 1; its ACK is lost
	env.now = 10 * ms
	r.Receive(env, ringMsg(KindElection, 2, 3, 4, 2)) // t10: round 2, ELECTION(4) t2 → 1
	env.now = 20 * ms
	r.Receive(env, ringMsg(KindAck, 1, 3, 4, 2)) // 1 acknowledges ELECTION(4) t2
	env.Clear()
	env.now = 60 * ms
	if _, ok := env.Pending[timerAnswer]; ok {
		r.Timer(env, timerAnswer)
	}
	if slices.Contains(msgs(env), "ELECTION(4) t2 3→4") {
		t.Errorf("ELECTION(4) t2, acknowledged by 1, was re-sent: %q (%s)", msgs(env), env.Notes())
	}
}

// "No ACK within answer-timeout ⇒ mark the successor suspect and resend to the next one round
// the ring": suspects are skipped for the rest of the round, the answer timer is re-armed for
// the re-sent hop, and when every other node is suspected the node sends to itself.
func TestRingAnswerTimeoutSkipsSuspects(t *testing.T) {
	r, env := newRing(t, 3, ringFresh, 0, true)
	r.Start(env)
	for i, to := range []ID{4, 2, 3} {
		env.Clear()
		env.now = time.Duration(i+1) * 50 * ms
		delete(env.Pending, timerAnswer) // the engine fired it
		r.Timer(env, timerAnswer)
		wantMsgs(t, env, fmt.Sprintf("ELECTION(3) t1 3→%d", to))
		// "Skipping is progress: it restarts the election timer".
		wantPending(t, env, map[string]time.Duration{timerAnswer: 50 * ms, timerElection: ringElection})
		if got := env.Sets(timerElection); !slices.Equal(got, []time.Duration{ringElection}) {
			t.Errorf("after re-sending to %d: election timer set %v, want once at %s", to, got, ringElection)
		}
		wantRingState(t, r, State{Status: Candidate})
		wantNote(t, env)
	}
	// A new hop of the round skips the suspects too.
	r, env = newRing(t, 3, ringFresh, 0, true)
	r.Start(env)
	env.now = 50 * ms
	r.Timer(env, timerAnswer) // 1 is suspected
	env.Clear()
	r.Receive(env, ringMsg(KindElection, 2, 3, 4, 1))
	wantMsgs(t, env, "ACK(4) t1 3→2", "ELECTION(4) t1 3→4")
}

// A leader whose ELECTED is not acknowledged re-sends it past the suspect, and is not a
// participant: no election timer is armed.
func TestRingAnswerTimeoutLeader(t *testing.T) {
	r, env := newRing(t, 4, ringFresh, 0, true)
	r.Start(env)
	r.Receive(env, ringMsg(KindAck, 2, 4, 4, 1))
	r.Receive(env, ringMsg(KindElection, 1, 4, 4, 1)) // elected: ELECTED(4) t1 → 2
	env.Clear()
	env.now = 50 * ms
	r.Timer(env, timerAnswer)
	wantMsgs(t, env, "ELECTED(4) t1 4→3")
	wantPending(t, env, map[string]time.Duration{timerAnswer: 50 * ms, timerHeartbeat: 50 * ms})
	wantRingState(t, r, State{Status: Leader, Leader: 4})
}

// "mark the successor suspect and resend": every message of the round still waiting on it is
// re-sent to the next node, in order; messages of a round that is over are not.
func TestRingAnswerTimeoutResends(t *testing.T) {
	t.Run("same round", func(t *testing.T) {
		r, env := newRing(t, 3, ringFresh, 0, true)
		r.Start(env)
		env.now = 10 * ms
		r.Receive(env, ringMsg(KindElection, 2, 3, 4, 1))
		env.Clear()
		env.now = 50 * ms
		r.Timer(env, timerAnswer)
		wantMsgs(t, env, "ELECTION(3) t1 3→4", "ELECTION(4) t1 3→4")
		if env.Pending[timerAnswer] != 50*ms {
			t.Errorf("pending %v, want answer at 50ms", env.Pending)
		}
	})
	t.Run("old round", func(t *testing.T) {
		r, env := newRing(t, 3, ringFresh, 0, true)
		r.Start(env) // ELECTION(3) t1 → 1
		env.now = 10 * ms
		r.Receive(env, ringMsg(KindElection, 2, 3, 4, 2)) // round 2: ELECTION(4) t2 → 1
		env.Clear()
		// At 50ms only the round-1 hop is overdue: it is let go, and nobody is suspected on its
		// account — the round-2 hop, sent at 10ms, is not due until 60ms.
		env.now = 50 * ms
		r.Timer(env, timerAnswer)
		wantMsgs(t, env)
		if env.Pending[timerAnswer] != 10*ms {
			t.Errorf("pending %v, want answer re-armed 10ms ahead", env.Pending)
		}
		env.now = 60 * ms
		r.Timer(env, timerAnswer)
		wantMsgs(t, env, "ELECTION(4) t2 3→4")
	})
}

// "On ELECTED(x): participant = false, leader = x, status Follower (unless x = me); forward it" —
// with the suspicion timer armed at timeout (150ms) and the participant and heartbeat timers
// cancelled.
func TestRingElectedFollows(t *testing.T) {
	cases := []struct {
		setup ringSetup
		id, x ID
	}{
		{ringCandidate, 3, 4},
		{ringFresh, 3, 4},
		{ringLeader, 3, 4}, // a leader hearing of a higher one steps down
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%d/%d", c.setup, c.id, c.x), func(t *testing.T) {
			r, env := newRing(t, c.id, c.setup, 0, true)
			r.Receive(env, ringMsg(KindElected, ringPrev(c.id), c.id, c.x, 1))
			wantRingState(t, r, State{Status: Follower, Leader: c.x})
			wantMsgs(t, env,
				fmt.Sprintf("ACK(%d) t1 %d→%d", c.x, c.id, ringPrev(c.id)),
				fmt.Sprintf("ELECTED(%d) t1 %d→%d", c.x, c.id, ringNext(c.id)))
			if r.participant {
				t.Error("still a participant")
			}
			if !env.Cancelled(timerElection) || !env.Cancelled(timerHeartbeat) {
				t.Errorf("timer operations %v, want election and heartbeat cancelled", env.Ops())
			}
			wantPending(t, env, map[string]time.Duration{timerSuspect: 150 * ms, timerAnswer: 50 * ms})
			wantNote(t, env)
		})
	}
}

// "A node higher than x does not follow it — the highest id is to win […]: it swallows the
// ELECTED and, unless it already follows a leader above itself, starts an election of its own."
func TestRingElectedFromLowerNode(t *testing.T) {
	t.Run("candidate initiates", func(t *testing.T) {
		r, env := newRing(t, 4, ringCandidate, 0, true)
		r.Receive(env, ringMsg(KindElected, 1, 4, 2, 1))
		wantInitiated(t, r, env, 4, 2, 2, "ACK(2) t1 4→1")
	})
	t.Run("follower of a higher leader swallows", func(t *testing.T) {
		for _, term := range []uint64{1, 2} {
			r, env := newRing(t, 3, ringFollower, 4, true)
			m := ringMsg(KindElected, 2, 3, 1, term)
			r.Receive(env, m)
			wantSwallowed(t, r, env, m, State{Status: Follower, Leader: 4})
			wantNote(t, env)
		}
	})
}

// "A leader that hears a lower node announced swallows it: the higher id is to win, and
// HEARTBEAT settles it" — in its round or a newer one.
func TestRingLeaderSwallowsLowerElected(t *testing.T) {
	for _, term := range []uint64{1, 2} {
		r, env := newRing(t, 4, ringLeader, 0, true)
		m := ringMsg(KindElected, 1, 4, 3, term)
		r.Receive(env, m)
		wantSwallowed(t, r, env, m, State{Status: Leader, Leader: 4})
		wantNote(t, env)
	}
}

// "Participant timeout (election-timeout): a participant that sees no ELECTED initiates again"
// — in a new round; a node that is not a participant ignores the timer.
func TestRingElectionTimer(t *testing.T) {
	t.Run("candidate", func(t *testing.T) {
		r, env := newRing(t, 3, ringCandidate, 0, true)
		delete(env.Pending, timerElection)
		r.Timer(env, timerElection)
		wantInitiated(t, r, env, 3, 1, 2)
	})
	t.Run("follower that passed an ELECTION on", func(t *testing.T) {
		r, env := newRing(t, 1, ringFollower, 4, true)
		r.Receive(env, ringMsg(KindElection, 3, 1, 3, 2))
		ackAll(r, env)
		env.Clear()
		delete(env.Pending, timerElection)
		r.Timer(env, timerElection)
		wantInitiated(t, r, env, 1, 4, 3)
	})
	for _, setup := range []ringSetup{ringFresh, ringFollower, ringLeader} {
		t.Run(setup.String()+" ignores", func(t *testing.T) {
			r, env := newRing(t, 3, setup, 4, false)
			before := r.State()
			r.Timer(env, timerElection)
			wantRingQuiet(t, r, env, before)
		})
	}
}

// HEARTBEAT, docs/algorithms.md (Ring): "a node that hears HEARTBEAT from a leader higher than its
// own follows it; a leader that hears one from a higher leader steps down; from a lower one,
// answers with its own HEARTBEAT"; from its own leader it renews the suspicion timer. ring.go: "A
// node never defers to a leader lower than itself: if it has no leader above itself, it starts an
// election (or lets the one it is in run on)" — the regression: a candidate used to follow it.
func TestRingHeartbeat(t *testing.T) {
	const (
		quiet    = iota // nothing done, state unchanged
		answer          // its own HEARTBEAT back, nothing else
		follow          // Follower of the sender, suspicion timer armed
		renew           // suspicion timer re-armed, nothing else
		initiate        // a new round
	)
	cases := []struct {
		name   string
		id     ID
		setup  ringSetup
		leader ID
		from   ID
		what   int
	}{
		{"leader hears lower", 3, ringLeader, 0, 1, answer},
		{"leader hears higher", 3, ringLeader, 0, 4, follow},
		{"follower hears its leader", 3, ringFollower, 4, 4, renew},
		{"follower hears higher leader", 1, ringFollower, 3, 4, follow},
		{"follower hears lower than its leader", 1, ringFollower, 4, 3, quiet},
		{"follower hears lower than itself", 3, ringFollower, 4, 2, quiet},
		{"candidate hears lower", 3, ringCandidate, 0, 1, quiet},
		{"candidate hears lower, regression", 4, ringCandidate, 0, 3, quiet},
		{"candidate hears higher", 3, ringCandidate, 0, 4, follow},
		{"candidate 1 hears 2", 1, ringCandidate, 0, 2, follow},
		{"fresh hears higher", 1, ringFresh, 0, 3, follow},
		{"fresh hears lower", 3, ringFresh, 0, 1, initiate},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, env := newRing(t, c.id, c.setup, c.leader, true)
			before := r.State()
			pending := maps.Clone(env.Pending)
			r.Receive(env, Message{Kind: KindHeartbeat, From: c.from, To: c.id})
			switch c.what {
			case quiet:
				wantRingQuiet(t, r, env, before)
			case answer:
				wantMsgs(t, env, fmt.Sprintf("HEARTBEAT %d→%d", c.id, c.from))
				wantRingState(t, r, before)
				if len(env.ops) != 0 {
					t.Errorf("timer operations %v, want none", env.Ops())
				}
				wantNote(t, env)
			case renew:
				wantMsgs(t, env)
				wantRingState(t, r, before)
				if got := env.Ops(); !slices.Equal(got, []string{"set suspect 150ms"}) {
					t.Errorf("timer operations %v, want the suspicion timer re-armed at 150ms", got)
				}
			case follow:
				wantRingState(t, r, State{Status: Follower, Leader: c.from})
				wantMsgs(t, env)
				want := map[string]time.Duration{timerSuspect: 150 * ms}
				if d, ok := pending[timerAnswer]; ok {
					want[timerAnswer] = d
				}
				wantPending(t, env, want)
				if r.participant {
					t.Error("still a participant after following a leader")
				}
				wantNote(t, env)
			case initiate:
				wantInitiated(t, r, env, c.id, ringNext(c.id), 1)
			}
		})
	}
}

// Suspicion "works as in Bully": the suspect timer makes a follower initiate; the heartbeat
// timer makes a leader send HEARTBEAT to every other node and re-arm it. Elsewhere timers (and
// unknown names) do nothing.
func TestRingSuspectAndHeartbeatTimers(t *testing.T) {
	t.Run("suspect/follower", func(t *testing.T) {
		r, env := newRing(t, 3, ringFollower, 4, true)
		delete(env.Pending, timerSuspect)
		r.Timer(env, timerSuspect)
		wantInitiated(t, r, env, 3, 1, 2)
	})
	t.Run("heartbeat/leader", func(t *testing.T) {
		r, env := newRing(t, 3, ringLeader, 0, false)
		for range 3 {
			env.Clear()
			delete(env.Pending, timerHeartbeat)
			r.Timer(env, timerHeartbeat)
			got := env.SentKind(KindHeartbeat)
			slices.Sort(got)
			if !slices.Equal(got, []ID{1, 2, 4}) || len(env.sends) != 3 {
				t.Errorf("sent %q, want HEARTBEAT to 1, 2 and 4", msgs(env))
			}
			wantPending(t, env, map[string]time.Duration{timerHeartbeat: 50 * ms})
			wantRingState(t, r, State{Status: Leader, Leader: 3})
		}
	})
	cases := []struct {
		timer string
		setup ringSetup
	}{
		{timerSuspect, ringCandidate},
		{timerSuspect, ringLeader},
		{timerHeartbeat, ringCandidate},
		{timerHeartbeat, ringFollower},
		{"bogus", ringCandidate},
		{"bogus", ringFollower},
		{"bogus", ringLeader},
	}
	for _, c := range cases {
		t.Run(c.timer+"/"+c.setup.String(), func(t *testing.T) {
			r, env := newRing(t, 3, c.setup, 4, false)
			before := r.State()
			r.Timer(env, c.timer)
			wantRingQuiet(t, r, env, before)
		})
	}
}

// randomRingInput draws an input for a Ring node: any message kind from any other node, with
// any value and a term around its round; any armed timer; elect; or a restart.
func randomRingInput(rng *rand.Rand, r *Ring, env *fakeEnv) bullyInput {
	switch n := rng.IntN(20); {
	case n == 0:
		return bullyInput{what: "start"}
	case n == 1:
		return bullyInput{what: "elect"}
	case n < 8 && len(env.Pending) > 0:
		return bullyInput{what: "timer", name: env.anyTimer(rng)}
	default:
		kinds := []string{KindElection, KindElected, KindAck, KindHeartbeat}
		var others []ID
		for _, j := range ringOrder {
			if j != r.id {
				others = append(others, j)
			}
		}
		lo := r.round
		if lo > 0 {
			lo--
		}
		m := Message{Kind: kinds[rng.IntN(len(kinds))], From: others[rng.IntN(len(others))], To: r.id}
		if m.Kind != KindHeartbeat {
			m.Value = ringOrder[rng.IntN(len(ringOrder))]
			m.Term = lo + uint64(rng.IntN(int(r.round-lo)+2))
		}
		return bullyInput{what: "receive", msg: m}
	}
}

// applyInput feeds in to any node; a timer input fires (and so disarms) the timer.
func applyInput(n Node, env *fakeEnv, in bullyInput) {
	switch in.what {
	case "start":
		n.Start(env)
	case "elect":
		n.Elect(env)
	case "receive":
		n.Receive(env, in.msg)
	case "timer":
		delete(env.Pending, in.name)
		n.Timer(env, in.name)
	}
}

// walkRing feeds every node of the ring a long seeded random sequence of inputs and calls check
// after each step.
func walkRing(t *testing.T, tracing bool, check func(t *testing.T, id ID, in bullyInput, before, after State, env *fakeEnv)) {
	for _, id := range ringOrder {
		for seed := range uint64(20) {
			rng := rand.New(rand.NewPCG(seed, uint64(id)))
			r := NewRing(id, ringCluster(t, ringOrder, nil))
			env := newFakeEnv(t, id, tracing)
			r.Start(env)
			for step := range 300 {
				env.Clear()
				env.now += time.Duration(rng.IntN(30)) * ms
				in := randomRingInput(rng, r, env)
				before := r.State()
				applyInput(r, env, in)
				check(t, id, in, before, r.State(), env)
				if t.Failed() {
					t.Fatalf("node %d, seed %d, step %d: %s from %+v", id, seed, step, in, before)
				}
			}
		}
	}
}

// "algorithms call Note only when Tracing is true": with tracing off, no input ever leads to a
// Note (the fake fails the test if one does).
func TestRingNoNotesWithoutTracing(t *testing.T) {
	walkRing(t, false, func(*testing.T, ID, bullyInput, State, State, *fakeEnv) {})
}

// "Note records why the node did what it did": with tracing on, every change of state comes
// with a non-empty note. The walk also checks the invariants of §3.2's states (a Leader leads
// itself, a Candidate knows no leader, a Follower follows another node, term 0), that timers
// are Ring's four at their configured durations, and that every ELECTION and ELECTED is
// acknowledged first.
func TestRingStateChangesHaveNotes(t *testing.T) {
	durations := map[string]time.Duration{
		timerElection: ringElection, timerHeartbeat: 50 * ms, timerSuspect: 150 * ms,
	}
	walkRing(t, true, func(t *testing.T, id ID, in bullyInput, before, after State, env *fakeEnv) {
		checkHighestWins(t, id, before, after, env)
		for _, o := range env.ops {
			if o.Op != "set" {
				continue
			}
			if o.Name == timerAnswer {
				if o.After < 0 || o.After > 50*ms {
					t.Errorf("timer operation %s", o)
				}
			} else if want, ok := durations[o.Name]; !ok || o.After != want {
				t.Errorf("timer operation %s", o)
			}
		}
		if in.what == "receive" && (in.msg.Kind == KindElection || in.msg.Kind == KindElected) {
			want := ringMsg(KindAck, id, in.msg.From, in.msg.Value, in.msg.Term)
			if len(env.sends) == 0 || env.sends[0] != want {
				t.Errorf("sent %q, want %s first", msgs(env), want)
			}
		}
		for _, m := range env.sends {
			if slices.Index(ringOrder, m.To) < 0 || (m.Kind == KindHeartbeat && m.To == id) {
				t.Errorf("sent %s", m)
			}
		}
	})
}

// crHops is Σ over nodes of the hops from each to the next larger id clockwise, the maximum
// travelling all n: the ELECTION count of docs/algorithms.md (Ring), computed independently of
// Ring.
func crHops(ring []ID) int {
	n, total := len(ring), 0
	for i, x := range ring {
		for k := 1; k <= n; k++ {
			total++
			if ring[(i+k)%n] > x {
				break
			}
		}
	}
	return total
}

// runRingByHand boots every node of ring in ascending id order and delivers every message by
// hand until none is left, never firing a timer. pick chooses which deliverable message goes
// next among the heads of the links (FIFO per directed link); nil means global FIFO. It returns
// the nodes and how many messages of each kind were sent.
func runRingByHand(t *testing.T, ring []ID, pick func(n int) int) (map[ID]*Ring, map[string]int) {
	c := ringCluster(t, ring, nil)
	nodes, envs := map[ID]*Ring{}, map[ID]*fakeEnv{}
	var queue []Message
	counts := map[string]int{}
	collect := func(env *fakeEnv) {
		for _, m := range env.sends {
			counts[m.Kind]++
			queue = append(queue, m)
		}
		env.Clear()
	}
	for _, id := range c.Sorted {
		nodes[id], envs[id] = NewRing(id, c), newFakeEnv(t, id, true)
	}
	for _, id := range c.Sorted {
		nodes[id].Start(envs[id])
		collect(envs[id])
	}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10000 {
			t.Fatalf("no quiescence after %d deliveries: %d messages in flight", steps, len(queue))
		}
		// The heads of the links: a message no earlier one on its link precedes.
		var heads []int
		seen := map[[2]ID]bool{}
		for i, m := range queue {
			if link := [2]ID{m.From, m.To}; !seen[link] {
				seen[link] = true
				heads = append(heads, i)
			}
		}
		i := 0
		if pick != nil {
			i = heads[pick(len(heads))]
		}
		m := queue[i]
		queue = slices.Delete(queue, i, i+1)
		envs[m.To].now = time.Duration(steps) * ms
		nodes[m.To].Receive(envs[m.To], m)
		collect(envs[m.To])
	}
	return nodes, counts
}

// "Exact counts, all nodes alive and initiating at boot, any delays: ELECTION = Σ over nodes of
// the hops to the next larger id clockwise […] ELECTED = n", every hop is ACKed, and the maximum
// leads with every other node following it.
func TestRingScriptedRun(t *testing.T) {
	cases := []struct {
		ring []ID
		want int
	}{
		{[]ID{3, 1, 4, 2}, 8},            // 3→1→4: 2, 1→4: 1, 4→2→3→1→4: 4, 2→3: 1
		{[]ID{1, 2, 3, 4, 5}, 2*5 - 1},   // increasing: 2n−1
		{[]ID{5, 4, 3, 2, 1}, 5 * 6 / 2}, // decreasing: n(n+1)/2
		{[]ID{2, 7, 1, 9, 4, 3, 8}, 0},   // any: computed
	}
	for _, c := range cases {
		if c.want == 0 {
			c.want = crHops(c.ring)
		} else if got := crHops(c.ring); got != c.want {
			t.Fatalf("crHops(%v) = %d, want %d", c.ring, got, c.want)
		}
		for seed := range uint64(6) {
			t.Run(fmt.Sprintf("%v/%d", c.ring, seed), func(t *testing.T) {
				var pick func(int) int
				if seed > 0 { // seed 0: global FIFO; others: a seeded interleaving of the links
					rng := rand.New(rand.NewPCG(seed, 7))
					pick = rng.IntN
				}
				nodes, counts := runRingByHand(t, c.ring, pick)
				n := len(c.ring)
				if counts[KindElection] != c.want || counts[KindElected] != n {
					t.Errorf("ELECTION %d ELECTED %d, want %d and %d", counts[KindElection], counts[KindElected], c.want, n)
				}
				if counts[KindAck] != counts[KindElection]+counts[KindElected] {
					t.Errorf("ACK %d, want one per ELECTION and ELECTED (%d)", counts[KindAck], counts[KindElection]+counts[KindElected])
				}
				if counts[KindHeartbeat] != 0 {
					t.Errorf("HEARTBEAT %d without a timer firing", counts[KindHeartbeat])
				}
				top := slices.Max(c.ring)
				for id, r := range nodes {
					want := State{Status: Follower, Leader: top}
					if id == top {
						want.Status = Leader
					}
					if r.State() != want {
						t.Errorf("node %d: state %+v, want %+v", id, r.State(), want)
					}
					if r.participant || len(r.pending) != 0 {
						t.Errorf("node %d: participant %v, %d hops unacknowledged", id, r.participant, len(r.pending))
					}
				}
			})
		}
	}
}

// Parameters set in the cluster override the defaults: heartbeat 50ms, timeout 150ms,
// answer-timeout 50ms, election-timeout (2n+2) × max delay (with max delay at least 1ms).
func TestRingParams(t *testing.T) {
	info, err := Lookup("ring")
	if err != nil {
		t.Fatal(err)
	}
	cfg := newRingConfig(ringCluster(t, ringOrder, nil))
	if cfg.heartbeat != 50*ms || cfg.timeout != 150*ms || cfg.answer != 50*ms || cfg.election != ringElection {
		t.Errorf("defaults %+v", cfg)
	}
	zero, err := NewCluster(ringOrder, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := newRingConfig(zero).election; got != 10*ms {
		t.Errorf("election-timeout with max delay 0: %s, want 10 × 1ms", got)
	}
	params := Params{}
	for k, s := range map[string]string{"heartbeat": "20ms", "timeout": "300ms", "answer-timeout": "80ms", "election-timeout": "1s"} {
		v, err := info.ParseParam(k, s)
		if err != nil {
			t.Fatal(err)
		}
		params[k] = v
	}
	cfg = newRingConfig(ringCluster(t, ringOrder, params))
	if cfg.heartbeat != 20*ms || cfg.timeout != 300*ms || cfg.answer != 80*ms || cfg.election != time.Second {
		t.Errorf("with parameters %+v", cfg)
	}
	r := NewRing(3, ringCluster(t, ringOrder, params))
	env := newFakeEnv(t, 3, false)
	r.Start(env)
	wantPending(t, env, map[string]time.Duration{timerAnswer: 80 * ms, timerElection: time.Second})
}

// The registry entry: kinds ELECTION, ELECTED, ACK, HEARTBEAT; HEARTBEAT and ACK are routine;
// no terms in State; warnings for answer-timeout ≤ 2 × max delay, timeout ≤ heartbeat + max
// delay and election-timeout ≤ 2n × max delay.
func TestRingInfo(t *testing.T) {
	info, err := Lookup("ring")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"ELECTION", "ELECTED", "ACK", "HEARTBEAT"}; !slices.Equal(info.Kinds, want) {
		t.Errorf("Kinds = %v, want %v", info.Kinds, want)
	}
	if !info.IsRoutine("HEARTBEAT") || !info.IsRoutine("ACK") || info.IsRoutine("ELECTION") || info.IsRoutine("ELECTED") {
		t.Errorf("Routine = %v", info.Routine)
	}
	if info.Terms {
		t.Error("Terms = true; Ring's State has no terms")
	}
	if n := info.New(4, ringCluster(t, ringOrder, nil)); n.State() != (State{}) {
		t.Errorf("unstarted node state %+v", n.State())
	}
	cases := []struct {
		maxDelay time.Duration
		params   []string
		want     []string
	}{
		{10 * ms, nil, nil},
		{25 * ms, nil, []string{"answer-timeout"}},
		{10 * ms, []string{"election-timeout=80ms"}, []string{"election-timeout"}},
		{10 * ms, []string{"election-timeout=81ms"}, nil},
		{10 * ms, []string{"timeout=60ms"}, []string{"timeout 60ms"}},
	}
	for _, c := range cases {
		checkWarnings(t, info, ringOrder, c.maxDelay, algoParams(t, "ring", c.params...), c.want)
	}
}
