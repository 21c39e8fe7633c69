package algo

import (
	"slices"
	"testing"
)

// The tests below drive one ZooKeeper node by hand through a fakeEnv, on the cluster
// {1,2,3,4,5}: 5 is the coordination service, 1–4 candidates. Defaults: session 300ms, ping
// 100ms, write 50ms, watch predecessor, fencing on.

func zkNode(t *testing.T, id ID, kv ...string) (*ZooKeeper, *fakeEnv) {
	t.Helper()
	z := NewZooKeeper(id, bullyCluster(t, algoParams(t, "zookeeper", kv...)))
	return z, newFakeEnv(t, id, true)
}

func zkMsg(kind string, from, to, value ID, term uint64, flag bool) Message {
	return Message{Kind: kind, From: from, To: to, Value: value, Term: term, Flag: flag}
}

// The service numbers znodes in the order it creates them; the lowest leads; each other
// candidate watches its predecessor — or, with watch=leader, the leader.
func TestZooKeeperServiceWatches(t *testing.T) {
	for _, tt := range []struct {
		watch   string
		watched []uint64 // the znode each of 2, 3, 4 watches
	}{
		{WatchPredecessor, []uint64{1, 2, 3}},
		{WatchLeader, []uint64{1, 1, 1}},
	} {
		z, env := zkNode(t, 5, "watch="+tt.watch)
		z.Start(env)
		for _, from := range []ID{1, 2, 3, 4} {
			env.Clear()
			z.Receive(env, zkMsg(KindCreate, from, 5, 0, 7, false)) // session 7
			want := zkMsg(KindCreated, 5, from, 1, 7, false)        // 1 leads
			if from == 1 {
				want = zkMsg(KindCreated, 5, 1, 1, 7, true) // znode 1: yours, the lowest
			}
			wantSend(t, env, want)
		}
		var got []uint64
		for _, w := range z.watches {
			got = append(got, w.seq)
		}
		if !slices.Equal(got, tt.watched) {
			t.Errorf("watch=%s: 2, 3, 4 watch znodes %v, want %v", tt.watch, got, tt.watched)
		}
		// The leader's session expires: a NOTIFY to each watcher of znode 1 — one, or three.
		env.Clear()
		env.now = 200 * ms
		for _, from := range []ID{2, 3, 4} {
			z.Receive(env, zkMsg(KindPing, from, 5, 0, 7, false))
		}
		env.Clear()
		env.now = 300 * ms
		z.Timer(env, timerSessions)
		var notified []ID
		for _, m := range env.sends {
			if m.Kind == KindNotify && m.Value == 1 {
				notified = append(notified, m.To)
			}
		}
		wantNotified := []ID{2}
		if tt.watch == WatchLeader {
			wantNotified = []ID{2, 3, 4}
		}
		if !slices.Equal(notified, wantNotified) {
			t.Errorf("watch=%s: znode 1 deleted, NOTIFY to %v, want %v (sent %v)", tt.watch, notified, wantNotified, env.sends)
		}
		// 2 asks again: its znode is the lowest now.
		env.Clear()
		z.Receive(env, zkMsg(KindWatch, 2, 5, 0, 7, false))
		wantSend(t, env, zkMsg(KindPong, 5, 2, 2, 7, true))
	}
}

// A session the service does not know — expired, or from before its crash — gets EXPIRED; a
// service back from a crash names no leader for a session timeout.
func TestZooKeeperServiceExpiredAndGrace(t *testing.T) {
	z, env := zkNode(t, 5)
	z.Start(env)
	env.now = 10 * ms
	z.Receive(env, zkMsg(KindCreate, 1, 5, 0, 1, false))
	env.Clear()
	z.Receive(env, zkMsg(KindPing, 2, 5, 0, 1, false))
	wantSend(t, env, zkMsg(KindExpired, 5, 2, 0, 1, false))
	// Crash and restart at 500ms: the disk keeps the last number, the sessions are gone.
	z, disk := NewZooKeeper(5, bullyCluster(t, nil)), env.Disk
	env = newFakeEnv(t, 5, true)
	env.Disk, env.now = disk, 500*ms
	z.Start(env)
	env.Clear()
	z.Receive(env, zkMsg(KindCreate, 1, 5, 0, 2, false))
	wantSend(t, env, zkMsg(KindCreated, 5, 1, 0, 2, false)) // znode 2, but no leader named before 800ms
	env.Clear()
	env.now = 700 * ms
	z.Receive(env, zkMsg(KindPing, 1, 5, 0, 2, false))
	wantSend(t, env, zkMsg(KindPong, 5, 1, 0, 2, false))
	env.Clear()
	env.now = 800 * ms
	z.Receive(env, zkMsg(KindPing, 1, 5, 0, 2, false))
	wantSend(t, env, zkMsg(KindPong, 5, 1, 2, 2, true))
}

// The data store keeps the highest token it accepted; with fencing it rejects a lower one.
func TestZooKeeperFencing(t *testing.T) {
	for _, fencing := range []string{"on", "off"} {
		z, env := zkNode(t, 5, "fencing="+fencing)
		z.Start(env)
		z.Receive(env, zkMsg(KindWrite, 2, 5, 0, 2, false))
		env.Clear()
		z.Receive(env, zkMsg(KindWrite, 1, 5, 0, 1, false))
		want := zkMsg(KindReject, 5, 1, 0, 1, false)
		if fencing == "off" {
			want.Kind = KindAccept
		}
		wantSend(t, env, want)
	}
}

// A candidate leads when the service says its znode is the lowest, with its number as its
// token; an answer to an earlier session is ignored; EXPIRED makes a leader step down and open
// a new session.
func TestZooKeeperCandidate(t *testing.T) {
	z, env := zkNode(t, 1)
	z.Start(env)
	wantSend(t, env, zkMsg(KindCreate, 1, 5, 0, 1, false))
	env.Clear()
	z.Receive(env, zkMsg(KindCreated, 5, 1, 3, 1, true))
	if st := z.State(); st != (State{Status: Leader, Leader: 1, Term: 3}) {
		t.Fatalf("after CREATED(3) ✓: %+v, want leader with token 3", st)
	}
	z.Timer(env, timerWrite)
	wantSend(t, env, zkMsg(KindWrite, 1, 5, 0, 3, false))
	env.Clear()
	z.Receive(env, zkMsg(KindExpired, 5, 1, 0, 1, false))
	if st := z.State(); st.Status == Leader {
		t.Fatalf("after EXPIRED: %+v, still leading", st)
	}
	wantSend(t, env, zkMsg(KindCreate, 1, 5, 0, 2, false)) // session 2
	env.Clear()
	z.Receive(env, zkMsg(KindPong, 5, 1, 3, 1, true)) // session 1's: stale
	if st := z.State(); st.Status == Leader {
		t.Fatalf("a PONG of session 1 made it lead: %+v", st)
	}
	z.Receive(env, zkMsg(KindPong, 5, 1, 4, 2, false)) // session 2: 4 leads
	if st := z.State(); st != (State{Status: Follower, Leader: 4}) {
		t.Fatalf("after PONG(4) t2: %+v, want a follower of 4", st)
	}
}
