package algo

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// newPaxosNode returns node id of the cluster {1..n} (max delay 15ms, params), booted, with a
// tracing fake env whose record is clear.
func newPaxosNode(t testing.TB, id ID, n int, kv ...string) (*Paxos, *fakeEnv) {
	t.Helper()
	ids := make([]ID, n)
	for i := range ids {
		ids[i] = ID(i + 1)
	}
	c, err := NewCluster(ids, 15*ms, algoParams(t, "paxos", kv...))
	if err != nil {
		t.Fatal(err)
	}
	p, env := NewPaxos(id, c), newFakeEnv(t, id, true)
	p.Start(env)
	env.Clear()
	return p, env
}

// firePaxos makes the engine fire the named timer.
func firePaxos(p *Paxos, env *fakeEnv, name string) {
	delete(env.Pending, name)
	p.Timer(env, name)
}

// wantSends checks the recorded sends, each written as Message.String, in order.
func wantSends(t testing.TB, env *fakeEnv, want ...string) {
	t.Helper()
	var got []string
	for _, m := range env.sends {
		got = append(got, m.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("sent\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func wantPaxosState(t testing.TB, p *Paxos, want State) {
	t.Helper()
	if got := p.State(); got != want {
		t.Errorf("state %+v, want %+v", got, want)
	}
}

// promiseFrom is a PROMISE of ballot b from node from carrying proposals (nil: none).
func promiseFrom(from ID, b uint64, commit uint64, es ...Entry) Message {
	m := Message{Kind: KindPromise, From: from, Term: b}
	if commit > 0 || len(es) > 0 {
		m.Log = &LogPart{Commit: commit, Entries: es}
	}
	return m
}

// Ballots are (round, proposer) as one number: among n nodes, the node at position i (1-based,
// by ascending id) owns i, i+n, i+2n, …; the next of mine is the smallest above any ballot.
func TestPaxosBallots(t *testing.T) {
	c, err := NewCluster([]ID{9, 3, 7}, 15*ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	p3, p7, p9 := NewPaxos(3, c), NewPaxos(7, c), NewPaxos(9, c)
	for _, tt := range []struct {
		p          *Paxos
		above, got uint64
	}{
		{p3, 0, 1}, {p7, 0, 2}, {p9, 0, 3},
		{p3, 1, 4}, {p3, 3, 4}, {p3, 4, 7}, {p7, 4, 5}, {p9, 4, 6}, {p9, 6, 9}, {p7, 100, 101},
	} {
		if got := tt.p.nextBallot(tt.above); got != tt.got {
			t.Errorf("node %d above ballot %d: %d, want %d", tt.p.id, tt.above, got, tt.got)
		}
	}
	for b, want := range map[uint64]ID{0: 0, 1: 3, 2: 7, 3: 9, 4: 3, 8: 7, 300: 9} {
		if got := p3.proposerOf(b); got != want {
			t.Errorf("ballot %d belongs to %d, want %d", b, got, want)
		}
	}
	if got := p3.ballotText(8); got != "ballot 8 (round 3 of node 7)" {
		t.Errorf("ballotText(8) = %q", got)
	}
}

// A node boots a follower waiting `timeout` for a leader's ACCEPT; when none comes it starts
// phase 1: the smallest ballot of its own, promised first by its own acceptor on stable storage,
// PREPARE to every other node, and `timeout` to gather a majority.
func TestPaxosSuspicionStartsPhase1(t *testing.T) {
	p, env := newPaxosNode(t, 2, 3)
	wantPaxosState(t, p, State{Status: Follower})
	firePaxos(p, env, timerSuspect)
	wantPaxosState(t, p, State{Status: Candidate, Term: 2})
	wantSends(t, env, "PREPARE t2 2→1", "PREPARE t2 2→3")
	if env.Disk[diskPromised] != 2 || env.Pending[timerRound] != 300*ms {
		t.Errorf("disk %v, pending %v: want promised 2, a round of 300ms", env.Disk, env.Pending)
	}
	wantNote(t, env)
}

// "If an acceptor receives a prepare request with number n greater than that of any prepare
// request to which it has already responded, then it responds [...] with a promise [...] and
// with the highest-numbered proposal (if any) that it has accepted" — every slot's; otherwise
// NACK with the ballot it promised.
func TestPaxosAcceptorPromises(t *testing.T) {
	p, env := newPaxosNode(t, 1, 3)
	p.Receive(env, Message{Kind: KindPaxosAccept, From: 2, Term: 2,
		Log: &LogPart{Index: 1, Entries: []Entry{{Index: 1, Term: 2, By: 2, Value: 201}}}})
	wantSends(t, env, "ACCEPTED t2 [at 1/t2] 1→2")
	env.Clear()
	p.Receive(env, Message{Kind: KindPrepare, From: 3, Term: 3})
	wantSends(t, env, "PROMISE t3 [entries 1/t2.2=201] 1→3")
	wantPaxosState(t, p, State{Status: Follower, Term: 3})
	if env.Disk[diskPromised] != 3 {
		t.Errorf("promise on disk %d, want 3", env.Disk[diskPromised])
	}
	for _, b := range []uint64{3, 2} { // the same ballot again, and a lower one
		env.Clear()
		p.Receive(env, Message{Kind: KindPrepare, From: 2, Term: b})
		wantSends(t, env, "NACK t3 1→2")
	}
	env.Clear()
	p.Receive(env, Message{Kind: KindPaxosAccept, From: 2, Term: 2, Log: &LogPart{Index: 1}})
	wantSends(t, env, "NACK t3 1→2")
}

// A majority of promises makes a leader: slot by slot it re-proposes the value of the
// highest-ballot proposal the promises carried, a write of its own where none did, and sends
// them all in its first ACCEPT at once.
func TestPaxosLeaderAdoptsHighestBallot(t *testing.T) {
	p, env := newPaxosNode(t, 1, 5)
	firePaxos(p, env, timerSuspect) // ballot 1
	firePaxos(p, env, timerRound)   // nobody answered: a backoff, then ballot 6
	firePaxos(p, env, timerBackoff)
	wantPaxosState(t, p, State{Status: Candidate, Term: 6})
	env.Clear()
	p.Receive(env, promiseFrom(2, 6, 0, Entry{Index: 1, Term: 2, By: 2, Value: 201}, Entry{Index: 3, Term: 4, By: 4, Value: 403}))
	p.Receive(env, promiseFrom(3, 1, 0, Entry{Index: 1, Term: 5, By: 5, Value: 501})) // an old ballot: not counted
	wantPaxosState(t, p, State{Status: Candidate, Term: 6})
	p.Receive(env, promiseFrom(3, 6, 0, Entry{Index: 1, Term: 3, By: 3, Value: 301}, Entry{Index: 2, Term: 3, By: 3, Value: 302}))
	wantPaxosState(t, p, State{Status: Leader, Leader: 1, Term: 6})
	accept := "ACCEPT t6 [at 3/t6, entries 1/t6.1=301 2/t6.1=302 3/t6.1=403]"
	wantSends(t, env, accept+" 1→2", accept+" 1→3", accept+" 1→4", accept+" 1→5")
	if got, _ := p.Log(); len(got) != 3 || got[2].Value != 403 || env.Disk["accepted-value-3"] != 403 {
		t.Errorf("my acceptor holds %v (disk %v), want the three proposals", got, env.Disk)
	}
}

// The leader proposes one client write per interval, 100·id + slot; a majority's ACCEPTED
// chooses it, and the leader tells every node (CHOSEN, with every value chosen so far). Among 3
// nodes one ACCEPTED besides its own acceptance is a majority: per write, n−1 ACCEPTs, and n−1
// CHOSENs once chosen.
func TestPaxosLeaderChoosesOnAMajority(t *testing.T) {
	p, env := newPaxosNode(t, 3, 3)
	firePaxos(p, env, timerSuspect)
	p.Receive(env, promiseFrom(1, 3, 0))
	wantSends(t, env, "PREPARE t3 3→1", "PREPARE t3 3→2",
		"ACCEPT t3 [at 1/t3, entries 1/t3.3=301] 3→1", "ACCEPT t3 [at 1/t3, entries 1/t3.3=301] 3→2")
	env.Clear()
	p.Receive(env, Message{Kind: KindAccepted, From: 2, Term: 3, Log: &LogPart{Index: 1, IndexTerm: 3}})
	wantSends(t, env, "CHOSEN t3 [commit 1, entries 1/t3.3=301] 3→1", "CHOSEN t3 [commit 1, entries 1/t3.3=301] 3→2")
	wantNote(t, env)
	env.Clear()
	p.Receive(env, Message{Kind: KindAccepted, From: 1, Term: 3, Log: &LogPart{Index: 1, IndexTerm: 3}})
	wantSends(t, env) // counted already, and it knew as much as my last ACCEPT said
	firePaxos(p, env, timerWrite)
	wantSends(t, env, "ACCEPT t3 [at 2/t3, commit 1, entries 2/t3.3=302] 3→1", "ACCEPT t3 [at 2/t3, commit 1, entries 2/t3.3=302] 3→2")
	if env.Pending[timerWrite] != 100*ms {
		t.Errorf("pending %v, want the next write in 100ms", env.Pending)
	}
	// A node that answers knowing less than my last ACCEPT said is told again.
	env.Clear()
	p.Receive(env, Message{Kind: KindAccepted, From: 1, Term: 3, Log: &LogPart{Index: 2, IndexTerm: 3}})
	wantSends(t, env, "CHOSEN t3 [commit 2, entries 1/t3.3=301 2/t3.3=302] 3→1", "CHOSEN t3 [commit 2, entries 1/t3.3=301 2/t3.3=302] 3→2")
	env.Clear()
	p.Receive(env, Message{Kind: KindAccepted, From: 2, Term: 3, Log: &LogPart{Index: 2, IndexTerm: 3}})
	wantSends(t, env, "CHOSEN t3 [commit 2, entries 1/t3.3=301 2/t3.3=302] 3→2")
	if entries, committed := p.Log(); len(entries) != 2 || committed != 2 {
		t.Errorf("Log() = %v, %d; want two entries, both chosen", entries, committed)
	}
}

// With every slot chosen the log is full: ACCEPT goes on as the heartbeat alone.
func TestPaxosFullLogHeartbeats(t *testing.T) {
	p, env := newPaxosNode(t, 1, 1, "slots=2") // alone: every promise and acceptance a majority
	firePaxos(p, env, timerSuspect)
	firePaxos(p, env, timerWrite)
	firePaxos(p, env, timerWrite)
	if entries, committed := p.Log(); len(entries) != 2 || committed != 2 || p.State().Status != Leader {
		t.Fatalf("Log() = %v, %d, state %+v: want two chosen entries, a leader", entries, committed, p.State())
	}
	env.Clear()
	firePaxos(p, env, timerWrite)
	if len(env.sends) != 0 || len(env.notes) != 0 || env.Pending[timerWrite] != 100*ms {
		t.Errorf("a full log alone: sent %v, notes %q, pending %v", env.Sent(), env.notes, env.Pending)
	}
	q, env := newPaxosNode(t, 2, 3, "slots=1")
	firePaxos(q, env, timerSuspect)
	q.Receive(env, promiseFrom(1, 2, 0))
	q.Receive(env, Message{Kind: KindAccepted, From: 1, Term: 2, Log: &LogPart{Index: 1, IndexTerm: 2}})
	env.Clear()
	firePaxos(q, env, timerWrite)
	wantSends(t, env, "ACCEPT t2 [at 1/t2, commit 1] 2→1", "ACCEPT t2 [at 1/t2, commit 1] 2→3")
}

// An ACCEPT of a ballot at least the one promised is accepted, on stable storage, answered, and
// followed: a candidate stops standing, a backing-off proposer stops waiting.
func TestPaxosAcceptFollows(t *testing.T) {
	p, env := newPaxosNode(t, 1, 3)
	firePaxos(p, env, timerSuspect) // ballot 1
	env.Clear()
	p.Receive(env, Message{Kind: KindPaxosAccept, From: 3, Term: 3,
		Log: &LogPart{Index: 2, IndexTerm: 3, Commit: 1, Entries: []Entry{{Index: 2, Term: 3, By: 3, Value: 302}}}})
	wantPaxosState(t, p, State{Status: Follower, Leader: 3, Term: 3})
	wantSends(t, env, "ACCEPTED t3 [at 2/t3] 1→3")
	if !env.Cancelled(timerRound) || env.Pending[timerSuspect] != 300*ms {
		t.Errorf("timers %v, pending %v: want the round cancelled, suspicion in 300ms", env.Ops(), env.Pending)
	}
	if env.Disk["accepted-ballot-2"] != 3 || env.Disk["accepted-value-2"] != 302 || env.Disk[diskPromised] != 3 {
		t.Errorf("disk %v", env.Disk)
	}
	wantNote(t, env)
	// It learns what is chosen from CHOSEN, whichever ballot's.
	p.Receive(env, Message{Kind: KindChosen, From: 2, Term: 2, Log: &LogPart{Commit: 2,
		Entries: []Entry{{Index: 1, Term: 2, By: 2, Value: 201}, {Index: 2, Term: 2, By: 2, Value: 302}}}})
	if entries, committed := p.Log(); committed != 2 || entries[0].Value != 201 {
		t.Errorf("Log() = %v, %d; want 201 and 302 chosen", entries, committed)
	}
}

// A NACK with a higher ballot preempts a proposer. With backoff it waits a random time in
// backoff-time (whole microseconds, drawn from its source), then stands with a ballot above the
// one that beat it unless a leader's ACCEPT came first; without, it stands again at once.
func TestPaxosPreemption(t *testing.T) {
	p, env := newPaxosNode(t, 1, 3)
	firePaxos(p, env, timerSuspect)
	env.Clear()
	p.Receive(env, Message{Kind: KindNack, From: 2, Term: 1}) // not above my ballot: an old refusal
	wantPaxosState(t, p, State{Status: Candidate, Term: 1})
	p.Receive(env, Message{Kind: KindNack, From: 2, Term: 5})
	wantPaxosState(t, p, State{Status: Follower, Term: 5})
	d, ok := env.Pending[timerBackoff]
	if !ok || d < 20*ms || d > 200*ms || d%time.Microsecond != 0 || len(env.sends) != 0 {
		t.Errorf("pending %v, sent %v: want a backoff within 20ms..200ms and nothing sent", env.Pending, env.Sent())
	}
	wantNote(t, env)
	env.Clear()
	firePaxos(p, env, timerBackoff)
	wantPaxosState(t, p, State{Status: Candidate, Term: 7})
	wantSends(t, env, "PREPARE t7 1→2", "PREPARE t7 1→3")

	q, env := newPaxosNode(t, 1, 3, "backoff=off")
	firePaxos(q, env, timerSuspect)
	env.Clear()
	q.Receive(env, Message{Kind: KindPrepare, From: 2, Term: 2}) // my own acceptor promises 2: preempted
	wantPaxosState(t, q, State{Status: Candidate, Term: 4})
	wantSends(t, env, "PROMISE t2 1→2", "PREPARE t4 1→2", "PREPARE t4 1→3")
}

// What an acceptor promised and accepted survives a crash: a recovered node refuses a ballot it
// promised not to accept, and its promises carry what it accepted before.
func TestPaxosRestartKeepsPromises(t *testing.T) {
	p, env := newPaxosNode(t, 2, 3)
	p.Receive(env, Message{Kind: KindPaxosAccept, From: 3, Term: 3,
		Log: &LogPart{Index: 1, IndexTerm: 3, Entries: []Entry{{Index: 1, Term: 3, By: 3, Value: 301}}}})
	p.Receive(env, Message{Kind: KindPrepare, From: 1, Term: 4})
	disk := env.Disk
	p, env = newPaxosNode(t, 2, 3)
	env.Disk = disk
	p.Start(env)
	wantPaxosState(t, p, State{Status: Follower, Term: 4})
	wantNote(t, env)
	env.Clear()
	p.Receive(env, Message{Kind: KindPaxosAccept, From: 3, Term: 3, Log: &LogPart{Index: 1, IndexTerm: 3}})
	wantSends(t, env, "NACK t4 2→3")
	env.Clear()
	p.Receive(env, Message{Kind: KindPrepare, From: 3, Term: 6})
	wantSends(t, env, "PROMISE t6 [entries 1/t3.3=301] 2→3")
}

// Parameters: defaults, validation of slots, and the warnings of timing that breaks the
// election's assumptions.
func TestPaxosParams(t *testing.T) {
	info := paxosInfo()
	c, err := NewCluster([]ID{1, 2, 3}, 15*ms, algoParams(t, "paxos", "slots=100"))
	if err != nil {
		t.Fatal(err)
	}
	if err := info.Validate(c); err == nil || !strings.Contains(err.Error(), "slots 100 is more than 99") {
		t.Errorf("Validate(slots=100) = %v", err)
	}
	cfg := makePaxosConfig(&Cluster{Params: Params{}})
	if cfg.writes != 100*ms || cfg.timeout != 300*ms || !cfg.backoff || cfg.backoffLo != 20*ms || cfg.backoffHi != 200*ms || cfg.slots != 8 {
		t.Errorf("defaults %+v", cfg)
	}
	checkWarnings(t, info, []ID{1, 2, 3}, 15*ms, nil, nil)
	checkWarnings(t, info, []ID{1, 2, 3}, 15*ms, algoParams(t, "paxos", "timeout=110ms", "backoff-time=10ms..30ms"),
		[]string{"followers may start phase 1 while their leader is alive", "the duel go on"})
	checkWarnings(t, info, []ID{1, 2, 3}, 15*ms, algoParams(t, "paxos", "backoff=off", "backoff-time=10ms..30ms"), nil)
}

// Without tracing a node writes no notes (the fake env fails the test if it does).
func TestPaxosNoNotesWithoutTracing(t *testing.T) {
	p, env := newPaxosNode(t, 3, 3)
	env.tracing = false
	firePaxos(p, env, timerSuspect)
	p.Receive(env, promiseFrom(1, 3, 0))
	p.Receive(env, Message{Kind: KindAccepted, From: 2, Term: 3, Log: &LogPart{Index: 1}})
	p.Receive(env, Message{Kind: KindNack, From: 2, Term: 7})
	firePaxos(p, env, timerBackoff)
}
