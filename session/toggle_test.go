package session

import (
	"errors"
	"strings"
	"testing"

	"electsim/algo"
	"electsim/scenarios"
	"electsim/sim"
)

// actToggle takes text with toggle.
func actToggle(t *testing.T, s *Session, text string) (Taken, error) {
	t.Helper()
	a, err := scenarios.ParseAction(text, s.Members())
	if err != nil {
		t.Fatal(err)
	}
	return s.Act(a, true)
}

// Toggle is for pause and resume of named nodes (issue 28, item 3): it pauses a running node
// and resumes a paused one; any other action with it is an error saying so — no panic, and no
// crash turned into a pause — and leaves the session as it was, as do leader and nodes of
// which some are paused.
func TestToggleOnlyPausesAndResumes(t *testing.T) {
	s := open(t, "bully-leader-crash", nil)
	next(t, s, 12)
	for _, c := range []struct{ text, want string }{
		{"heal", "toggle switches named nodes between paused and running: it takes pause or resume of named nodes, not heal"},
		{"crash 1", "toggle switches named nodes between paused and running: it takes pause or resume of named nodes, not crash"},
		{"partition 1 2", "not partition"},
		{"say hello", "not say"},
		{"pause leader", "it takes the nodes by their ids, not leader"},
	} {
		n, user, now := len(s.Steps()), len(s.User()), s.Now()
		_, err := actToggle(t, s, c.text)
		if !errors.Is(err, ErrToggle) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s with toggle: %v, want an error saying %q", c.text, err, c.want)
		}
		if len(s.Steps()) != n || len(s.User()) != user || s.Now() != now || s.Node(1).Status == sim.Crashed || s.Node(1).Status == sim.Paused {
			t.Errorf("%s with toggle changed the session: %d steps (was %d), user %v, node 1 %s", c.text, len(s.Steps()), n, s.User(), s.Node(1).Status)
		}
	}
	if tk, err := actToggle(t, s, "resume 2"); err != nil || tk.Action.Op != sim.Pause || s.Node(2).Status != sim.Paused {
		t.Fatalf("toggle of a running node 2: %v, %s, node 2 %s", err, tk.Action, s.Node(2).Status)
	}
	if tk, err := actToggle(t, s, "pause 2"); err != nil || tk.Action.Op != sim.Resume || s.Node(2).Status == sim.Paused {
		t.Fatalf("toggle of a paused node 2: %v, %s, node 2 %s", err, tk.Action, s.Node(2).Status)
	}
	if _, err := actToggle(t, s, "pause 3"); err != nil {
		t.Fatal(err)
	}
	n := len(s.Steps())
	_, err := actToggle(t, s, "pause 3 4")
	if !errors.Is(err, ErrToggle) || !strings.Contains(err.Error(), "of nodes 3 4, 1 are paused and 1 not: say pause or resume") || len(s.Steps()) != n {
		t.Errorf("toggle of nodes 3 (paused) and 4 (running): %v; %d steps, was %d", err, len(s.Steps()), n)
	}
	if got := s.User(); len(got) != 3 || got[2].Op != sim.Pause || got[2].Nodes[0] != algo.ID(3) {
		t.Errorf("the user's actions %v", got)
	}
}
