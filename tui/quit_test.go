package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// quits reports whether cmd is the program's quit.
func quits(cmd tea.Cmd) bool { return cmd != nil && cmd() == tea.Quit() }

// q quits at once when nothing the user did would be lost; with actions not saved it asks
// first, as an editor asks before it closes a changed file (issue 28, item 17): n stays, s
// saves them and q then quits at once; y, the quit key again or ctrl+c quits. ctrl+c asks too.
func TestQuitAsksAboutActionsNotSaved(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	steps(m, 3)
	if !quits(press(m, "q")) {
		t.Fatal("q with no action of the user's did not quit")
	}

	m = newModel(t, "bully-boot", nil)
	steps(m, 12)
	press(m, "c")
	if quits(press(m, "q")) || m.ask == nil {
		t.Fatal("q quit, with an action not saved")
	}
	want := "Quit, and lose 1 action of yours not saved: crash 1 at 11ms? y quits · n stays (then s saves them)"
	if m.ask.text != want || !strings.Contains(m.View(), want) {
		t.Errorf("the question %q, want %q; the screen:\n%s", m.ask.text, want, m.View())
	}
	if quits(press(m, "n")) || m.ask != nil || m.message != "nothing done" {
		t.Fatalf("n: question %v, message %q", m.ask, m.message)
	}
	for _, again := range []string{"y", "q", "ctrl+c"} {
		press(m, "q")
		if !quits(press(m, again)) {
			t.Errorf("q then %s did not quit", again)
		}
		m.quitting, m.ask = false, nil
	}
	if quits(press(m, "ctrl+c")) || m.ask == nil {
		t.Error("ctrl+c quit at once, with an action not saved")
	}
	press(m, "esc")
	press(m, "s")
	typeText(m, "lesson.scn")
	if !quits(press(m, "q")) {
		t.Errorf("q after saving asked again: %v (message %q)", m.ask, m.message)
	}
	m.quitting = false
	press(m, "2", "c")
	if quits(press(m, "q")) || m.ask == nil || !strings.Contains(m.ask.text, "lose 2 actions of yours not saved: crash 1 at 11ms, crash 2 at") {
		t.Errorf("an action after saving: question %v", m.ask)
	}
}

// While the terminal is too small, the question shows in place of the size, and is answered
// there.
func TestQuitAsksWhileTooSmall(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	steps(m, 12)
	press(m, "c")
	m.Update(tea.WindowSizeMsg{Width: 50, Height: 12})
	if quits(press(m, "q")) || m.ask == nil {
		t.Fatal("q quit at once, too small")
	}
	if v := m.View(); !strings.Contains(strings.Join(strings.Fields(v), " "), "Quit, and lose 1 action of yours not saved") {
		t.Errorf("the question does not show on the small screen:\n%s", v)
	}
	if !quits(press(m, "y")) {
		t.Error("y did not quit")
	}
}
