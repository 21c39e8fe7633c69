package algo

import (
	"reflect"
	"testing"
	"time"
)

// The field decisions of the invitation algorithm's node (see TestCloneAndStateCoverEveryField).
func init() {
	fieldDecisions[reflect.TypeFor[Invitation]()] = map[string]string{
		"id": "written", "state": "written", "coord": "written", "group": "written",
		"counter": "written", "up": "copied, written in order", "found": "copied, written in order",
		"waiting": "written", "all": "the cluster's, shared", "rank": "follows from the id",
		"cfg": "shared timing",
	}
}

// Booted, every node forms a group of its own; the first Check finds the others, and the
// highest, which waits no time for a higher priority, invites them all: one group, 5·2.
func TestInvitationMergesAtBoot(t *testing.T) {
	c, err := NewCluster([]ID{1, 2, 3, 4, 5}, 10*time.Millisecond, nil)
	if err != nil {
		t.Fatal(err)
	}
	n5 := NewInvitation(5, c)
	env := newFakeEnv(t, 5, true)
	n5.Start(env)
	if st := n5.State(); st.Status != Leader || st.Leader != 5 || st.Term != 1 {
		t.Fatalf("booted: %+v, want the coordinator of its own group 5·1", st)
	}
	n5.Timer(env, timerCheck)
	for _, j := range []ID{1, 2, 3, 4} {
		n5.Receive(env, Message{Kind: KindCoordinatorAnswer, From: j, To: 5, Value: j, Term: 1, Flag: true})
	}
	n5.Timer(env, timerCheckEnd)
	n5.Timer(env, timerMerge)
	if st := n5.State(); st.Status != Candidate || st.Term != 2 {
		t.Fatalf("merging: %+v, want a candidate forming group 5·2", st)
	}
	invited := 0
	for _, m := range env.sends {
		if m.Kind == KindInvitation && m.Value == 5 && m.Term == 2 {
			invited++
		}
	}
	if invited != 4 {
		t.Fatalf("%d INVITATIONs to group 5·2, want 4", invited)
	}
	n3 := NewInvitation(3, c)
	env3 := newFakeEnv(t, 3, true)
	n3.Start(env3)
	n3.Receive(env3, Message{Kind: KindInvitation, From: 5, To: 3, Value: 5, Term: 2})
	n3.Receive(env3, Message{Kind: KindReady, From: 5, To: 3, Value: 5, Term: 2})
	if st := n3.State(); st.Status != Follower || st.Leader != 5 || st.Term != 2 {
		t.Fatalf("after READY: %+v, want a member of 5·2", st)
	}
}

// one-coordinator-per-group catches two nodes that speak for one group: the first message
// fixes its coordinator, and one naming another is a violation naming both.
func TestGroupCoordinatorsCatchesTwo(t *testing.T) {
	w := watchGroupCoordinators()
	for _, m := range []Message{
		{Kind: KindAreYouCoordinator, From: 5, To: 1, Value: 5, Term: 2},
		{Kind: KindAreYouThere, From: 3, To: 5, Value: 5, Term: 2},
		{Kind: KindCoordinatorAnswer, From: 3, To: 5, Value: 5, Term: 2}, // a no: no claim
	} {
		if broken, _, d := w.Sent(m); broken {
			t.Fatalf("%v: broken (%s), want it to hold", m, d)
		}
	}
	c := w.Clone()
	broken, nodes, detail := w.Sent(Message{Kind: KindReady, From: 3, To: 1, Value: 5, Term: 2})
	if !broken || !reflect.DeepEqual(nodes, []ID{5, 3}) {
		t.Fatalf("READY for 5·2 from 3: broken %v, nodes %v (%s), want broken by 5 and 3", broken, nodes, detail)
	}
	if string(c.AppendState(nil)) != string(w.AppendState(nil)) {
		t.Error("a violation changed what the judge remembers")
	}
}

// eventual-merge holds when every live node is in one group under its live coordinator, and is
// broken by two groups, a node still joining, or a coordinator that left the group.
func TestJudgeMerged(t *testing.T) {
	member := func(id, c ID, n uint64) NodeAtEnd {
		return NodeAtEnd{ID: id, Live: true, State: State{Status: Follower, Leader: c, Term: n}}
	}
	lead := func(id ID, n uint64) NodeAtEnd {
		return NodeAtEnd{ID: id, Live: true, State: State{Status: Leader, Leader: id, Term: n}}
	}
	down := NodeAtEnd{ID: 9}
	for _, tc := range []struct {
		name   string
		nodes  []NodeAtEnd
		broken bool
	}{
		{"one group", []NodeAtEnd{member(1, 5, 3), member(2, 5, 3), lead(5, 3), down}, false},
		{"two groups", []NodeAtEnd{member(1, 3, 2), lead(3, 2), lead(5, 3)}, true},
		{"a member of an old group", []NodeAtEnd{member(1, 5, 2), lead(5, 3)}, true},
		{"joining", []NodeAtEnd{{ID: 1, Live: true, State: State{Status: Candidate, Leader: 5, Term: 3}}, lead(5, 3)}, true},
		{"a coordinator that is not there", []NodeAtEnd{member(1, 5, 3), member(2, 5, 3)}, true},
	} {
		broken, _, detail := judgeMerged(tc.nodes)
		if broken != tc.broken {
			t.Errorf("%s: broken %v (%s), want %v", tc.name, broken, detail, tc.broken)
		}
	}
}
