package session

import (
	"errors"
	"strings"
	"testing"

	"electsim/algo"
	"electsim/scenarios"
	"electsim/sim"
)

// act takes the action written in the scenario language.
func act(t testing.TB, s *Session, text string) (Taken, error) {
	t.Helper()
	a, err := scenarios.ParseAction(text, s.Members())
	if err != nil {
		t.Fatal(err)
	}
	return s.Act(a, false)
}

// refused checks that text is refused, saying why, and leaves the session as it was.
func refused(t *testing.T, s *Session, text, why string) {
	t.Helper()
	n, user, now := len(s.Steps()), len(s.User()), s.Now()
	_, err := act(t, s, text)
	var r *Refused
	if !errors.As(err, &r) || r.Why != why || r.Action.String() != text {
		t.Fatalf("%s: %v, want refused because %q", text, err, why)
	}
	if len(s.Steps()) != n || len(s.User()) != user || s.Now() != now || s.Done() {
		t.Errorf("%s refused: %d steps (was %d), user %v, at %v (was %v), done %v", text, len(s.Steps()), n, s.User(), s.Now(), now, s.Done())
	}
}

// An action that would change nothing where it happens is refused, with the reason, and the run
// is as it was.
func TestIdleActionsAreRefused(t *testing.T) {
	s := open(t, "bully-boot", nil)
	next(t, s, 12)
	refused(t, s, "recover 1", "node 1 is not crashed")
	refused(t, s, "heal", "no partition and no cut link to heal")
	refused(t, s, "crash 5", "node 5 is already crashed")
	refused(t, s, "elect 5", "node 5 is crashed and cannot elect")
	if _, err := act(t, s, "cut 1->2"); err != nil {
		t.Fatal(err)
	}
	refused(t, s, "cut 1->2", "the link 1->2 is cut already")
	refused(t, s, "heal 2->1", "the link 2->1 is not cut")
	if _, err := act(t, s, "partition 1 2"); err != nil {
		t.Fatal(err)
	}
	refused(t, s, "partition 3 4 5", "the nodes are split that way already")
	if want := "recover 1: node 1 is not crashed — nothing done"; (&Refused{sim.Action{Op: sim.Recover, Nodes: []algo.ID{1}}, "node 1 is not crashed"}).Error() != want {
		t.Errorf("Refused.Error: want %q", want)
	}
}

// crash leader, pause leader, elect leader and partition leader act on the node that leads when
// they happen: the trace's copy names it, the session keeps and saves `leader` as written, and a
// replay is exact. When no node leads then, the action is refused at once, saying who names
// whom, and the run goes on.
func TestLeaderActions(t *testing.T) {
	s := open(t, "bully-leader-crash", nil)
	next(t, s, 12) // 6ms: 5 knows it leads, and has told node 2
	why := "no node leads at 7ms — the live nodes do not all name one live leader: nodes 1 3 4 name nobody; nodes 2 5 name 5"
	refused(t, s, "crash leader", why)
	refused(t, s, "partition leader", why)
	for s.Now() < 200*ms {
		next(t, s, 1)
	}
	tk, err := act(t, s, "crash leader")
	if err != nil {
		t.Fatal(err)
	}
	if tk.Action.String() != "crash leader" || tk.Happened.String() != "crash leader (node 5)" || tk.AtBreak {
		t.Errorf("taken %q, happened %q, at a break %v", tk.Action, tk.Happened, tk.AtBreak)
	}
	if got := s.User(); len(got) != 1 || got[0].String() != "crash leader" || got[0].At != tk.Action.At {
		t.Errorf("the user's actions: %v", got)
	}
	if s.Node(5).Status != sim.Crashed {
		t.Errorf("node 5 is %s", s.Node(5).Status)
	}
	if r := s.Steps()[len(s.Steps())-1].Records[0]; r.Action == nil || r.Action.Leader != 5 {
		t.Errorf("the step shown: %+v", r)
	}
	// Nobody leads now: the others have not noticed yet, but 5 is crashed.
	refused(t, s, "pause leader", "no node leads at "+algo.FormatDuration(s.ActTime())+
		" — the live nodes do not all name one live leader: nodes 1 2 3 4 name 5, which is crashed")
	for s.Node(4).Status != sim.Leader || len(s.Leaders()) != 1 {
		next(t, s, 1)
	}
	next(t, s, 40) // every node names 4 now
	if tk, err = act(t, s, "partition leader | 1"); err != nil || tk.Happened.String() != "partition leader (node 4) | 1" {
		t.Fatalf("partition leader | 1: %v, happened %q", err, tk.Happened)
	}
	refused(t, s, "partition 4 | 1", "the nodes are split that way already")
	next(t, s, 30)
	if why := sameAsFresh(t, s); why != "" {
		t.Error(why)
	}
	// Saved, the session keeps `leader`, and replays to the same trace.
	text := s.File("lesson", "electsim tui")
	for _, want := range []string{" crash leader\n", " partition leader | 1\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("the saved session lacks %q:\n%s", want, text)
		}
	}
	if err := s.Back(len(s.Steps())); err != nil {
		t.Fatal(err)
	}
	for !s.Done() { // to the end of the run, past the steps known
		s.Next()
	}
	if why := sameAsFresh(t, s); why != "" {
		t.Errorf("stepped back to the start and forward again: %s", why)
	}
}

// An action that names `leader` and the leader's own id as well is refused: it would name the
// node twice.
func TestLeaderNamedTwice(t *testing.T) {
	s := open(t, "bully-leader-crash", nil)
	for s.Now() < 200*ms {
		next(t, s, 1)
	}
	refused(t, s, "crash 5 leader", "the leader is node 5, which it names as well")
	if _, err := act(t, s, "crash 4 leader"); err != nil || s.Node(4).Status != sim.Crashed || s.Node(5).Status != sim.Crashed {
		t.Errorf("crash 4 leader: %v, node 4 %s, node 5 %s", err, s.Node(4).Status, s.Node(5).Status)
	}
}

// An action taken before a break stops at the break: it happens when the run goes on, and a
// `leader` there is judged where it happens, after the break.
func TestActStopsAtABreak(t *testing.T) {
	s := open(t, "bully-leader-crash", nil)
	tk, err := act(t, s, "partition 1 2 | 3 4 5")
	if err != nil || !tk.AtBreak || !s.AtBreak() || len(s.Steps()) != 2 || s.Partition() != nil {
		t.Fatalf("%v: taken %+v, at a break %v, %d steps", err, tk, s.AtBreak(), len(s.Steps()))
	}
	for s.Partition() == nil {
		next(t, s, 1)
	}
	if r := s.Steps()[len(s.Steps())-1].Records[0]; r.At != ms || r.Action.Op != sim.Partition {
		t.Errorf("the partition came at %+v", r)
	}
	// At 0ms no node leads, and a break comes before the action's time: refused all the same.
	s = open(t, "bully-leader-crash", nil)
	refused(t, s, "crash leader", "no node leads at 1ms — the live nodes do not all name one live leader: nodes 1 2 3 4 name nobody; node 5 names 5")
}

// After stepping back, an action replaces the actions the user took from its time on: Forgets
// says which, before; after, they are gone, and the run is the one with the new action alone.
func TestActAfterBackForgets(t *testing.T) {
	s := open(t, "bully-boot", nil)
	next(t, s, 12)
	if _, err := act(t, s, "crash 1"); err != nil {
		t.Fatal(err)
	}
	next(t, s, 5)
	if err := s.Back(6); err != nil {
		t.Fatal(err)
	}
	if lost := s.Forgets(); len(lost) != 1 || lost[0].String() != "crash 1" {
		t.Fatalf("Forgets: %v", lost)
	}
	if _, err := act(t, s, "crash 2"); err != nil {
		t.Fatal(err)
	}
	if user := s.User(); len(user) != 1 || user[0].String() != "crash 2" || s.Node(1).Status == sim.Crashed {
		t.Errorf("user %v, node 1 %s", user, s.Node(1).Status)
	}
	next(t, s, 10)
	if why := sameAsFresh(t, s); why != "" {
		t.Error(why)
	}
}

// An action after the end of the run is too late.
func TestActTooLate(t *testing.T) {
	s := open(t, "bully-boot", func(c *sim.Config) { c.RunFor = 10 * ms })
	for s.Now() < 10*ms {
		next(t, s, 1)
	}
	if _, err := act(t, s, "crash 1"); err == nil || err.Error() != "too late: the run ends at 10ms" {
		t.Errorf("an action after the end: %v", err)
	}
}
