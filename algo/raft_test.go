package algo

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// The tests below drive one Raft node by hand through a fakeEnv, on the cluster {1,2,3,4,5} with a
// max delay of 15ms, and check each rule of the paper (Ongaro and Ousterhout, §5.2;
// docs/algorithms.md, Raft).

// The default timing of Raft.
const (
	raftHeartbeat = 50 * ms
	raftLo        = 150 * ms
	raftHi        = 300 * ms
)

// raftCluster returns the cluster {1..5} with max delay 15ms and the given parameters.
func raftCluster(t testing.TB, params Params) *Cluster {
	t.Helper()
	return bullyCluster(t, params)
}

// raftParams parses key=value pairs with Raft's parameter descriptions.
func raftParams(t testing.TB, kv ...string) Params {
	t.Helper()
	return algoParams(t, "raft", kv...)
}

// algoParams parses key=value pairs with the parameter descriptions of algorithm name.
func algoParams(t testing.TB, name string, kv ...string) Params {
	t.Helper()
	info, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	p := Params{}
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

// Messages as the engine delivers them.
func requestVote(from, to ID, term uint64) Message {
	return Message{Kind: KindRequestVote, From: from, To: to, Term: term}
}

func vote(from, to ID, term uint64, granted bool) Message {
	return Message{Kind: KindVote, From: from, To: to, Term: term, Flag: granted}
}

func appendMsg(from, to ID, term uint64) Message {
	return Message{Kind: KindAppend, From: from, To: to, Term: term}
}

func appendAnswer(from, to ID, term uint64) Message {
	return Message{Kind: KindAppend, From: from, To: to, Term: term, Flag: true}
}

// raftSetup is the state a test puts a node in before the step it checks.
type raftSetup int

const (
	raftFresh     raftSetup = iota // constructed, not started
	raftBooted                     // started: follower of term 0, no leader
	raftFollower                   // follower of leader in term 1 (it voted for it)
	raftCandidate                  // its election timer fired: candidate of term 1
	raftLeader                     // candidate of term 1, then VOTEs from the two nodes after it
)

func (s raftSetup) String() string {
	return [...]string{"fresh", "booted", "follower", "candidate", "leader"}[s]
}

// newRaftNode puts node id in the given state, in term 1, using only the node's own inputs, and
// clears the fake's recordings, so that the caller sees only the next step's effects. leader is
// whom a follower follows.
func newRaftNode(t testing.TB, id ID, setup raftSetup, leader ID, tracing bool, params Params) (*Raft, *fakeEnv) {
	t.Helper()
	return newRaftNodeAt(t, id, setup, leader, 1, tracing, params)
}

// newRaftNodeAt is newRaftNode in the given term: the node first hears an APPEND of the term
// before it (from leader, or another node), then reaches its state in term.
func newRaftNodeAt(t testing.TB, id ID, setup raftSetup, leader ID, term uint64, tracing bool, params Params) (*Raft, *fakeEnv) {
	t.Helper()
	r := NewRaft(id, raftCluster(t, params))
	env := newFakeEnv(t, id, tracing)
	if setup != raftFresh {
		r.Start(env)
	}
	if term > 1 && setup != raftFresh && setup != raftBooted {
		other := leader
		if other == 0 {
			other = othersThan(id)[0]
		}
		r.Receive(env, appendMsg(other, id, term-1))
	}
	var want State
	switch setup {
	case raftBooted:
		want = State{Status: Follower}
	case raftFollower:
		r.Receive(env, requestVote(leader, id, term))
		r.Receive(env, appendMsg(leader, id, term))
		want = State{Status: Follower, Leader: leader, Term: term}
	case raftCandidate:
		fire(r, env, timerElection)
		want = State{Status: Candidate, Term: term}
	case raftLeader:
		fire(r, env, timerElection)
		for _, j := range othersThan(id)[:2] {
			r.Receive(env, vote(j, id, term, true))
		}
		want = State{Status: Leader, Leader: id, Term: term}
	}
	if r.State() != want {
		t.Fatalf("setup %s of node %d in term %d: state %+v, want %+v", setup, id, term, r.State(), want)
	}
	env.Clear()
	return r, env
}

// fire makes the engine fire the named timer: it is no longer pending, and the node handles it.
func fire(r *Raft, env *fakeEnv, name string) {
	delete(env.Pending, name)
	r.Timer(env, name)
}

func wantRaftState(t testing.TB, r *Raft, want State) {
	t.Helper()
	if got := r.State(); got != want {
		t.Errorf("state = %+v, want %+v", got, want)
	}
}

// twinRand is a random source seeded like the fake's for node id: it predicts the node's draws.
func twinRand(id ID) *rand.Rand { return rand.New(rand.NewPCG(uint64(id), 0x5eed)) }

// drawElection is the election timeout a node draws from r with the default range: 150ms plus
// a whole number of microseconds up to 150ms.
func drawElection(r *rand.Rand) time.Duration {
	return raftLo + time.Duration(r.Int64N(int64((raftHi-raftLo)/time.Microsecond)+1))*time.Microsecond
}

// wantElectionArmed checks that the election timer is pending with a duration in the default
// range, and the heartbeat timer is not.
func wantElectionArmed(t testing.TB, env *fakeEnv) {
	t.Helper()
	d, ok := env.Pending[timerElection]
	if !ok || d < raftLo || d > raftHi {
		t.Errorf("pending timers %v, want the election timer within 150ms..300ms", env.Pending)
	}
	if _, ok := env.Pending[timerHeartbeat]; ok {
		t.Errorf("pending timers %v, want no heartbeat timer", env.Pending)
	}
}

// wantCandidacy checks that node id has just become a candidate of term: it voted for itself,
// sent REQUEST_VOTE of term to every other node in ascending order (after the sends in first),
// and armed a fresh election timer, set once.
func wantCandidacy(t testing.TB, r *Raft, env *fakeEnv, id ID, term uint64, first ...string) {
	t.Helper()
	wantRaftState(t, r, State{Status: Candidate, Term: term})
	want := slices.Clone(first)
	for _, j := range othersThan(id) {
		want = append(want, requestVote(id, j, term).String())
	}
	wantMsgs(t, env, want...)
	if r.disk.votedFor != id {
		t.Errorf("votedFor = %d, want %d (itself)", r.disk.votedFor, id)
	}
	if got := env.Sets(timerElection); len(got) != 1 {
		t.Errorf("election timer set %v, want once", got)
	}
	wantElectionArmed(t, env)
}

// "When servers start up, they begin as followers": term 0, no leader, an election timer
// within election-timeout, nothing sent.
func TestRaftStart(t *testing.T) {
	r, env := newRaftNode(t, 3, raftFresh, 0, true, nil)
	wantRaftState(t, r, State{})
	r.Start(env)
	wantRaftState(t, r, State{Status: Follower})
	wantMsgs(t, env)
	wantElectionArmed(t, env)
	wantNote(t, env)
}

// "election timeouts are chosen randomly from a fixed interval (e.g., 150–300ms)", drawn afresh
// each time the timer is armed, from the node's own random source (env.Rand): the fake's source
// is seeded, so a twin of it predicts every draw.
func TestRaftElectionTimeoutDrawnFromRand(t *testing.T) {
	r, env := newRaftNode(t, 2, raftFresh, 0, false, nil)
	twin := twinRand(2)
	r.Start(env)
	var want []time.Duration
	want = append(want, drawElection(twin))
	// Re-armed by every APPEND from the leader, by a granted vote and by every candidacy.
	for i := range 30 {
		env.now += 20 * ms
		switch i % 3 {
		case 0:
			r.Receive(env, appendMsg(4, 2, r.disk.term))
		case 1:
			r.Receive(env, requestVote(5, 2, r.disk.term+1))
		case 2:
			fire(r, env, timerElection)
		}
		want = append(want, drawElection(twin))
	}
	got := env.Sets(timerElection)
	if !slices.Equal(got, want) {
		t.Fatalf("election timeouts %v,\nwant the draws of env.Rand() %v", got, want)
	}
	distinct := map[time.Duration]bool{}
	for _, d := range got {
		if d < raftLo || d > raftHi || d%time.Microsecond != 0 {
			t.Errorf("election timeout %v outside 150ms..300ms or not whole microseconds", d)
		}
		distinct[d] = true
	}
	if len(distinct) < 25 {
		t.Errorf("only %d distinct timeouts among %d: not drawn afresh", len(distinct), len(got))
	}

	// A fixed election-timeout draws nothing: every timer is exactly it.
	r, env = newRaftNode(t, 2, raftFresh, 0, false, raftParams(t, "election-timeout=200ms"))
	r.Start(env)
	fire(r, env, timerElection)
	if got := env.Sets(timerElection); !slices.Equal(got, []time.Duration{200 * ms, 200 * ms}) {
		t.Errorf("fixed election-timeout: timers %v, want 200ms twice", got)
	}
	if env.Rand().Uint64() != twinRand(2).Uint64() {
		t.Error("a fixed election-timeout drew from the random source")
	}
}

// "To begin an election, a follower increments its current term and transitions to candidate
// state. It then votes for itself and issues RequestVote RPCs in parallel to each of the other
// servers", restarting its randomized election timeout.
func TestRaftElectionTimerStartsElection(t *testing.T) {
	r, env := newRaftNode(t, 3, raftBooted, 0, true, nil)
	fire(r, env, timerElection)
	wantCandidacy(t, r, env, 3, 1)
	wantNote(t, env)

	// A follower of a leader that falls silent does the same, in the next term.
	r, env = newRaftNode(t, 3, raftFollower, 5, true, nil)
	fire(r, env, timerElection)
	wantCandidacy(t, r, env, 3, 2)
	wantNote(t, env)
}

// A candidate that "neither wins nor loses the election [...] will time out and start a new
// election by incrementing its term": the votes of the old term do not carry over.
func TestRaftCandidateTimesOutIntoNewTerm(t *testing.T) {
	r, env := newRaftNode(t, 1, raftCandidate, 0, true, nil)
	r.Receive(env, vote(2, 1, 1, true))
	env.Clear()
	fire(r, env, timerElection)
	wantCandidacy(t, r, env, 1, 2)
	wantNote(t, env)
	// Two more votes of term 2: with itself, 3 of 5 — the vote of term 1 does not count.
	r.Receive(env, vote(2, 1, 2, true))
	wantRaftState(t, r, State{Status: Candidate, Term: 2})
	r.Receive(env, vote(3, 1, 2, true))
	wantRaftState(t, r, State{Status: Leader, Leader: 1, Term: 2})
}

// "Each server will vote for at most one candidate in a given term, on a first-come-first-
// served basis": one VOTE ✓ per term; a second candidate of the term is refused; the same
// candidate asking again is granted again; a new term is a new vote.
func TestRaftOneVotePerTerm(t *testing.T) {
	r, env := newRaftNode(t, 1, raftBooted, 0, true, nil)
	r.Receive(env, requestVote(2, 1, 1))
	wantMsgs(t, env, vote(1, 2, 1, true).String())
	wantRaftState(t, r, State{Status: Follower, Term: 1})
	if got := env.Sets(timerElection); len(got) != 1 {
		t.Errorf("granting a vote set the election timer %v times, want once", len(got))
	}
	if !strings.Contains(env.Notes(), "granted (no vote yet this term)") {
		t.Errorf("notes %q", env.Notes())
	}

	env.Clear()
	r.Receive(env, requestVote(3, 1, 1))
	wantMsgs(t, env, vote(1, 3, 1, false).String())
	if len(env.ops) != 0 {
		t.Errorf("a refusal touched timers: %v", env.Ops())
	}
	if !strings.Contains(env.Notes(), "refused, I gave my vote to 2 this term") {
		t.Errorf("notes %q", env.Notes())
	}

	env.Clear()
	r.Receive(env, requestVote(2, 1, 1))
	wantMsgs(t, env, vote(1, 2, 1, true).String())

	env.Clear()
	r.Receive(env, requestVote(3, 1, 2))
	wantMsgs(t, env, vote(1, 3, 2, true).String())
	wantRaftState(t, r, State{Status: Follower, Term: 2})

	// A candidate has voted for itself: it refuses every other candidate of its term.
	c, cenv := newRaftNode(t, 4, raftCandidate, 0, true, nil)
	c.Receive(cenv, requestVote(5, 4, 1))
	wantMsgs(t, cenv, vote(4, 5, 1, false).String())
	wantRaftState(t, c, State{Status: Candidate, Term: 1})
	// And so does a leader.
	l, lenv := newRaftNode(t, 4, raftLeader, 0, true, nil)
	l.Receive(lenv, requestVote(2, 4, 1))
	wantMsgs(t, lenv, vote(4, 2, 1, false).String())
	wantRaftState(t, l, State{Status: Leader, Leader: 4, Term: 1})
}

// "Reply false if term < currentTerm": a REQUEST_VOTE of an older term is refused with my term,
// and changes nothing — whatever my status.
func TestRaftStaleRequestVoteRefused(t *testing.T) {
	for _, setup := range []raftSetup{raftFollower, raftCandidate, raftLeader} {
		t.Run(setup.String(), func(t *testing.T) {
			r, env := newRaftNodeAt(t, 2, setup, 4, 3, true, nil)
			before := r.State()
			r.Receive(env, requestVote(1, 2, 2))
			wantMsgs(t, env, vote(2, 1, 3, false).String())
			if len(env.ops) != 0 {
				t.Errorf("timer operations %v, want none", env.Ops())
			}
			wantRaftState(t, r, before)
			if !strings.Contains(env.Notes(), "REQUEST_VOTE from 1 for term 2 < my term 3: refused") {
				t.Errorf("notes %q", env.Notes())
			}
		})
	}
}

// "A candidate wins an election if it receives votes from a majority of the servers in the full
// cluster for the same term": 3 of 5 — counted against all 5, whoever is alive. Its own vote
// and one more, with 4 and 5 dead (silent), would be a majority of the 3 live nodes; they are 2
// of 5, not enough. Refusals change nothing; the third vote wins.
func TestRaftMajorityOfFullMembership(t *testing.T) {
	r, env := newRaftNode(t, 1, raftCandidate, 0, true, nil)
	r.Receive(env, vote(2, 1, 1, true))
	wantRaftState(t, r, State{Status: Candidate, Term: 1})
	r.Receive(env, vote(3, 1, 1, false))
	wantRaftState(t, r, State{Status: Candidate, Term: 1})
	if !strings.Contains(env.Notes(), "2 of 5 votes") {
		t.Errorf("notes %q, want a count of 2 of 5 votes", env.Notes())
	}
	// The same node's vote twice is one vote.
	r.Receive(env, vote(2, 1, 1, true))
	wantRaftState(t, r, State{Status: Candidate, Term: 1})
	wantMsgs(t, env)
	// A vote of another term does not count.
	r.Receive(env, vote(4, 1, 0, true))
	wantRaftState(t, r, State{Status: Candidate, Term: 1})
	// The third vote wins.
	env.Clear()
	env.now = 40 * ms
	r.Receive(env, vote(4, 1, 1, true))
	wantRaftState(t, r, State{Status: Leader, Leader: 1, Term: 1})
	if !strings.Contains(env.Notes(), "term 1: 3 of 5 votes → leader") {
		t.Errorf("notes %q", env.Notes())
	}

	// The majority of every cluster size: n/2+1.
	for n := 1; n <= 7; n++ {
		ids := make([]ID, n)
		for i := range ids {
			ids[i] = ID(i + 1)
		}
		c, err := NewCluster(ids, 10*ms, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := NewRaft(1, c)
		env := newFakeEnv(t, 1, false)
		r.Start(env)
		fire(r, env, timerElection)
		votes := 1
		for j := 2; r.State().Status != Leader && j <= n; j++ {
			r.Receive(env, vote(ID(j), 1, 1, true))
			votes++
		}
		if r.State().Status != Leader || votes != n/2+1 {
			t.Errorf("%d nodes: %s after %d votes, want leader after exactly %d", n, r.State().Status, votes, n/2+1)
		}
	}
}

// "Once a candidate wins an election, it becomes leader. It then sends heartbeat messages to all
// of the other servers": APPEND of its term to every other node at once, and again every
// heartbeat; no election timer while it leads.
func TestRaftLeaderHeartbeats(t *testing.T) {
	r, env := newRaftNode(t, 3, raftCandidate, 0, true, nil)
	r.Receive(env, vote(1, 3, 1, true))
	env.Clear()
	r.Receive(env, vote(5, 3, 1, true))
	wantRaftState(t, r, State{Status: Leader, Leader: 3, Term: 1})
	wantMsgs(t, env, appendMsg(3, 1, 1).String(), appendMsg(3, 2, 1).String(), appendMsg(3, 4, 1).String(), appendMsg(3, 5, 1).String())
	wantPending(t, env, map[string]time.Duration{timerHeartbeat: raftHeartbeat})
	if !env.Cancelled(timerElection) {
		t.Errorf("the election timer was not cancelled: %v", env.Ops())
	}
	wantNote(t, env)
	for range 3 {
		env.Clear()
		env.now += raftHeartbeat
		fire(r, env, timerHeartbeat)
		wantMsgs(t, env, appendMsg(3, 1, 1).String(), appendMsg(3, 2, 1).String(), appendMsg(3, 4, 1).String(), appendMsg(3, 5, 1).String())
		wantPending(t, env, map[string]time.Duration{timerHeartbeat: raftHeartbeat})
		wantRaftState(t, r, State{Status: Leader, Leader: 3, Term: 1})
	}
}

// "If RPC request or response contains term T > currentTerm: set currentTerm = T, convert to
// follower" — from any status, by any kind of message. The new term has no vote cast in it and
// no known leader (an APPEND names its sender as leader). A leader stops heartbeating and starts
// to wait for one.
func TestRaftHigherTermStepsDown(t *testing.T) {
	kinds := []struct {
		name   string
		msg    Message
		leader ID // whom the node names after it
		voted  ID // votedFor after it
	}{
		{"REQUEST_VOTE", requestVote(2, 4, 5), 0, 2},
		{"VOTE granted", vote(2, 4, 5, true), 0, 0},
		{"VOTE refused", vote(2, 4, 5, false), 0, 0},
		{"APPEND", appendMsg(2, 4, 5), 2, 0},
		{"APPEND answer", appendAnswer(2, 4, 5), 0, 0},
	}
	for _, setup := range []raftSetup{raftFollower, raftCandidate, raftLeader} {
		for _, k := range kinds {
			t.Run(setup.String()+"/"+k.name, func(t *testing.T) {
				r, env := newRaftNode(t, 4, setup, 5, true, nil)
				r.Receive(env, k.msg)
				wantRaftState(t, r, State{Status: Follower, Leader: k.leader, Term: 5})
				if r.disk.votedFor != k.voted {
					t.Errorf("votedFor = %d, want %d", r.disk.votedFor, k.voted)
				}
				if setup == raftLeader {
					if !env.Cancelled(timerHeartbeat) {
						t.Errorf("the heartbeat timer was not cancelled: %v", env.Ops())
					}
				}
				wantElectionArmed(t, env)
				if len(env.SentKind(KindRequestVote)) != 0 {
					t.Errorf("sent %q", msgs(env))
				}
				wantNote(t, env)
				// votedFor was cleared: a candidate of term 5 that asks now is granted.
				if k.voted == 0 {
					env.Clear()
					r.Receive(env, requestVote(3, 4, 5))
					wantMsgs(t, env, vote(4, 3, 5, true).String())
				}
			})
		}
	}
}

// "If the leader's term [...] is at least as large as the candidate's current term, then the
// candidate recognizes the leader as legitimate and returns to follower state." A follower
// that hears APPEND of its term follows its sender and resets its election timer to a fresh
// draw; every APPEND is answered with an APPEND ✓ carrying the receiver's term.
func TestRaftAppendFollows(t *testing.T) {
	for _, setup := range []raftSetup{raftBooted, raftFollower, raftCandidate} {
		t.Run(setup.String(), func(t *testing.T) {
			r, env := newRaftNode(t, 2, setup, 5, true, nil)
			term := max(r.State().Term, 1)
			r.Receive(env, appendMsg(5, 2, term))
			wantRaftState(t, r, State{Status: Follower, Leader: 5, Term: term})
			wantMsgs(t, env, appendAnswer(2, 5, term).String())
			if got := env.Sets(timerElection); len(got) != 1 {
				t.Errorf("election timer set %v, want once (reset)", got)
			}
			wantElectionArmed(t, env)
			if setup != raftFollower {
				wantNote(t, env)
			}
			// Routine APPENDs from the leader: each answered, each resets the timer.
			for range 3 {
				env.Clear()
				env.now += raftHeartbeat
				r.Receive(env, appendMsg(5, 2, term))
				wantMsgs(t, env, appendAnswer(2, 5, term).String())
				if got := env.Sets(timerElection); len(got) != 1 {
					t.Errorf("election timer set %v, want once (reset)", got)
				}
				wantRaftState(t, r, State{Status: Follower, Leader: 5, Term: term})
			}
		})
	}
}

// "If the term in the RPC is smaller than the candidate's current term, then the candidate
// rejects the RPC and continues in candidate state." The APPEND of an old term changes nothing
// and resets no timer, whatever the receiver's status — but it is answered with the receiver's
// term, from which the stale leader learns that it is out of date, and steps down.
func TestRaftStaleAppend(t *testing.T) {
	for _, setup := range []raftSetup{raftFollower, raftCandidate, raftLeader} {
		t.Run(setup.String(), func(t *testing.T) {
			r, env := newRaftNodeAt(t, 2, setup, 5, 3, true, nil)
			before := r.State()
			r.Receive(env, appendMsg(1, 2, 2))
			wantRaftState(t, r, before)
			wantMsgs(t, env, appendAnswer(2, 1, 3).String())
			if len(env.ops) != 0 {
				t.Errorf("timer operations %v, want none", env.Ops())
			}
			if !strings.Contains(env.Notes(), "APPEND from 1 of term 2 < my term 3: ignored") {
				t.Errorf("notes %q", env.Notes())
			}
		})
	}
	// The stale leader hears the answer and steps down.
	l, env := newRaftNode(t, 1, raftLeader, 0, true, nil)
	l.Receive(env, appendAnswer(2, 1, 3))
	wantRaftState(t, l, State{Status: Follower, Term: 3})
	wantElectionArmed(t, env)
	wantNote(t, env)
}

// Two leaders of one term cannot happen; a leader that is told otherwise ignores it and says so.
func TestRaftLeaderIgnoresAppendOfItsOwnTerm(t *testing.T) {
	r, env := newRaftNode(t, 3, raftLeader, 0, true, nil)
	r.Receive(env, appendMsg(2, 3, 1))
	wantRaftState(t, r, State{Status: Leader, Leader: 3, Term: 1})
	wantMsgs(t, env)
	wantNote(t, env)
}

// A leader's answers and late votes change nothing: no note, no state change (routine traffic).
func TestRaftLeaderAnswersAreRoutine(t *testing.T) {
	r, env := newRaftNode(t, 3, raftLeader, 0, true, nil)
	r.Receive(env, appendAnswer(1, 3, 1))
	r.Receive(env, appendAnswer(5, 3, 1))
	wantRaftState(t, r, State{Status: Leader, Leader: 3, Term: 1})
	wantMsgs(t, env)
	if len(env.ops)+len(env.notes) != 0 {
		t.Errorf("answers caused timer operations %v and notes %q", env.Ops(), env.notes)
	}
}

// check-quorum: "a leader that has not heard from a majority (itself included) within
// election-timeout's low end steps down". It checks at every heartbeat; it steps down exactly at
// the first heartbeat at which fewer than two other nodes have answered within 150ms.
func TestRaftCheckQuorum(t *testing.T) {
	on := raftParams(t, "check-quorum=on")
	r, env := newRaftNode(t, 3, raftLeader, 0, true, on)
	beat := func(at time.Duration) {
		t.Helper()
		env.Clear()
		env.now = at
		fire(r, env, timerHeartbeat)
	}
	// Elected at 0: every node counts as heard at 0, so the leader holds until 150ms without
	// answers. Node 1 answers at 100ms, node 5 at 160ms (a VOTE: any message of its term shows
	// it is alive); 2 and 4 never do.
	for _, at := range []time.Duration{50 * ms, 100 * ms} {
		beat(at)
		wantRaftState(t, r, State{Status: Leader, Leader: 3, Term: 1})
	}
	env.now = 100 * ms
	r.Receive(env, appendAnswer(1, 3, 1))
	env.now = 160 * ms
	r.Receive(env, vote(5, 3, 1, false))
	for _, at := range []time.Duration{150 * ms, 200 * ms, 250 * ms} {
		beat(at)
		if r.State().Status != Leader {
			t.Fatalf("at %v stepped down with 1 and 5 heard within 150ms: %s", at, env.Notes())
		}
		if len(env.SentKind(KindAppend)) != 4 {
			t.Errorf("at %v sent %q, want APPEND to all", at, msgs(env))
		}
	}
	// At 300ms node 1 was last heard 200ms ago: only 5 and the leader are left, 2 of 5.
	beat(300 * ms)
	wantRaftState(t, r, State{Status: Follower, Term: 1})
	wantMsgs(t, env)
	wantElectionArmed(t, env)
	if !strings.Contains(env.Notes(), "check-quorum: in the last 150ms I heard from 2 of 5 nodes") {
		t.Errorf("notes %q", env.Notes())
	}
	if r.disk.votedFor != 3 {
		t.Errorf("stepping down lost the vote of the term: votedFor %d", r.disk.votedFor)
	}

	// The exact edge: heard 150ms ago still counts, 150ms and 1us ago does not.
	for _, c := range []struct {
		ago  time.Duration
		lead bool
	}{{150 * ms, true}, {150*ms + time.Microsecond, false}} {
		r, env := newRaftNode(t, 3, raftLeader, 0, false, on)
		env.now = 1000 * ms
		for _, j := range []ID{1, 2} {
			r.Receive(env, appendAnswer(j, 3, 1))
		}
		env.now += c.ago
		fire(r, env, timerHeartbeat)
		if got := r.State().Status == Leader; got != c.lead {
			t.Errorf("answers %v ago: leader %v, want %v", c.ago, got, c.lead)
		}
	}

	// Without check-quorum, a leader never hears a thing and leads on.
	r, env = newRaftNode(t, 3, raftLeader, 0, true, nil)
	for i := 1; i <= 100; i++ {
		beat(time.Duration(i) * raftHeartbeat)
	}
	wantRaftState(t, r, State{Status: Leader, Leader: 3, Term: 1})
}

// "`elect`: start an election now" — from any status, as if the election timer had fired.
func TestRaftElect(t *testing.T) {
	for _, setup := range []raftSetup{raftBooted, raftFollower, raftCandidate, raftLeader} {
		t.Run(setup.String(), func(t *testing.T) {
			r, env := newRaftNode(t, 2, setup, 4, true, nil)
			term := r.State().Term
			r.Elect(env)
			wantCandidacy(t, r, env, 2, term+1)
			if setup == raftLeader && !env.Cancelled(timerHeartbeat) {
				t.Errorf("a leader that stands again did not stop heartbeating: %v", env.Ops())
			}
			wantNote(t, env)
		})
	}
	// Alone in its cluster, a node wins its own election at once.
	c, err := NewCluster([]ID{7}, 10*ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRaft(7, c)
	env := newFakeEnv(t, 7, true)
	r.Start(env)
	env.Clear()
	r.Elect(env)
	wantRaftState(t, r, State{Status: Leader, Leader: 7, Term: 1})
	wantPending(t, env, map[string]time.Duration{timerHeartbeat: raftHeartbeat})
	wantNote(t, env)
}

// Figure 2: currentTerm and votedFor are "persistent state on all servers", "updated on stable
// storage before responding to RPCs". A crash loses the node's memory; the engine builds it anew
// with the same stable storage (Env.Store), so it restarts in its term and cannot vote twice in
// it. A node on a fresh disk starts in term 0.
func TestRaftRestartKeepsTermAndVote(t *testing.T) {
	run := raftCluster(t, nil)
	first := NewRaft(1, run)
	env := newFakeEnv(t, 1, true)
	first.Start(env)
	first.Receive(env, requestVote(2, 1, 3))
	if env.Disk[diskTerm] != 3 || env.Disk[diskVotedFor] != 2 {
		t.Fatalf("the vote was answered before it was on disk: %v", env.Disk)
	}
	first.Receive(env, appendMsg(2, 1, 3))
	wantRaftState(t, first, State{Status: Follower, Leader: 2, Term: 3})

	// Crash: a new node, a new env (timers, messages gone), the same disk.
	disk := env.Disk
	env = newFakeEnv(t, 1, true)
	env.Disk = disk
	again := NewRaft(1, run)
	again.Start(env)
	if got := again.State(); got != (State{Status: Follower, Term: 3}) {
		t.Errorf("restarted state %+v, want a follower of term 3 that knows no leader", got)
	}
	if !strings.Contains(env.Notes(), "term 3 and my vote to 2 were on stable storage") {
		t.Errorf("notes %q", env.Notes())
	}
	env.Clear()
	again.Receive(env, requestVote(4, 1, 3))
	wantMsgs(t, env, vote(1, 4, 3, false).String())

	fresh := NewRaft(1, run)
	fresh.Start(newFakeEnv(t, 1, false))
	if fresh.State().Term != 0 {
		t.Errorf("a node on a fresh disk starts in term %d", fresh.State().Term)
	}
}

// Parameters set in the cluster reach the node: heartbeat, election-timeout, check-quorum.
func TestRaftParams(t *testing.T) {
	p := raftParams(t, "heartbeat=20ms", "election-timeout=100ms..120ms", "check-quorum=on")
	r, env := newRaftNode(t, 3, raftBooted, 0, false, p)
	if d := env.Pending[timerElection]; d < 100*ms || d > 120*ms {
		t.Errorf("election timer %v, want within 100ms..120ms", d)
	}
	r, env = newRaftNode(t, 3, raftLeader, 0, false, p)
	env.now = 20 * ms
	fire(r, env, timerHeartbeat)
	wantPending(t, env, map[string]time.Duration{timerHeartbeat: 20 * ms})
	env.now = 120 * ms
	fire(r, env, timerHeartbeat)
	if r.State().Status != Follower {
		t.Errorf("check-quorum on, nothing heard for 120ms > 100ms: %s, want follower", r.State().Status)
	}
}

// raftWalk feeds every node of {1..5} a long seeded random sequence of inputs — messages of
// every kind from any node with terms around its own, its armed timers, elect, restarts (a new
// node on the same disk: the env keeps it, as the engine does) — and calls check after each step.
func raftWalk(t *testing.T, tracing bool, check func(t *testing.T, r *Raft, in bullyInput, before, after State, env *fakeEnv)) {
	info, err := Lookup("raft")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range bullyIDs {
		for seed := range uint64(20) {
			rng := rand.New(rand.NewPCG(seed, uint64(id)))
			run := raftCluster(t, Params{"check-quorum": {On: seed%2 == 0}})
			r := info.New(id, run).(*Raft)
			env := newFakeEnv(t, id, tracing)
			r.Start(env)
			for step := range 300 {
				env.Clear()
				env.now += time.Duration(rng.IntN(40)) * ms
				in := randomRaftInput(rng, r, env)
				before := r.State()
				if in.what == "start" {
					r = info.New(id, run).(*Raft) // a crash: a fresh node on the same disk
					env.Pending = map[string]time.Duration{}
				}
				applyInput(r, env, in)
				check(t, r, in, before, r.State(), env)
				if t.Failed() {
					t.Fatalf("node %d, seed %d, step %d: %s from %+v", id, seed, step, in, before)
				}
			}
		}
	}
}

// randomRaftInput draws an input for a Raft node.
func randomRaftInput(rng *rand.Rand, r *Raft, env *fakeEnv) bullyInput {
	switch n := rng.IntN(20); {
	case n == 0:
		return bullyInput{what: "start"}
	case n == 1:
		return bullyInput{what: "elect"}
	case n < 7 && len(env.Pending) > 0:
		return bullyInput{what: "timer", name: env.anyTimer(rng)}
	default:
		kinds := []string{KindRequestVote, KindVote, KindAppend}
		others := othersThan(r.id)
		term := r.disk.term + uint64(rng.IntN(3))
		if term > 0 {
			term-- // one below, equal, or one above
		}
		return bullyInput{what: "receive", msg: Message{Kind: kinds[rng.IntN(len(kinds))],
			From: others[rng.IntN(len(others))], To: r.id, Term: term, Flag: rng.IntN(2) == 0}}
	}
}

// "algorithms call Note only when Tracing is true": with tracing off, no input ever leads to a
// Note (the fake fails the test if one does).
func TestRaftNoNotesWithoutTracing(t *testing.T) {
	raftWalk(t, false, func(*testing.T, *Raft, bullyInput, State, State, *fakeEnv) {})
}

// With tracing on, every change of state comes with a non-empty note. The walk also checks the
// invariants: the term never goes down, not even across a restart; a node grants at most one
// vote per term, across restarts too; a Leader leads itself, a Candidate knows no leader; only
// the election and heartbeat timers, at their configured durations; the heartbeat only while
// leading.
func TestRaftStateChangesHaveNotes(t *testing.T) {
	type nodeTerm struct {
		env  *fakeEnv // one node of one run, across its restarts: its disk is the env's
		term uint64
	}
	granted := map[nodeTerm]ID{} // the candidate it voted for
	raftWalk(t, true, func(t *testing.T, r *Raft, in bullyInput, before, after State, env *fakeEnv) {
		if before != after && (len(env.notes) == 0 || slices.Contains(env.notes, "")) {
			t.Errorf("%+v → %+v with notes %q", before, after, env.notes)
		}
		if after.Term < before.Term {
			t.Errorf("term went down: %d → %d", before.Term, after.Term)
		}
		switch after.Status {
		case Leader:
			if after.Leader != r.id {
				t.Errorf("leader %d believes in %d", r.id, after.Leader)
			}
		case Candidate:
			if after.Leader != 0 || r.disk.votedFor != r.id {
				t.Errorf("candidate %d believes in %d, voted for %d", r.id, after.Leader, r.disk.votedFor)
			}
		}
		for _, m := range env.sends {
			if m.Kind == KindVote && m.Flag {
				key := nodeTerm{env, m.Term}
				if prev, ok := granted[key]; ok && prev != m.To {
					t.Errorf("node %d voted for %d and %d in term %d", r.id, prev, m.To, m.Term)
				}
				granted[key] = m.To
			}
			if m.To == r.id || m.To < 1 || m.To > 5 {
				t.Errorf("sent %s", m)
			}
		}
		for _, o := range env.ops {
			switch {
			case o.Op == "cancel":
			case o.Name == timerElection && o.After >= raftLo && o.After <= raftHi:
			case o.Name == timerHeartbeat && o.After == raftHeartbeat:
			default:
				t.Errorf("timer operation %s", o)
			}
		}
		_, beating := env.Pending[timerHeartbeat]
		_, electing := env.Pending[timerElection]
		if beating != (after.Status == Leader) || electing == (after.Status == Leader) {
			t.Errorf("%s with pending timers %v", after.Status, env.Pending)
		}
	})
}

// quietEnv is an Env that records nothing: for counting allocations.
type quietEnv struct {
	now time.Duration
	rng *rand.Rand
}

func (e *quietEnv) Now() time.Duration             { return e.now }
func (e *quietEnv) Send(ID, Message)               {}
func (e *quietEnv) SetTimer(string, time.Duration) {}
func (e *quietEnv) CancelTimer(string)             {}
func (e *quietEnv) Rand() *rand.Rand               { return e.rng }
func (e *quietEnv) Tracing() bool                  { return false }
func (e *quietEnv) Note(string, ...any)            {}
func (e *quietEnv) Store(string, uint64)           {}
func (e *quietEnv) Load(string) (uint64, bool)     { return 0, false }

// docs/performance.md: nothing is allocated per message in steady state — a leader's heartbeat and
// the answers it gets, a follower's APPEND and its answer — with check-quorum on.
func TestRaftSteadyStateAllocatesNothing(t *testing.T) {
	c := raftCluster(t, raftParams(t, "check-quorum=on"))
	leader, follower := NewRaft(1, c), NewRaft(2, c)
	env := &quietEnv{rng: rand.New(rand.NewPCG(1, 2))}
	leader.Start(env)
	follower.Start(env)
	leader.Elect(env)
	for _, j := range []ID{2, 3} {
		leader.Receive(env, vote(j, 1, 1, true))
	}
	if leader.State().Status != Leader {
		t.Fatal("setup: no leader")
	}
	allocs := testing.AllocsPerRun(1000, func() {
		env.now += raftHeartbeat
		leader.Timer(env, timerHeartbeat)
		follower.Receive(env, appendMsg(1, 2, 1))
		for j := ID(2); j <= 5; j++ {
			leader.Receive(env, appendAnswer(j, 1, 1))
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per heartbeat round, want 0", allocs)
	}
}

// The registry entry: Kinds REQUEST_VOTE, VOTE, APPEND; APPEND is routine; Raft has terms; the
// documented defaults are what the node uses; New builds an unstarted node.
func TestRaftInfo(t *testing.T) {
	info, err := Lookup("raft")
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "raft" || info.Summary == "" || !info.Terms {
		t.Errorf("name %q summary %q terms %v", info.Name, info.Summary, info.Terms)
	}
	if want := []string{"REQUEST_VOTE", "VOTE", "APPEND"}; !slices.Equal(info.Kinds, want) {
		t.Errorf("Kinds = %v, want %v", info.Kinds, want)
	}
	if !slices.Equal(info.Routine, []string{"APPEND"}) {
		t.Errorf("Routine = %v, want [APPEND]", info.Routine)
	}
	if got := info.ParamKeys(); !slices.Equal(got, []string{"heartbeat", "election-timeout", "check-quorum"}) {
		t.Errorf("parameters %v", got)
	}
	defaults := Params{}
	for _, p := range info.Params {
		v, err := info.ParseParam(p.Key, p.Default)
		if err != nil {
			t.Fatalf("%s: default %q does not parse: %v", p.Key, p.Default, err)
		}
		defaults[p.Key] = v
	}
	if got, want := *newRaftConfig(raftCluster(t, defaults)), *newRaftConfig(raftCluster(t, nil)); got != want {
		t.Errorf("documented defaults give %+v, the node uses %+v", got, want)
	}
	if got := (raftConfig{heartbeat: raftHeartbeat, electionLo: raftLo, electionHi: raftHi}); got != *newRaftConfig(raftCluster(t, nil)) {
		t.Errorf("defaults %+v, want those of docs/algorithms.md", *newRaftConfig(raftCluster(t, nil)))
	}
	n := info.New(3, raftCluster(t, nil))
	if _, ok := n.(*Raft); !ok || n.State() != (State{}) {
		t.Errorf("New returned %T in state %+v", n, n.State())
	}
}

// Warnings: "broadcastTime ≪ electionTimeout": election-timeout's low end must exceed
// heartbeat + max delay; its spread must exceed a round trip, or split votes repeat; with
// check-quorum, the low end must exceed heartbeat + a round trip.
func TestRaftWarnings(t *testing.T) {
	info, err := Lookup("raft")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		maxDelay time.Duration
		params   []string
		want     []string // substrings, one per warning, in order
	}{
		{15 * ms, nil, nil},
		{100 * ms, nil, []string{"followers may start elections", "split the vote"}},
		{99 * ms, nil, []string{"split the vote"}},
		{74 * ms, nil, nil},
		{75 * ms, nil, []string{"split the vote"}},
		{15 * ms, []string{"election-timeout=65ms..300ms"}, []string{"followers may start elections"}},
		{15 * ms, []string{"election-timeout=66ms..300ms"}, nil},
		{15 * ms, []string{"election-timeout=200ms"}, []string{"is not random"}},
		{15 * ms, []string{"election-timeout=200ms..230ms"}, []string{"spreads over only 30ms"}},
		{15 * ms, []string{"election-timeout=200ms..231ms"}, nil},
		{15 * ms, []string{"check-quorum=on"}, nil},
		{15 * ms, []string{"check-quorum=on", "election-timeout=80ms..300ms"}, []string{"check-quorum"}},
		{15 * ms, []string{"check-quorum=on", "election-timeout=81ms..300ms"}, nil},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.maxDelay, c.params), func(t *testing.T) {
			checkWarnings(t, info, bullyIDs, c.maxDelay, raftParams(t, c.params...), c.want)
		})
	}
}

// NewRaft panics on an id that is not in the cluster: a broken invariant of the engine.
func TestRaftNewUnknownIDPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewRaft(9) on {1..5} did not panic")
		}
	}()
	NewRaft(9, raftCluster(t, nil))
}

// A Raft node keeps nothing that grows with the cluster until it needs it — a candidate the
// votes it is granted, a leader with check-quorum when each node last answered — so nodes of a
// cluster of 200,000 are small: a few hundred bytes each, not a vote and a time for every node.
// A candidate's votes grow with the votes, not with the cluster.
func TestRaftNodesStaySmallInBigClusters(t *testing.T) {
	ids := make([]ID, 200_000)
	for i := range ids {
		ids[i] = ID(i + 1)
	}
	c, err := NewCluster(ids, 15*ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	newRaftConfig(c) // the timing all nodes share, made once
	const n = 1000
	nodes := make([]*Raft, n)
	env := &quietEnv{rng: rand.New(rand.NewPCG(1, 2))}
	allocated := func() uint64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.TotalAlloc
	}
	before := allocated()
	for i := range nodes {
		nodes[i] = NewRaft(ID(i+1), c)
		nodes[i].Start(env)
	}
	if per := (allocated() - before) / n; per > 1024 {
		t.Errorf("a Raft node of 200,000 allocates %d bytes when made and started, want at most 1 KB", per)
	}
	before = allocated()
	nodes[0].Elect(env)
	for j := ID(2); j <= 10; j++ {
		nodes[0].Receive(env, vote(j, 1, 1, true))
	}
	if got := allocated() - before; got > 4096 {
		t.Errorf("a candidate of 200,000 granted 10 votes allocated %d bytes, want at most 4 KB", got)
	}
	runtime.KeepAlive(nodes)
}
