package algo

import (
	"slices"
	"strings"
	"testing"
)

// The tests below drive one Lease node by hand through a fakeEnv, on the cluster {1,2,3,4,5}:
// 4 is the lock service, 5 the resource, 1–3 candidates. Defaults: ttl 300ms, renew 100ms,
// write 50ms, retry 100ms, fencing on.

func leaseNode(t *testing.T, id ID, kv ...string) (*Lease, *fakeEnv) {
	t.Helper()
	l := NewLease(id, bullyCluster(t, algoParams(t, "lease", kv...)))
	return l, newFakeEnv(t, id, true)
}

func leaseMsg(kind string, from, to, value ID, token uint64) Message {
	return Message{Kind: kind, From: from, To: to, Value: value, Term: token}
}

// wantSend checks that exactly one message was sent, and that it is want.
func wantSend(t *testing.T, env *fakeEnv, want Message) {
	t.Helper()
	if len(env.sends) != 1 || env.sends[0] != want {
		t.Fatalf("sent %v, want only %v (notes: %s)", env.sends, want, env.Notes())
	}
}

// answers hands node l the message in and checks that it answers with want alone; then it
// clears what env recorded.
func answers(t *testing.T, l *Lease, env *fakeEnv, in, want Message) {
	t.Helper()
	l.Receive(env, in)
	wantSend(t, env, want)
	env.Clear()
}

func TestLeaseRoles(t *testing.T) {
	info, err := Lookup("lease")
	if err != nil {
		t.Fatal(err)
	}
	c := bullyCluster(t, nil)
	roles := info.Roles(c)
	if len(roles) != 2 || roles[4] != RoleLockService || roles[5] != RoleResource {
		t.Fatalf("roles %v, want 4 the lock service and 5 the resource", roles)
	}
	small, err := NewCluster([]ID{1, 2}, 15*ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	if info.Validate(small) == nil {
		t.Fatal("two nodes accepted: there is no candidate")
	}
}

// "Grant the lease to one client at a time; a new lease gets a token higher than any before."
func TestLeaseLockServiceGrantsOneAtATime(t *testing.T) {
	l, env := leaseNode(t, 4)
	l.Start(env)
	env.now = 10 * ms
	l.Receive(env, leaseMsg(KindAcquire, 1, 4, 1, 0))
	wantSend(t, env, leaseMsg(KindGrant, 4, 1, 1, 1))
	if env.Disk[diskLastToken] != 1 {
		t.Fatalf("last token on disk %d, want 1", env.Disk[diskLastToken])
	}
	env.Clear()
	answers(t, l, env, leaseMsg(KindAcquire, 2, 4, 1, 0), leaseMsg(KindDeny, 4, 2, 1, 0)) // DENY(1): 1 holds it
	// The holder renews at 110ms: until 410ms. A RENEW from anyone else is denied.
	env.now = 110 * ms
	answers(t, l, env, leaseMsg(KindRenew, 1, 4, 2, 0), leaseMsg(KindGrant, 4, 1, 2, 1))
	answers(t, l, env, leaseMsg(KindRenew, 3, 4, 7, 0), leaseMsg(KindDeny, 4, 3, 1, 0))
	// Still held just before 410ms; free at 410ms, and the next lease gets token 2.
	env.now = 409 * ms
	answers(t, l, env, leaseMsg(KindAcquire, 2, 4, 3, 0), leaseMsg(KindDeny, 4, 2, 1, 0))
	env.now = 410 * ms
	l.Receive(env, leaseMsg(KindAcquire, 2, 4, 4, 0))
	wantSend(t, env, leaseMsg(KindGrant, 4, 2, 4, 2))
	if l.State() != (State{}) {
		t.Fatalf("lock service state %+v, want the zero State: it leads and follows nobody", l.State())
	}
	env.Clear()
	// The old holder's late RENEW is denied: its lease is gone.
	answers(t, l, env, leaseMsg(KindRenew, 1, 4, 5, 0), leaseMsg(KindDeny, 4, 1, 2, 0))
	// The holder asking again keeps its token.
	l.Receive(env, leaseMsg(KindAcquire, 2, 4, 5, 0))
	wantSend(t, env, leaseMsg(KindGrant, 4, 2, 5, 2))
}

// After a crash the lock service has forgotten the holder, but not the last token: it grants
// nothing for a TTL, then a higher token than before.
func TestLeaseLockServiceRecovers(t *testing.T) {
	l, env := leaseNode(t, 4)
	l.Start(env)
	l.Receive(env, leaseMsg(KindAcquire, 1, 4, 1, 0))
	// Crash: a new node on the same disk, at 50ms.
	l, _ = leaseNode(t, 4)
	env.Clear()
	env.now = 50 * ms
	l.Start(env)
	answers(t, l, env, leaseMsg(KindAcquire, 2, 4, 1, 0), leaseMsg(KindDeny, 4, 2, 0, 0))
	env.now = 349 * ms
	answers(t, l, env, leaseMsg(KindRenew, 1, 4, 3, 0), leaseMsg(KindDeny, 4, 1, 0, 0))
	env.now = 350 * ms
	l.Receive(env, leaseMsg(KindAcquire, 2, 4, 2, 0))
	wantSend(t, env, leaseMsg(KindGrant, 4, 2, 2, 2))
	// A first boot, with nothing on disk, grants at once.
	l, env = leaseNode(t, 4)
	l.Start(env)
	l.Receive(env, leaseMsg(KindAcquire, 3, 4, 1, 0))
	wantSend(t, env, leaseMsg(KindGrant, 4, 3, 1, 1))
}

// "Remember the highest token accepted; with fencing, reject a write with a lower one."
func TestLeaseResourceFencing(t *testing.T) {
	for _, fencing := range []string{"on", "off"} {
		t.Run(fencing, func(t *testing.T) {
			l, env := leaseNode(t, 5, "fencing="+fencing)
			l.Start(env)
			answers(t, l, env, leaseMsg(KindWrite, 2, 5, 0, 2), leaseMsg(KindAccept, 5, 2, 0, 2))
			l.Receive(env, leaseMsg(KindWrite, 2, 5, 0, 2)) // the same token again is fine
			wantSend(t, env, leaseMsg(KindAccept, 5, 2, 0, 2))
			env.Clear()
			// Across a crash: the highest token accepted is on disk.
			l, _ = leaseNode(t, 5, "fencing="+fencing)
			l.Start(env)
			env.Clear()
			l.Receive(env, leaseMsg(KindWrite, 1, 5, 0, 1))
			want := KindReject
			if fencing == "off" {
				want = KindAccept
			}
			wantSend(t, env, leaseMsg(want, 5, 1, 0, 1))
			if env.Disk[diskAccepted] != 2 {
				t.Fatalf("highest accepted %d, want 2 still", env.Disk[diskAccepted])
			}
		})
	}
}

// A candidate: ACQUIRE at boot; GRANT makes it lead until a TTL after it asked; it renews,
// writes with its token, and stops leading when its lease runs out by its own clock.
func TestLeaseCandidate(t *testing.T) {
	l, env := leaseNode(t, 2)
	l.Start(env)
	wantSend(t, env, leaseMsg(KindAcquire, 2, 4, 1, 0))
	if env.Pending[timerRetry] != 100*ms {
		t.Fatalf("retry timer %v", env.Pending)
	}
	env.Clear()
	env.now = 20 * ms
	l.Receive(env, leaseMsg(KindGrant, 4, 2, 1, 7))
	if l.State() != (State{Status: Leader, Leader: 2, Term: 7}) {
		t.Fatalf("state %+v after GRANT", l.State())
	}
	// Its lease runs from 0ms, when it asked: until 300ms, 280ms from now.
	if env.Pending[timerExpire] != 280*ms || env.Pending[timerRenew] != 100*ms || env.Pending[timerWrite] != 50*ms {
		t.Fatalf("timers %v", env.Pending)
	}
	if _, ok := env.Pending[timerRetry]; ok {
		t.Fatal("retry still armed while leading")
	}
	env.Clear()
	env.now = 70 * ms
	fireLease(l, env, timerWrite)
	wantSend(t, env, leaseMsg(KindWrite, 2, 5, 0, 7))
	env.Clear()
	env.now = 120 * ms
	fireLease(l, env, timerRenew)
	wantSend(t, env, leaseMsg(KindRenew, 2, 4, 2, 0))
	env.Clear()
	// The GRANT of the renewal: until 420ms.
	env.now = 140 * ms
	l.Receive(env, leaseMsg(KindGrant, 4, 2, 2, 7))
	if env.Pending[timerExpire] != 280*ms {
		t.Fatalf("expire in %v, want 280ms", env.Pending[timerExpire])
	}
	// Running out: it stops leading and asks again later.
	env.Clear()
	env.now = 420 * ms
	fireLease(l, env, timerExpire)
	if l.State().Status != Follower || !env.Cancelled(timerWrite) || !env.Cancelled(timerRenew) || env.Pending[timerRetry] != 100*ms {
		t.Fatalf("state %+v, timers %v after the lease ran out", l.State(), env.Ops())
	}
}

// The GRANTs of a holder's requests can arrive late and out of order; each is worth a TTL from
// when its own request was sent, never more.
func TestLeaseCandidateLateGrants(t *testing.T) {
	l, env := leaseNode(t, 1)
	l.Start(env) // ACQUIRE 1 at 0ms
	env.now = 100 * ms
	fireLease(l, env, timerRetry) // ACQUIRE 2 at 100ms
	env.now = 200 * ms
	fireLease(l, env, timerRetry) // ACQUIRE 3 at 200ms
	env.Clear()
	// The answer to request 1 arrives at 310ms: its lease ended at 300ms. Ignored.
	env.now = 310 * ms
	l.Receive(env, leaseMsg(KindGrant, 4, 1, 1, 1))
	if l.State().Status == Leader {
		t.Fatal("a GRANT whose lease had run out made the node lead")
	}
	// The answer to request 3: until 500ms.
	l.Receive(env, leaseMsg(KindGrant, 4, 1, 3, 1))
	if l.State().Status != Leader || l.holdsUntil != 500*ms {
		t.Fatalf("state %+v until %v, want leader until 500ms", l.State(), l.holdsUntil)
	}
	// The answer to request 2, overtaken, must not shorten or lengthen it.
	l.Receive(env, leaseMsg(KindGrant, 4, 1, 2, 1))
	if l.holdsUntil != 500*ms {
		t.Fatalf("until %v after a late renewal, want 500ms", l.holdsUntil)
	}
	// A GRANT for a request never sent is ignored.
	l.Receive(env, leaseMsg(KindGrant, 4, 1, 99, 1))
	if l.holdsUntil != 500*ms {
		t.Fatalf("until %v after an unknown GRANT", l.holdsUntil)
	}
}

// A candidate's request numbers survive its crash: a recovered candidate numbers on from where
// it was, so the GRANT of a request from its previous life — still on its way when it crashed —
// answers no request of its new one. Were they reused, that GRANT would match the new request
// of the same number, and the candidate would time a lease the lock service started before it
// even asked: it would lead past the lease's end.
func TestLeaseCandidateRestartNumbersOn(t *testing.T) {
	l, env := leaseNode(t, 1)
	l.Start(env) // ACQUIRE 1 at 0ms; the lock service grants it at 40ms, until 340ms
	env.now = 20 * ms
	// 1 crashes at 20ms and is back at 60ms: a fresh node with the same stable storage.
	l = NewLease(1, bullyCluster(t, algoParams(t, "lease")))
	env.Clear()
	env.now = 60 * ms
	l.Start(env)
	wantSend(t, env, leaseMsg(KindAcquire, 1, 4, 2, 0))
	env.Clear()
	// The GRANT of its first life's ACQUIRE 1 arrives at 80ms.
	env.now = 80 * ms
	l.Receive(env, leaseMsg(KindGrant, 4, 1, 1, 1))
	if l.State().Status == Leader {
		t.Fatalf("a GRANT for the request of a previous life made the node lead until %v; the lock service's lease ended at 340ms", l.holdsUntil)
	}
	if !strings.Contains(env.Notes(), "request 1 with token 1: I sent it before I crashed") {
		t.Fatalf("notes %q: want them to say the GRANT answers a request from before the crash", env.Notes())
	}
	// Its own request, 2, is what a GRANT must answer.
	l.Receive(env, leaseMsg(KindGrant, 4, 1, 2, 1))
	if l.State().Status != Leader || l.holdsUntil != 360*ms {
		t.Fatalf("state %+v until %v after the GRANT of request 2, want leader until 360ms", l.State(), l.holdsUntil)
	}
}

// A leader the resource REJECTs — a newer token has written — stops leading at once. A DENY does
// not depose it: while its lease runs by its own clock nobody else can hold one, so a DENY
// only refuses a renewal, or answers an old request; the lease runs to its end.
func TestLeaseLeaderStepsDownOnReject(t *testing.T) {
	l, env := leaseNode(t, 2)
	l.Start(env)
	l.Receive(env, leaseMsg(KindGrant, 4, 2, 1, 1))
	env.Clear()
	l.Receive(env, leaseMsg(KindReject, 5, 2, 0, 1))
	if l.State().Status != Follower || !env.Cancelled(timerWrite) {
		t.Fatalf("after REJECT: state %+v, ops %v", l.State(), env.Ops())
	}

	l, env = leaseNode(t, 2)
	l.Start(env) // ACQUIRE 1 at 0ms
	env.now = 20 * ms
	l.Receive(env, leaseMsg(KindGrant, 4, 2, 1, 1)) // leads until 300ms
	env.Clear()
	for _, deny := range []Message{leaseMsg(KindDeny, 4, 2, 3, 0), leaseMsg(KindDeny, 4, 2, 0, 0)} {
		env.now += 50 * ms
		l.Receive(env, deny)
		if l.State().Status != Leader || env.Cancelled(timerExpire) || env.Cancelled(timerWrite) {
			t.Fatalf("after %v: state %+v, ops %v — a DENY deposed a leader whose lease runs", deny, l.State(), env.Ops())
		}
	}
	env.now = 300 * ms
	fireLease(l, env, timerExpire)
	if l.State().Status != Follower {
		t.Fatalf("at the end of its lease: state %+v", l.State())
	}
}

func fireLease(l *Lease, env *fakeEnv, name string) {
	delete(env.Pending, name)
	l.Timer(env, name)
}

// The no-stale-write monitor flags an ACCEPT of a lower token than one accepted before, and
// nothing else.
func TestWatchStaleWrites(t *testing.T) {
	watch := watchStaleWrites()
	for i, c := range []struct {
		m   Message
		bad bool
		who []ID
	}{
		{m: leaseMsg(KindAccept, 5, 1, 0, 1)},
		{m: leaseMsg(KindReject, 5, 1, 0, 0)},
		{m: leaseMsg(KindAccept, 5, 2, 0, 2)},
		{m: leaseMsg(KindAccept, 5, 2, 0, 2)},
		{m: leaseMsg(KindAccept, 5, 1, 0, 1), bad: true, who: []ID{1, 5}},
		{m: leaseMsg(KindWrite, 1, 5, 0, 1)},
		{m: leaseMsg(KindAccept, 5, 3, 0, 3)},
	} {
		bad, who, detail := watch.Sent(c.m)
		if bad != c.bad || !slices.Equal(who, c.who) {
			t.Errorf("%d: %v: violation %v %v (%s), want %v %v", i, c.m, bad, who, detail, c.bad, c.who)
		}
	}
}
