package algo

import (
	"slices"
	"testing"
	"time"
)

// The tests below drive one K8sLease node by hand through a fakeEnv, on the cluster {1,…,5}: 4
// is the API server, 5 the resource, 1–3 candidates. Defaults: lease-duration 300ms,
// renew-deadline 200ms, retry-period 40ms, write 50ms, fencing off.

func k8sNode(t *testing.T, id ID, kv ...string) (*K8sLease, *fakeEnv) {
	t.Helper()
	return NewK8sLease(id, bullyCluster(t, algoParams(t, "k8s-lease", kv...))), newFakeEnv(t, id, true)
}

// lease is the API server's answer: the record, ✓ when it answers an UPDATE that was applied.
func lease(holder ID, version uint32, transitions uint64, applied bool) Message {
	return Message{Kind: KindLease, From: 4, Value: holder, Phase: version, Term: transitions, Flag: applied}
}

func TestK8sLeaseRoles(t *testing.T) {
	info, err := Lookup("k8s-lease")
	if err != nil {
		t.Fatal(err)
	}
	roles := info.Roles(bullyCluster(t, nil))
	if len(roles) != 2 || roles[4] != RoleAPIServer || roles[5] != RoleResource {
		t.Fatalf("roles %v, want 4 the API server and 5 the resource", roles)
	}
	small, err := NewCluster([]ID{1, 2}, 15*ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	if info.Validate(small) == nil {
		t.Fatal("two nodes accepted: there is no candidate")
	}
}

// The API server answers a GET with the record, and applies an UPDATE only at the version it
// names — one higher each time, kept on disk — answering anything else with 409 Conflict.
func TestK8sLeaseAPIServer(t *testing.T) {
	k, env := k8sNode(t, 4)
	k.Start(env)
	k.Receive(env, Message{Kind: KindGet, From: 1})
	wantSend(t, env, Message{Kind: KindLease, From: 4, To: 1}) // no Lease yet: version 0
	env.Clear()
	k.Receive(env, Message{Kind: KindUpdate, From: 2, Value: 2, Phase: 0})
	wantSend(t, env, Message{Kind: KindLease, From: 4, To: 2, Value: 2, Phase: 1, Flag: true})
	env.Clear()
	k.Receive(env, Message{Kind: KindUpdate, From: 1, Value: 1, Phase: 0})
	wantSend(t, env, Message{Kind: KindConflict, From: 4, To: 1, Phase: 1})
	env.Clear()
	k.Receive(env, Message{Kind: KindUpdate, From: 1, Value: 1, Phase: 1, Term: 1})
	wantSend(t, env, Message{Kind: KindLease, From: 4, To: 1, Value: 1, Phase: 2, Term: 1, Flag: true})
	// The Lease is in etcd: a crash loses nothing of it.
	k, _ = k8sNode(t, 4)
	env.Clear()
	k.Start(env)
	k.Receive(env, Message{Kind: KindGet, From: 3})
	wantSend(t, env, Message{Kind: KindLease, From: 4, To: 3, Value: 1, Phase: 2, Term: 1})
}

// A candidate GETs the record; with no Lease yet it creates it (an UPDATE at version 0, no
// transition yet); applied, it leads, writes every write, and renews a retry-period later.
func TestK8sLeaseCandidateAcquires(t *testing.T) {
	k, env := k8sNode(t, 2)
	k.Start(env)
	wantSend(t, env, Message{Kind: KindGet, From: 2, To: 4})
	env.Clear()
	k.Receive(env, lease(0, 0, 0, false))
	wantSend(t, env, Message{Kind: KindUpdate, From: 2, To: 4, Value: 2})
	env.Clear()
	env.now = 20 * ms
	k.Receive(env, lease(2, 1, 0, true))
	if k.State() != (State{Status: Leader, Leader: 2}) || env.Pending[timerWrite] != 50*ms || env.Pending[timerRetry] != 40*ms {
		t.Fatalf("state %+v, timers %v", k.State(), env.Pending)
	}
	env.Clear()
	k.Timer(env, timerWrite)
	wantSend(t, env, Message{Kind: KindWrite, From: 2, To: 5})
}

// "A client needs to wait a full LeaseDuration without observing a change to the record": the
// wait runs from when the candidate saw the record change, by its clock — a renewal it sees
// starts it again; an unchanged record after lease-duration is taken over, with one more
// transition, at the version seen.
func TestK8sLeaseCandidateWaitsFromWhatItSaw(t *testing.T) {
	k, env := k8sNode(t, 2)
	k.Start(env)
	env.now = 10 * ms
	k.Receive(env, lease(1, 4, 2, false))
	if k.State() != (State{Status: Follower, Leader: 1}) || len(env.SentKind(KindUpdate)) != 0 {
		t.Fatalf("a held Lease: state %+v, sent %v", k.State(), env.Sent())
	}
	try := func(now time.Duration, m Message) {
		env.Clear()
		env.now = now
		k.Timer(env, timerRetry)
		k.Receive(env, m)
	}
	try(200*ms, lease(1, 5, 2, false)) // renewed: the wait starts again at 200ms
	try(499*ms, lease(1, 5, 2, false))
	if len(env.SentKind(KindUpdate)) != 0 {
		t.Fatalf("took over at 499ms, 299ms after the change it saw: %v", env.Sent())
	}
	try(500*ms, lease(1, 5, 2, false))
	if want := (Message{Kind: KindUpdate, From: 2, To: 4, Value: 2, Phase: 5, Term: 3}); !slices.Equal(env.sends, []Message{{Kind: KindGet, From: 2, To: 4}, want}) {
		t.Fatalf("at 500ms sent %v, want a GET and then %v", env.sends, want)
	}
	// Someone else's UPDATE landed first.
	env.Clear()
	k.Receive(env, Message{Kind: KindConflict, From: 4, Phase: 6})
	if k.State().Status == Leader || env.Pending[timerRetry] != 40*ms {
		t.Errorf("after a conflict: state %+v, timers %v", k.State(), env.Pending)
	}
}

// The holder renews at once at the version it saw (the fast path), within a round that gives up
// after renew-deadline; a conflict sends it to the slow path (GET, then UPDATE); a round with
// no renewal ends its leadership — though the record named someone else long before.
func TestK8sLeaseHolderRenews(t *testing.T) {
	k, env := k8sNode(t, 2)
	k.Start(env)
	k.Receive(env, lease(0, 0, 0, false))
	k.Receive(env, lease(2, 1, 0, true))
	env.Clear()
	env.now = 40 * ms
	k.Timer(env, timerRetry)
	wantSend(t, env, Message{Kind: KindUpdate, From: 2, To: 4, Value: 2, Phase: 1})
	if env.Pending[timerDeadline] != 200*ms {
		t.Fatalf("a round of renewals: timers %v", env.Pending)
	}
	env.Clear()
	k.Receive(env, lease(2, 2, 0, true))
	if !env.Cancelled(timerDeadline) || env.Pending[timerRetry] != 40*ms || k.seen.version != 2 {
		t.Fatalf("renewed: ops %v, seen %+v", env.Ops(), k.seen)
	}
	env.Clear()
	env.now = 80 * ms
	k.Timer(env, timerRetry)
	env.Clear()
	k.Receive(env, Message{Kind: KindConflict, From: 4, Phase: 3})
	wantSend(t, env, Message{Kind: KindGet, From: 2, To: 4})
	env.Clear()
	k.Receive(env, lease(3, 3, 1, false)) // 3 holds it now
	if k.State().Status != Leader || len(env.sends) != 0 {
		t.Fatalf("the holder sees another: state %+v, sent %v — it leads on until its round gives up", k.State(), env.Sent())
	}
	env.now = 280 * ms
	k.Timer(env, timerDeadline)
	if k.State() != (State{Status: Follower, Leader: 3}) || !env.Cancelled(timerWrite) {
		t.Errorf("the round gave up: state %+v, ops %v", k.State(), env.Ops())
	}
}

// An UPDATE unanswered for a retry-period may yet be applied: the next try GETs first, and the
// late answer to it is taken as news of the record, not as a renewal now.
func TestK8sLeaseLateAnswer(t *testing.T) {
	k, env := k8sNode(t, 2)
	k.Start(env)
	k.Receive(env, lease(0, 0, 0, false))
	k.Receive(env, lease(2, 1, 0, true))
	env.now = 40 * ms
	k.Timer(env, timerRetry) // UPDATE at version 1
	env.Clear()
	env.now = 80 * ms
	k.Timer(env, timerRequest) // unanswered
	wantSend(t, env, Message{Kind: KindGet, From: 2, To: 4})
	env.Clear()
	env.now = 90 * ms
	k.Receive(env, lease(2, 2, 0, true)) // the late answer
	if env.Cancelled(timerDeadline) || k.pending != k8sGet || k.seen.version != 2 || k.seenAt != 90*ms {
		t.Fatalf("a late answer: ops %v, pending %d, seen %+v at %v", env.Ops(), k.pending, k.seen, k.seenAt)
	}
	k.Receive(env, lease(2, 2, 0, false)) // the GET's
	wantSend(t, env, Message{Kind: KindUpdate, From: 2, To: 4, Value: 2, Phase: 2})
}

// With fencing, the leader's writes carry the transitions it took the Lease with, the
// resource refuses an older one, and a refused leader stops leading. Without, the resource
// takes anything.
func TestK8sLeaseFencing(t *testing.T) {
	for _, fencing := range []string{"on", "off"} {
		r, env := k8sNode(t, 5, "fencing="+fencing)
		r.Start(env)
		answers := func(in, want Message) {
			t.Helper()
			env.Clear()
			r.Receive(env, in)
			wantSend(t, env, want)
		}
		answers(Message{Kind: KindWrite, From: 2, Term: 3}, Message{Kind: KindAccept, From: 5, To: 2, Term: 3})
		want := KindReject
		if fencing == "off" {
			want = KindAccept
		}
		answers(Message{Kind: KindWrite, From: 1, Term: 2}, Message{Kind: want, From: 5, To: 1, Term: 2})
	}
	k, env := k8sNode(t, 1, "fencing=on")
	k.Start(env)
	k.Receive(env, lease(3, 7, 2, false))
	env.now = 400 * ms
	k.Timer(env, timerRetry)
	k.Receive(env, lease(3, 7, 2, false))
	k.Receive(env, lease(1, 8, 3, true))
	env.Clear()
	k.Timer(env, timerWrite)
	wantSend(t, env, Message{Kind: KindWrite, From: 1, To: 5, Term: 3})
	k.Receive(env, Message{Kind: KindReject, From: 5, Term: 3})
	if k.State().Status == Leader {
		t.Errorf("a refused leader leads on: %+v", k.State())
	}
}

// elect on the holder gives the Lease up — an UPDATE naming nobody — and a candidate that sees
// it may take it over at once, with one more transition.
func TestK8sLeaseRelease(t *testing.T) {
	k, env := k8sNode(t, 2)
	k.Start(env)
	k.Receive(env, lease(0, 0, 0, false))
	k.Receive(env, lease(2, 1, 0, true))
	env.Clear()
	k.Elect(env)
	wantSend(t, env, Message{Kind: KindUpdate, From: 2, To: 4, Phase: 1})
	if k.State().Status == Leader {
		t.Fatalf("still leads after giving the Lease up: %+v", k.State())
	}
	c, env := k8sNode(t, 3)
	c.Start(env)
	c.Receive(env, lease(2, 1, 0, false)) // held
	env.Clear()
	env.now = 40 * ms
	c.Timer(env, timerRetry)
	c.Receive(env, lease(0, 2, 0, false)) // released
	if got := env.SentKind(KindUpdate); !slices.Equal(got, []ID{4}) || env.sends[len(env.sends)-1].Term != 1 {
		t.Errorf("a released Lease: sent %v, want an UPDATE with transitions 1", env.sends)
	}
}

// The warnings: client-go's own check of renew-deadline against retry-period, and the margin
// that keeps a holder whose renewals fail from leading beside the one that takes over.
func TestK8sLeaseWarnings(t *testing.T) {
	info, _ := Lookup("k8s-lease")
	ids := []ID{1, 2, 3, 4}
	checkWarnings(t, info, ids, 15*ms, nil, nil)
	checkWarnings(t, info, ids, 70*ms, nil, []string{"lease-duration 300ms is not more than renew-deadline 200ms + retry-period 40ms + the max delay 70ms"})
	checkWarnings(t, info, ids, 15*ms, algoParams(t, "k8s-lease", "renew-deadline=45ms"), []string{"renew-deadline 45ms is not more than 1.2 × retry-period 40ms"})
}
