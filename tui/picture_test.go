package tui

import (
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"electsim/algo"
	"electsim/network"
	"electsim/session"
	"electsim/sim"
)

// fixedModel is the TUI on a run of algorithm name among n nodes with every message exactly
// 10ms on its way, so that where a packet is drawn is known; without colour, at 100×30.
func fixedModel(t testing.TB, name string, n int, actions ...sim.Action) *Model {
	t.Helper()
	info, err := algo.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig(info, n)
	cfg.Network.Delay = network.Delay{Min: 10 * ms, Max: 10 * ms}
	cfg.Engine = sim.Inline
	cfg.Actions = actions
	m, err := New(Options{Config: cfg, Output: io.Discard, NoColor: true, SaveDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	return m
}

// playTo plays virtual time on to t, as playback does, and brings the model up to date.
func playTo(m *Model, t time.Duration) {
	m.ss.PlayTo(t)
	m.Update(nil)
}

// The canvas, frame by frame, with colour off: packets at a quarter and at three quarters of
// their flight (every message takes 10ms), a drop where it happened, a paused node's held
// inputs, timer bars running down.
func TestPictureGolden(t *testing.T) {
	t.Run("packets at a quarter", func(t *testing.T) {
		m := fixedModel(t, "bully", 3)
		playTo(m, 2500*time.Microsecond)
		view := m.View()
		if !strings.Contains(view, "t 2.500ms") {
			t.Errorf("the status line does not say the instant:\n%s", view)
		}
		golden.RequireEqual(t, []byte(view))
	})
	t.Run("packets at three quarters", func(t *testing.T) {
		m := fixedModel(t, "bully", 3)
		playTo(m, 7500*time.Microsecond)
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("drop held and timers", func(t *testing.T) {
		m := fixedModel(t, "bully", 4,
			sim.Action{At: 30 * ms, Op: sim.Pause, Nodes: []algo.ID{1}},
			sim.Action{At: 100 * ms, Op: sim.Crash, Nodes: []algo.ID{3}})
		playTo(m, 112*ms) // 3 crashed at 100ms; the leader's HEARTBEAT sent to it then is lost at 110ms
		var p session.Picture
		m.ss.Picture(&p, m.linger())
		drops, held, timers := 0, 0, 0
		for _, d := range p.Drops {
			if d.To == 3 {
				drops++
			}
		}
		for _, n := range p.Nodes {
			held += len(n.Held)
			timers += len(n.Timers)
		}
		if drops == 0 || held == 0 || timers == 0 {
			t.Fatalf("at 112ms: %d drops, %d held, %d timers; want each", drops, held, timers)
		}
		view := m.View()
		for _, want := range []string{"✗", "held ", "░"} {
			if !strings.Contains(view, want) {
				t.Errorf("no %q on the canvas:\n%s", want, view)
			}
		}
		golden.RequireEqual(t, []byte(view))
	})
	t.Run("raft terms and timers", func(t *testing.T) {
		m := newModel(t, "raft-boot-split-vote", nil)
		playTo(m, 170*ms) // the break
		playTo(m, 185*ms) // two candidates of term 1, their REQUEST_VOTEs on the way
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("list of many nodes", func(t *testing.T) {
		m := fixedModel(t, "bully", 40)
		playTo(m, 5*ms)
		golden.RequireEqual(t, []byte(m.View()))
	})
}

// Stepping forward over a window and back again shows the same frames, step for step.
func TestForwardBackSameFrames(t *testing.T) {
	m := newModel(t, "raft-boot-split-vote", nil)
	steps(m, 12)
	var frames []string
	for range 25 {
		frames = append(frames, m.View())
		press(m, "right")
	}
	for i := len(frames) - 1; i >= 0; i-- {
		press(m, "left")
		if got := m.View(); got != frames[i] {
			t.Fatalf("back at step %d:\n%s\nforward it was:\n%s", len(m.ss.Steps()), got, frames[i])
		}
	}
}

// Playback goes through every step in order: ticks at the top rate show the steps one by one
// stepping shows, none skipped, and packets on the canvas move between two ticks.
func TestPlaybackSkipsNothing(t *testing.T) {
	a := newModel(t, "bully-leader-crash", nil)
	b := newModel(t, "bully-leader-crash", nil)
	a.speed = 0
	press(a, "n") // past the break at 0ms
	press(a, " ")
	before := a.View()
	for range 10 {
		a.Update(tickMsg{a.tick})
	}
	if a.View() == before {
		t.Error("ten ticks at 0.01× changed nothing on screen")
	}
	a.speed = len(speeds) - 1
	for !a.ss.Done() {
		if !a.playing {
			press(a, "n")
		}
		a.Update(tickMsg{a.tick})
	}
	for {
		if _, ok := b.ss.Next(); !ok {
			break
		}
	}
	as, bs := a.ss.Steps(), b.ss.Steps()
	if len(as) != len(bs) {
		t.Fatalf("playback showed %d steps, stepping %d", len(as), len(bs))
	}
	for i := range as {
		if as[i].Records[0].At != bs[i].Records[0].At || as[i].Records[0].Type != bs[i].Records[0].Type {
			t.Fatalf("step %d differs: %+v, stepping %+v", i+1, as[i].Records[0], bs[i].Records[0])
		}
	}
}

// A click on a node selects it; a click on a log row selects the row; the wheel scrolls the log.
func TestMouse(t *testing.T) {
	m := newModel(t, "bully-leader-crash", nil)
	steps(m, 30)
	m.View()
	var target box
	sel := -1
	for i, b := range m.frame.boxes {
		if i != m.sel && b.w > 0 {
			target, sel = b, i
			break
		}
	}
	if sel < 0 {
		t.Fatal("no node on the canvas to click")
	}
	l := m.layout()
	m.Update(tea.MouseMsg{X: target.x + 1, Y: len(l.header) + m.frame.boxTop + target.y, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if m.sel != sel {
		t.Errorf("a click on node %d's label selected %d", m.nodes[sel], m.nodes[m.sel])
	}
	m.View()
	l = m.layout()
	m.Update(tea.MouseMsg{X: l.left + 5, Y: len(l.header) + 3, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if want := m.log.firstShown(l.logRows) + 2; m.log.cursor != want {
		t.Errorf("a click on the log's third row selected row %d, want %d", m.log.cursor, want)
	}
	cur := m.log.cursor
	m.Update(tea.MouseMsg{Button: tea.MouseButtonWheelUp, Action: tea.MouseActionPress})
	if m.log.cursor != cur-3 {
		t.Errorf("the wheel up moved the selection from %d to %d", cur, m.log.cursor)
	}
}

// t cycles the themes; contrast has no faint text.
func TestThemes(t *testing.T) {
	m := newModel(t, "bully-leader-crash", nil)
	for _, want := range []string{"dark", "light", "contrast", "auto"} {
		press(m, "t")
		if themes[m.theme] != want || m.st.theme != want {
			t.Fatalf("t: theme %s, want %s", themes[m.theme], want)
		}
	}
	// In colour, on a dark and on a light terminal, contrast draws nothing faint and nothing
	// grey; the theme a terminal chooses itself (auto) has both, which the check finds.
	for _, dark := range []bool{true, false} {
		for _, theme := range []string{"contrast", "auto"} {
			m := newModel(t, "bully-leader-crash", nil)
			r := m.st.r
			r.SetColorProfile(termenv.TrueColor)
			r.SetHasDarkBackground(dark)
			m.opts.NoColor = false
			m.theme = slices.Index(themes, theme) - 1
			m.cycleTheme()
			steps(m, 30)
			press(m, "up")
			view := m.View()
			faint := strings.Contains(view, "\x1b[2m") || strings.Contains(view, ";2m")
			grey := regexp.MustCompile(`38;2;(\d+);(\d+);(\d+)m`).FindAllStringSubmatch(view, -1)
			greys := 0
			for _, g := range grey {
				if g[1] == g[2] && g[2] == g[3] && g[1] != "0" && g[1] != "255" {
					greys++
				}
			}
			if theme == "contrast" && (faint || greys > 0) {
				t.Errorf("contrast on a dark terminal %v: faint %v, %d grey colours:\n%q", dark, faint, greys, view)
			}
			if theme == "auto" && !faint && greys == 0 {
				t.Errorf("the check finds nothing faint nor grey in the auto theme: it cannot fail")
			}
		}
	}
}
