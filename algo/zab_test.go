package algo

import (
	"slices"
	"testing"
	"time"
)

// The tests below drive one Zab server by hand through a fakeEnv, on the ensemble {1,…,5}
// (a quorum is 3). Defaults: finalize-wait 50ms, heartbeat 50ms, timeout 200ms.

func zabNode(t *testing.T, id ID, kv ...string) (*Zab, *fakeEnv) {
	t.Helper()
	return NewZab(id, bullyCluster(t, algoParams(t, "zab", kv...))), newFakeEnv(t, id, true)
}

// vote is a NOTIFICATION from a server that is looking (decided: following or leading).
func zvote(from, leader ID, round, zxid, epoch uint64, decided bool) Message {
	return Message{Kind: KindNotification, From: from, Value: leader, Phase: uint32(round), Flag: decided,
		Log: &LogPart{Index: zxid, IndexTerm: epoch}}
}

// FastLeaderElection's totalOrderPredicate: the epoch first, then the zxid, then the id.
func TestZabVoteOrder(t *testing.T) {
	for _, c := range []struct {
		a, b zabVote
		want bool
	}{
		{zabVote{1, 0, 2}, zabVote{5, 100, 1}, true}, // a newer epoch beats any zxid and id
		{zabVote{1, 9, 1}, zabVote{5, 8, 1}, true},   // then the longer log
		{zabVote{5, 9, 1}, zabVote{1, 9, 1}, true},   // then the higher id
		{zabVote{1, 9, 1}, zabVote{5, 9, 1}, false},
		{zabVote{3, 9, 1}, zabVote{3, 9, 1}, false}, // a vote does not beat itself
	} {
		if got := c.a.beats(c.b); got != c.want {
			t.Errorf("%v beats %v = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// "Propose myself, send notifications": a server boots looking in round 1, voting for itself
// with the history the parameters give it, tells every other server, and waits finalize-wait
// for an answer before it sends again.
func TestZabBoot(t *testing.T) {
	z, env := zabNode(t, 2, "zxid=2:9,3:4", "epoch=2:3")
	z.Start(env)
	if got := env.SentKind(KindNotification); !slices.Equal(got, []ID{1, 3, 4, 5}) {
		t.Fatalf("NOTIFICATION to %v, want 1 3 4 5", got)
	}
	m := env.sends[0]
	if m.Value != 2 || m.Phase != 1 || m.Flag || m.Log.Index != 9 || m.Log.IndexTerm != 3 {
		t.Errorf("vote %v, want for 2 in round 1, zxid 9, epoch 3, looking", m.Label())
	}
	if z.State() != (State{Status: Candidate, Term: 3}) {
		t.Errorf("state %+v, want a candidate of epoch 3", z.State())
	}
	if env.Pending[timerNotify] != 50*ms {
		t.Errorf("notify timer %v, want 50ms", env.Pending)
	}
	// Not answered: it sends its vote again, and waits twice as long, up to 8 × finalize-wait.
	for _, want := range []time.Duration{100, 200, 400, 400} {
		env.Clear()
		z.Timer(env, timerNotify)
		if len(env.SentKind(KindNotification)) != 4 || env.Pending[timerNotify] != want*ms {
			t.Fatalf("resend: sent %v, notify %v, want 4 and %dms", env.Sent(), env.Pending[timerNotify], want)
		}
	}
}

// A better vote is adopted and sent to everyone; a worse one, or one of an earlier round, is
// not; a later round is joined, with the better of its vote and my own, and its votes alone.
func TestZabAdoptsBetterVotes(t *testing.T) {
	z, env := zabNode(t, 2, "zxid=2:9")
	z.Start(env)
	env.Clear()
	z.Receive(env, zvote(1, 1, 1, 4, 0, false)) // worse: zxid 4
	if len(env.sends) != 0 || z.vote.leader != 2 {
		t.Fatalf("a worse vote: sent %v, vote %v", env.Sent(), z.vote)
	}
	z.Receive(env, zvote(3, 3, 1, 9, 0, false)) // better: same zxid, higher id
	if z.vote != (zabVote{leader: 3, zxid: 9}) || len(env.SentKind(KindNotification)) != 4 {
		t.Fatalf("a better vote: vote %v, sent %v", z.vote, env.Sent())
	}
	env.Clear()
	// A looking server of an earlier round gets my vote back, and is not counted.
	z.round = 2
	z.Receive(env, zvote(4, 4, 1, 20, 0, false))
	if !slices.Equal(env.Sent(), []string{"NOTIFICATION→4"}) || z.vote.leader != 3 {
		t.Fatalf("an earlier round: sent %v, vote %v", env.Sent(), z.vote)
	}
	env.Clear()
	// A later round: joined; my own vote (zxid 9) beats its vote for 1 (zxid 4).
	z.Receive(env, zvote(1, 1, 5, 4, 0, false))
	if z.round != 5 || z.vote.leader != 2 || len(env.SentKind(KindNotification)) != 4 {
		t.Fatalf("a later round: round %d, vote %v, sent %v", z.round, z.vote, env.Sent())
	}
	if n := len(z.agreeing(z.votes, zabVote{leader: 1, zxid: 4}, false)); n != 1 {
		t.Errorf("the later round's votes: %d for 1, want 1 (its own)", n)
	}
}

// "If a quorum agrees with my vote, wait finalize-wait for a better one": a vote that is not
// better is dropped and the wait starts again; a better one ends the wait; when the wait runs
// out the server decides — here to follow 5, sending it FOLLOWERINFO with its history.
func TestZabFinalizeWait(t *testing.T) {
	z, env := zabNode(t, 2, "zxid=2:3")
	z.Start(env)
	z.Receive(env, zvote(4, 4, 1, 0, 0, false))
	z.Receive(env, zvote(3, 4, 1, 0, 0, false))
	if z.finalizing {
		t.Fatal("finalizing with two votes of five")
	}
	z.Receive(env, zvote(1, 4, 1, 0, 0, false)) // 1, 3, 4: a quorum for 4 — but my own zxid 3 is better
	if z.vote.leader != 2 || z.finalizing {
		t.Fatalf("vote %v, finalizing %v: my own history is newer", z.vote, z.finalizing)
	}
	z.Receive(env, zvote(5, 5, 1, 3, 0, false)) // better than mine: 5 with zxid 3
	env.Clear()
	z.Receive(env, zvote(4, 5, 1, 3, 0, false)) // 2, 4, 5 vote for 5: a quorum
	if !z.finalizing || env.Pending[timerFinalize] != 50*ms || env.Pending[timerNotify] != 0 {
		t.Fatalf("finalizing %v, timers %v", z.finalizing, env.Pending)
	}
	for _, m := range []Message{zvote(3, 5, 1, 3, 0, false), zvote(1, 1, 1, 0, 0, false)} {
		env.Clear()
		z.Receive(env, m) // not better: dropped, uncounted, and the wait starts again
		if !slices.Equal(env.Sets(timerFinalize), []time.Duration{50 * ms}) || len(env.sends) != 0 || !z.finalizing {
			t.Fatalf("%s while finalizing: %v, sent %v", m, env.Ops(), env.Sent())
		}
	}
	env.Clear()
	z.Timer(env, timerFinalize)
	if z.State() != (State{Status: Follower, Leader: 5}) || !slices.Equal(env.Sent(), []string{"FOLLOWERINFO→5"}) {
		t.Fatalf("decided: state %+v, sent %v", z.State(), env.Sent())
	}
	if got := env.sends[0]; got.Term != 0 || got.Log != nil {
		t.Errorf("FOLLOWERINFO %v, want the epoch accepted last, 0", got.Label())
	}
	if !slices.Equal(z.electedBy, []ID{2, 4, 5}) {
		t.Errorf("elected by %v, want 2 4 5: 3's vote came while I waited", z.electedBy)
	}
	// A better vote during the wait breaks it.
	z, env = zabNode(t, 2)
	z.Start(env)
	for _, from := range []ID{3, 4} {
		z.Receive(env, zvote(from, 4, 1, 0, 0, false))
	}
	z.Receive(env, zvote(4, 4, 1, 0, 0, false))
	z.Receive(env, zvote(1, 4, 1, 0, 0, false))
	if !z.finalizing {
		t.Fatal("not finalizing with 1, 3 and 4 for 4")
	}
	z.Receive(env, zvote(5, 5, 1, 0, 0, false))
	if z.finalizing || z.vote.leader != 5 {
		t.Errorf("a better vote while finalizing: finalizing %v, vote %v", z.finalizing, z.vote)
	}
}

// A server that follows or leads answers a looking server with its vote, ✓ for decided; a
// looking server that hears a quorum follow a leader which says it leads, follows it too.
func TestZabJoinsTheLeader(t *testing.T) {
	f, env := zabNode(t, 3)
	f.Start(env)
	f.state, f.leader, f.vote = zabFollowing, 5, zabVote{leader: 5}
	env.Clear()
	f.Receive(env, zvote(2, 2, 1, 0, 0, false))
	if len(env.sends) != 1 || env.sends[0].To != 2 || !env.sends[0].Flag || env.sends[0].Value != 5 {
		t.Fatalf("a follower answers %v, want its vote for 5, decided, to 2", env.sends)
	}
	z, env := zabNode(t, 2, "zxid=2:50")
	z.Start(env)
	z.Receive(env, zvote(3, 5, 4, 0, 0, true))
	z.Receive(env, zvote(4, 5, 4, 0, 0, true))
	if z.state != zabLooking {
		t.Fatal("joined before the leader said it leads")
	}
	env.Clear()
	z.Receive(env, zvote(5, 5, 4, 0, 0, true))
	if z.State() != (State{Status: Follower, Leader: 5}) || z.round != 4 || !slices.Equal(env.Sent(), []string{"FOLLOWERINFO→5"}) {
		t.Errorf("state %+v round %d sent %v, want to follow 5 in its round 4", z.State(), z.round, env.Sent())
	}
}

// The leader waits for a quorum of FOLLOWERINFO, proposes an epoch higher than any they
// accepted, and once a quorum accepted it keeps it on disk as its own, tells them (NEWLEADER)
// and PINGs. A latecomer gets the epoch at once, and NEWLEADER when it has accepted it.
func TestZabLeaderEstablishesEpoch(t *testing.T) {
	z, env := zabNode(t, 5, "epoch=5:1")
	z.Start(env)
	z.decide(env, z.own(), []ID{3, 4, 5}, "test")
	if z.State() != (State{Status: Leader, Leader: 5, Term: 1}) || env.Pending[timerInit] != 200*ms {
		t.Fatalf("state %+v, timers %v", z.State(), env.Pending)
	}
	env.Clear()
	info := func(from ID, epoch uint64) Message {
		return Message{Kind: KindFollowerInfo, From: from, Term: epoch}
	}
	z.Receive(env, info(3, 2))
	if len(env.sends) != 0 {
		t.Fatalf("proposed with two of five: %v", env.Sent())
	}
	z.Receive(env, info(4, 0))
	if got := env.SentKind(KindNewEpoch); !slices.Equal(got, []ID{3, 4}) || env.sends[0].Term != 3 || env.Disk[diskZabAccepted] != 3 {
		t.Fatalf("NEWEPOCH to %v (%v), disk %v: want epoch 3 to 3 and 4, and accepted", got, env.sends, env.Disk)
	}
	env.Clear()
	z.Receive(env, info(1, 0))
	if !slices.Equal(env.SentKind(KindNewEpoch), []ID{1}) {
		t.Errorf("the latecomer got %v", env.Sent())
	}
	env.Clear()
	z.Receive(env, Message{Kind: KindAckEpoch, From: 3, Term: 3})
	if z.established {
		t.Fatal("established with two acknowledgements of five")
	}
	z.Receive(env, Message{Kind: KindAckEpoch, From: 4, Term: 3})
	if !z.established || z.State().Term != 3 || env.Disk[diskZabEpoch] != 3 ||
		!slices.Equal(env.SentKind(KindNewLeader), []ID{3, 4}) || !slices.Equal(env.SentKind(KindPing), []ID{3, 4}) {
		t.Errorf("established %v, state %+v, disk %v, sent %v", z.established, z.State(), env.Disk, env.Sent())
	}
	env.Clear()
	z.Receive(env, Message{Kind: KindAckEpoch, From: 1, Term: 3})
	if !slices.Equal(env.Sent(), []string{"NEWLEADER→1"}) {
		t.Errorf("the latecomer accepted: sent %v, want NEWLEADER to it", env.Sent())
	}
}

// A follower accepts its leader's new epoch (acceptedEpoch, on disk) and acknowledges it; its
// votes still carry its old epoch. Told the epoch is established (NEWLEADER), it takes it as its
// own and cuts back a log that runs past the leader's (TRUNC), both on disk. An epoch older than
// one it accepted sends it back to looking.
func TestZabFollowerTakesTheEpoch(t *testing.T) {
	z, env := zabNode(t, 2, "zxid=2:12")
	z.Start(env)
	z.decide(env, zabVote{leader: 5, zxid: 10, epoch: 1}, nil, "test")
	env.Clear()
	z.Receive(env, Message{Kind: KindNewEpoch, From: 5, Term: 2})
	if z.accepted != 2 || z.epoch != 0 || env.Disk[diskZabAccepted] != 2 || z.State().Term != 0 {
		t.Errorf("NEWEPOCH: accepted %d epoch %d disk %v, want 2 accepted, epoch still 0", z.accepted, z.epoch, env.Disk)
	}
	if len(env.sends) != 1 || env.sends[0].Kind != KindAckEpoch || env.sends[0].Term != 2 {
		t.Errorf("sent %v, want ACKEPOCH t2", env.sends)
	}
	env.Clear()
	z.Receive(env, Message{Kind: KindNewLeader, From: 5, Term: 2, Log: &LogPart{Index: 10, IndexTerm: 2}})
	if z.epoch != 2 || z.zxid != 10 || env.Disk[diskZabEpoch] != 2 || env.Disk[diskZabZxid] != 10 || z.State().Term != 2 {
		t.Errorf("NEWLEADER: epoch %d zxid %d disk %v, want 2 and 10 on disk", z.epoch, z.zxid, env.Disk)
	}
	env.Clear()
	z.Receive(env, Message{Kind: KindNewEpoch, From: 5, Term: 1})
	if z.state != zabLooking || z.round != 2 {
		t.Errorf("an older epoch: state %d round %d, want looking in round 2", z.state, z.round)
	}
	// What is on disk survives a crash; the round starts again.
	z, _ = zabNode(t, 2, "zxid=2:12")
	env.Clear()
	z.Start(env)
	if z.epoch != 2 || z.accepted != 2 || z.zxid != 10 || z.round != 1 {
		t.Errorf("after a restart: epoch %d accepted %d zxid %d round %d, want 2, 2, 10, 1", z.epoch, z.accepted, z.zxid, z.round)
	}
}

// A follower that hears nothing from its leader for timeout, and a leader that hears from
// fewer than a quorum, go back to looking, in a new round.
func TestZabTimeouts(t *testing.T) {
	f, env := zabNode(t, 2)
	f.Start(env)
	f.decide(env, zabVote{leader: 5}, nil, "test")
	env.Clear()
	f.Receive(env, Message{Kind: KindPing, From: 5, Term: 1})
	if len(env.sends) != 1 || !env.sends[0].Flag || env.Pending[timerLeader] != 200*ms {
		t.Fatalf("PING: answered %v, timers %v", env.sends, env.Pending)
	}
	f.Timer(env, timerLeader)
	if f.state != zabLooking || f.round != 2 {
		t.Errorf("silent leader: state %d round %d", f.state, f.round)
	}
	l, env := zabNode(t, 5)
	l.Start(env)
	l.decide(env, l.own(), []ID{3, 4, 5}, "test")
	for _, id := range []ID{3, 4} {
		l.Receive(env, Message{Kind: KindFollowerInfo, From: id})
		l.Receive(env, Message{Kind: KindAckEpoch, From: id, Term: 1})
	}
	env.now = 150 * ms
	l.Receive(env, Message{Kind: KindPing, From: 3, Flag: true})
	env.now = 210 * ms // 4 last answered at 0: a quorum within 200ms is 3, 5 — not enough
	l.Timer(env, timerPing)
	if l.state != zabLooking {
		t.Errorf("a leader heard by 3 and itself only is %d, want looking", l.state)
	}
}

// The warnings name the timing Fast Leader Election and the heartbeat assume.
func TestZabWarnings(t *testing.T) {
	info, _ := Lookup("zab")
	ids := []ID{1, 2, 3}
	checkWarnings(t, info, ids, 15*ms, nil, nil)
	checkWarnings(t, info, ids, 25*ms, nil, []string{"finalize-wait 50ms is not more than 2 × the max delay 25ms"})
	checkWarnings(t, info, ids, 15*ms, algoParams(t, "zab", "timeout=80ms"), []string{"timeout 80ms is not more than heartbeat 50ms + 2 × the max delay 15ms"})
}

// An algorithm's per-node values must name nodes of the cluster: CheckNodeNumbers names the
// parameter and the node that is not.
func TestCheckNodeNumbers(t *testing.T) {
	info, err := Lookup("zab")
	if err != nil {
		t.Fatal(err)
	}
	p := algoParams(t, "zab", "zxid=1:4,5:9", "epoch=2:1")
	c, err := NewCluster([]ID{1, 2, 3, 4, 5}, ms, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := info.CheckNodeNumbers(c); err != nil {
		t.Errorf("every node named is in the cluster: %v", err)
	}
	c, err = NewCluster([]ID{1, 2, 3, 7, 9}, ms, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := info.CheckNodeNumbers(c); err == nil || err.Error() != "zxid: unknown node 5 (nodes are 1 2 3 7 9)" {
		t.Errorf("node 5 named, not in the cluster: %v", err)
	}
	if err := info.Validate(c); err == nil {
		t.Error("Validate lets a per-node value name a node outside the cluster")
	}
}
