package tui

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"electsim/algo"
	"electsim/network"
	"electsim/report"
	"electsim/scenarios"
	"electsim/session"
	"electsim/sim"
)

const ms = time.Millisecond

// newModel opens the TUI on a bundled scenario, 100×30, without colour, on the inline engine.
func newModel(t testing.TB, name string, change func(*sim.Config)) *Model {
	t.Helper()
	sc, err := scenarios.LoadBundled(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.Engine = sim.Inline
	if change != nil {
		change(&cfg)
	}
	m, err := New(Options{Scenario: sc, Config: cfg, Output: io.Discard, NoColor: true, SaveDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	return m
}

// keyMsg builds the message a terminal sends for a key, named as key.Binding names them.
func keyMsg(k string) tea.KeyMsg {
	special := map[string]tea.KeyType{
		" ": tea.KeySpace, "enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab,
		"shift+tab": tea.KeyShiftTab, "right": tea.KeyRight, "left": tea.KeyLeft, "pgup": tea.KeyPgUp,
		"pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd, "ctrl+c": tea.KeyCtrlC,
		"backspace": tea.KeyBackspace, "up": tea.KeyUp, "down": tea.KeyDown, "space": tea.KeySpace,
	}
	if t, ok := special[k]; ok {
		if t == tea.KeySpace {
			return tea.KeyMsg{Type: t, Runes: []rune{' '}}
		}
		return tea.KeyMsg{Type: t}
	}
	if len([]rune(k)) != 1 {
		panic(fmt.Sprintf("keyMsg: no key is named %q", k))
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// press sends keys, one at a time, and returns the last command.
func press(m *Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		_, cmd = m.Update(keyMsg(k))
	}
	return cmd
}

// typeText types text into the input line, after clearing what is there, then enter.
func typeText(m *Model, text string) {
	for range len(m.in.Value()) {
		press(m, "backspace")
	}
	for _, r := range text {
		press(m, string(r))
	}
	press(m, "enter")
}

// lastStep is the latest step shown.
func lastStep(m *Model) session.Step {
	steps := m.ss.Steps()
	return steps[len(steps)-1]
}

func steps(m *Model, n int) {
	for range n {
		press(m, "right")
	}
}

// The screens, at fixed sizes, without colour (go test -update rewrites them; review the diff).
func TestViewGolden(t *testing.T) {
	t.Run("first screen", func(t *testing.T) {
		golden.RequireEqual(t, []byte(newModel(t, "bully-leader-crash", nil).View()))
	})
	t.Run("after some steps", func(t *testing.T) {
		m := newModel(t, "bully-boot", nil)
		steps(m, 25)
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("split-brain banner", func(t *testing.T) {
		m := newModel(t, "gc-pause-split-brain", nil)
		for m.ss.Now() < 720*ms {
			press(m, "right")
		}
		view := m.View()
		if !strings.Contains(view, "SPLIT BRAIN — 4 and 5 both believe they lead") {
			t.Errorf("no banner:\n%s", view)
		}
		golden.RequireEqual(t, []byte(view))
	})
	t.Run("help open", func(t *testing.T) {
		m := newModel(t, "bully-leader-crash", nil)
		press(m, "?")
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("break with narration", func(t *testing.T) {
		m := newModel(t, "bully-leader-crash", nil)
		steps(m, 2)
		view := m.View()
		if !strings.Contains(view, "BREAK") || !strings.Contains(view, "“Five nodes boot") {
			t.Errorf("no break or narration:\n%s", view)
		}
		golden.RequireEqual(t, []byte(view))
	})
	t.Run("narration stacked", func(t *testing.T) {
		m := newModel(t, "bully-leader-crash", nil)
		playToBreak(m, 3)
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("narration history", func(t *testing.T) {
		m := newModel(t, "bully-leader-crash", nil)
		playToBreak(m, 3)
		press(m, "H")
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("log row selected", func(t *testing.T) {
		m := newModel(t, "bully-boot", nil)
		steps(m, 25)
		press(m, "home")
		for range 21 {
			press(m, "down")
		}
		press(m, "4")
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("command error", func(t *testing.T) {
		m := newModel(t, "bully-leader-crash", nil)
		press(m, ":")
		typeText(m, "crush 3")
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("question", func(t *testing.T) {
		m := newModel(t, "bully-boot", nil)
		steps(m, 12)
		press(m, "c")
		steps(m, 3)
		press(m, "left", "left", "left", "left", "2", "c")
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("ring with its direction", func(t *testing.T) {
		m := newModel(t, "ring-partition", nil)
		steps(m, 30)
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("the end", func(t *testing.T) {
		m := newModel(t, "bully-leader-crash", nil)
		for !m.ss.Done() {
			m.stepOnce()
		}
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("too small", func(t *testing.T) {
		m := newModel(t, "bully-leader-crash", nil)
		m.Update(tea.WindowSizeMsg{Width: 50, Height: 12})
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("smallest", func(t *testing.T) {
		m := newModel(t, "bully-partition", nil)
		playToBreak(m, 2)
		m.Update(tea.WindowSizeMsg{Width: minWidth, Height: minHeight})
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("70x20", func(t *testing.T) {
		m := newModel(t, "bully-leader-crash", nil)
		steps(m, 30)
		m.Update(tea.WindowSizeMsg{Width: 70, Height: 20})
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("list view", func(t *testing.T) {
		m := newModel(t, "bully-leader-crash", func(c *sim.Config) {
			c.IDs = nil
			for i := 1; i <= 40; i++ {
				c.IDs = append(c.IDs, algo.ID(i))
			}
			c.Actions = nil
		})
		steps(m, 60)
		golden.RequireEqual(t, []byte(m.View()))
	})
}

// playToBreak plays until playback has stopped at the n-th break (or the end).
func playToBreak(m *Model, n int) {
	for range n {
		press(m, " ")
		for m.playing {
			m.Update(tickMsg{m.tick})
		}
	}
}

// Every line of the screen is exactly the terminal's width, at any size from the smallest up,
// whatever covers the panels or waits in the footer.
func TestViewFitsTheTerminal(t *testing.T) {
	states := map[string]func(m *Model){
		"panels":   func(*Model) {},
		"help":     func(m *Model) { press(m, "?") },
		"history":  func(m *Model) { press(m, "H") },
		"mistake":  func(m *Model) { press(m, ":"); typeText(m, "crush 3") },
		"filter":   func(m *Model) { press(m, "/") },
		"question": func(m *Model) { press(m, "c", "left", "left", "c") },
		"row":      func(m *Model) { press(m, "up", "up") },
	}
	for name, state := range states {
		m := newModel(t, "ring-partition", nil)
		steps(m, 80)
		state(m)
		for _, size := range [][2]int{{60, 16}, {70, 20}, {80, 24}, {100, 30}, {200, 60}} {
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			lines := strings.Split(m.View(), "\n")
			if len(lines) != size[1] {
				t.Errorf("%s %v: %d lines", name, size, len(lines))
			}
			for i, l := range lines {
				if w := len([]rune(l)); w != size[0] {
					t.Errorf("%s %v: line %d is %d wide: %q", name, size, i, w, l)
					break
				}
			}
		}
	}
}

// → . l step; ← , h step back to exactly the state shown before — replayed from the start with
// the user's actions where they were taken.
func TestStepAndBack(t *testing.T) {
	m := newModel(t, "bully-leader-crash", nil)
	for _, k := range []string{"right", ".", "l"} {
		before := len(m.ss.Steps())
		press(m, k)
		if len(m.ss.Steps()) != before+1 {
			t.Errorf("%q: %d steps, want %d", k, len(m.ss.Steps()), before+1)
		}
	}
	steps(m, 40)
	press(m, "c") // crash node 1, the selected one, at the next whole millisecond
	steps(m, 30)
	type snapshot struct {
		now   time.Duration
		nodes []sim.NodeView
		sum   string
		view  string
	}
	snap := func() snapshot {
		return snapshot{m.ss.Now(), m.ss.Nodes(), fmt.Sprint(m.ss.Summary()), m.View()}
	}
	var history []snapshot
	for range 5 {
		history = append(history, snap())
		press(m, "right")
	}
	for i := len(history) - 1; i >= 0; i-- {
		press(m, []string{"left", ",", "h"}[i%3])
		if got := snap(); !slices.Equal(got.nodes, history[i].nodes) || got.now != history[i].now ||
			got.sum != history[i].sum || got.view != history[i].view {
			t.Fatalf("back to step %d: not the state shown then\n got %v %v\nwant %v %v", len(m.ss.Steps()), got.now, got.nodes, history[i].now, history[i].nodes)
		}
	}
	// Back past the user's crash: it is undone, and redone going forward again.
	for len(m.ss.Steps()) > 0 && m.ss.Node(1).Status == sim.Crashed {
		press(m, "left")
	}
	if m.ss.Node(1).Status == sim.Crashed || len(m.ss.User()) != 1 {
		t.Fatalf("stepping back past the crash: node 1 %s, user actions %v", m.ss.Node(1).Status, m.ss.User())
	}
	press(m, "right")
	if m.ss.Node(1).Status != sim.Crashed {
		t.Errorf("stepping forward again: node 1 is %s, want crashed again", m.ss.Node(1).Status)
	}
	// At the start, back says so.
	m = newModel(t, "bully-boot", nil)
	press(m, "left")
	if m.message != "this is the start of the run" {
		t.Errorf("message %q", m.message)
	}
}

// space plays and pauses; playback steps on every tick, stops at a break, and n or enter
// continues after it.
func TestPlayPauseBreakContinue(t *testing.T) {
	m := newModel(t, "bully-leader-crash", nil)
	cmd := press(m, " ")
	if !m.playing || cmd == nil {
		t.Fatal("space did not start playback")
	}
	tick := func() { m.Update(tickMsg{m.tick}) }
	tick()
	tick()
	if len(m.ss.Steps()) != 2 || m.playing {
		t.Fatalf("at the break after 2 steps: %d steps, playing %v", len(m.ss.Steps()), m.playing)
	}
	for _, k := range []string{"n", "enter"} {
		if cmd := press(m, k); !m.playing || cmd == nil {
			t.Fatalf("%q at a break did not continue", k)
		}
		for m.playing {
			tick()
		}
		if !m.ss.AtBreak() {
			t.Fatalf("playback stopped at step %d, not at a break", len(m.ss.Steps()))
		}
	}
	press(m, " ")
	n := len(m.ss.Steps())
	press(m, " ")
	m.Update(tickMsg{m.tick - 1}) // a stale tick does nothing
	if len(m.ss.Steps()) != n || m.playing {
		t.Errorf("paused: %d steps (was %d), playing %v", len(m.ss.Steps()), n, m.playing)
	}
}

// + ] = faster, - [ slower, within bounds; above 60 steps a second a tick runs several steps.
func TestSpeed(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	press(m, "+")
	press(m, "]")
	press(m, "=")
	if m.speed != defaultSpeed+3 {
		t.Errorf("speed %d", m.speed)
	}
	for range 20 {
		press(m, "+")
	}
	if m.speed != len(speeds)-1 || m.perTick() != 1000*time.Second/fps {
		t.Errorf("top speed %d, %v per tick", m.speed, m.perTick())
	}
	for range 30 {
		press(m, "-", "[")
	}
	if m.speed != 0 {
		t.Errorf("bottom speed %d", m.speed)
	}
}

// tab j next node, shift+tab k previous, 1-9 pick; c r p e crash, recover, pause/resume and
// elect the selected node, at the next whole millisecond.
func TestNodeKeys(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	steps(m, 12)
	press(m, "tab")
	press(m, "j")
	if m.nodes[m.sel] != 3 {
		t.Errorf("after tab j: node %d", m.nodes[m.sel])
	}
	press(m, "k")
	press(m, "shift+tab")
	press(m, "shift+tab")
	if m.nodes[m.sel] != 5 {
		t.Errorf("after k and shift+tab twice: node %d", m.nodes[m.sel])
	}
	press(m, "4")
	if m.nodes[m.sel] != 4 {
		t.Errorf("after 4: node %d", m.nodes[m.sel])
	}
	now := m.ss.Now()
	press(m, "c")
	if m.ss.Node(4).Status != sim.Crashed || m.ss.User()[0].At != (now/ms+1)*ms {
		t.Errorf("c: node 4 %s, action %v (now was %v)", m.ss.Node(4).Status, m.ss.User(), now)
	}
	press(m, "r")
	if st := m.ss.Node(4).Status; st == sim.Crashed {
		t.Errorf("r: node 4 is still crashed")
	}
	press(m, "p")
	if m.ss.Node(4).Status != sim.Paused {
		t.Errorf("p: node 4 is %s, want paused", m.ss.Node(4).Status)
	}
	press(m, "p")
	if m.ss.Node(4).Status == sim.Paused {
		t.Error("p again: node 4 is still paused")
	}
	press(m, "2", "e") // at 15ms, where a break comes first
	if !m.ss.AtBreak() || !strings.Contains(m.message, "elect 2 will happen at 15ms: a break comes first") {
		t.Fatalf("e before a break: at a break %v, message %q", m.ss.AtBreak(), m.message)
	}
	press(m, "right")
	last := lastStep(m).Records
	if last[0].Type != sim.RecFault || last[0].Action.Op != sim.Elect || last[0].Node != 2 {
		t.Errorf("e: the last step is %+v", last[0])
	}
	if len(m.ss.User()) != 5 {
		t.Errorf("user actions %v", m.ss.User())
	}
}

// : takes any scenario action; a mistake shows at once, whole, with the line kept open to mend
// it; esc drops the line; : opens empty, whatever was typed before.
func TestCommandLine(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	steps(m, 5)
	press(m, ":")
	typeText(m, "partition 1 2 | 3 4 9")
	if m.inErr != "column 21: unknown node 9 (nodes are 1..5)" || m.mode != inputCommand || m.in.Value() != "partition 1 2 | 3 4 9" {
		t.Fatalf("a bad command: error %q, mode %d, line %q", m.inErr, m.mode, m.in.Value())
	}
	if view := m.View(); !strings.Contains(view, "column 21: unknown node 9 (nodes are 1..5)") || !strings.Contains(view, ":partition 1 2 | 3 4 9") {
		t.Errorf("the mistake and the line do not both show:\n%s", view)
	}
	typeText(m, "partition 1 2 | 3 4 5")
	if m.mode != inputNone || m.ss.Partition() == nil || m.inErr != "" {
		t.Fatalf("the mended command did not partition: message %q", m.message)
	}
	if !strings.Contains(m.View(), "partition A: 1 2 | B: 3 4 5") {
		t.Errorf("the partition does not show:\n%s", m.View())
	}
	press(m, ":")
	typeText(m, "cut 1->2")
	if len(m.ss.Cuts()) != 1 {
		t.Error("cut 1->2 did not cut")
	}
	// A long mistake is shown whole, wrapped, while the line stays open.
	press(m, ":")
	typeText(m, "crush 3")
	view := m.View()
	for _, part := range []string{`column 1: unknown action "crush" (expected crash, recover, pause, resume, partition, cut, heal,`, "delay, drop, elect, say, break, clock)"} {
		if !strings.Contains(view, part) {
			t.Errorf("the mistake is not shown whole (%q):\n%s", part, view)
		}
	}
	press(m, "esc")
	press(m, ":")
	if m.in.Value() != "" || m.inErr != "" {
		t.Errorf(": after a mistake opens with %q, error %q", m.in.Value(), m.inErr)
	}
	press(m, "x", "esc")
	if m.mode != inputNone || len(m.ss.User()) != 2 {
		t.Errorf("esc: mode %d, user actions %v", m.mode, m.ss.User())
	}
	// An action that would change nothing is not taken, and says why.
	press(m, ":")
	typeText(m, "cut 1->2")
	if !m.messageErr || m.message != "cut 1->2: the link 1->2 is cut already — nothing done" || len(m.ss.User()) != 2 {
		t.Errorf("a second cut: %q, user actions %v", m.message, m.ss.User())
	}
}

// / filters the log by node or kind; routine kinds show only when named; a mistake — a kind
// or a node the run does not have — says what is valid; / opens empty.
func TestFilter(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	steps(m, 60)
	press(m, "/")
	typeText(m, "4 ok")
	if !slices.Equal(m.log.filter.nodes, []algo.ID{4}) || !slices.Equal(m.log.filter.kinds, []string{"OK"}) {
		t.Fatalf("filter %+v", m.log.filter)
	}
	l := m.layout()
	for _, line := range strings.Split(m.View(), "\n")[4 : 4+l.logRows] {
		if i := strings.Index(line, "│"); i >= 0 && strings.Contains(line[i:], " #") &&
			(!strings.Contains(line[i:], "OK") || !strings.Contains(line[i:], "4")) {
			t.Errorf("a line the filter should hide: %q", line[i:])
		}
	}
	press(m, "/")
	if m.in.Value() != "" {
		t.Errorf("/ opens with %q", m.in.Value())
	}
	typeText(m, "heartbeat")
	if !strings.Contains(m.View(), "HEARTBEAT") {
		t.Error("naming HEARTBEAT does not show the routine steps")
	}
	valid := "a filter takes node ids (1..5) and message kinds of bully (ELECTION, OK, COORDINATOR, HEARTBEAT)"
	for _, bad := range []struct{ text, want string }{
		{"votes", `filter: "votes" is neither a node id nor a message kind; ` + valid},
		{"99", "filter: there is no node 99; " + valid},
		{"0 OK", "filter: there is no node 0; " + valid},
	} {
		press(m, "/")
		typeText(m, bad.text)
		if m.inErr != bad.want || m.mode != inputFilter {
			t.Errorf("/%s: error %q, mode %d", bad.text, m.inErr, m.mode)
		}
		press(m, "esc")
	}
	if m.log.filter.text != "heartbeat" {
		t.Errorf("a refused filter changed the filter: %+v", m.log.filter)
	}
	press(m, "/")
	typeText(m, "")
	if m.log.filter.text != "" {
		t.Errorf("an empty filter should clear it: %+v", m.log.filter)
	}
}

// ↑ ↓ select a log row, whose details show under the log; pgup pgdn home move by pages and
// to the first row; end, or ↓ past the newest row, follows the newest again. The header says
// how many rows are newer, below.
func TestLogRows(t *testing.T) {
	m := newModel(t, "bully-leader-crash", nil)
	steps(m, 150)
	rows := len(m.log.rows)
	press(m, "up")
	if m.log.cursor != rows-2 {
		t.Fatalf("up: cursor %d of %d rows", m.log.cursor, rows)
	}
	if view := m.View(); !strings.Contains(view, fmt.Sprintf("row %d of %d · ↓ 1 newer below (end follows)", rows-1, rows)) {
		t.Errorf("the header does not say where the selection is:\n%s", view)
	}
	press(m, "pgup")
	if m.log.cursor >= rows-2 {
		t.Fatal("pgup did not move up")
	}
	press(m, "home")
	if m.log.cursor != 0 || !strings.Contains(m.View(), "▸    0.000    #1 ") {
		t.Errorf("home: cursor %d\n%s", m.log.cursor, m.View())
	}
	press(m, "pgup")
	if m.log.cursor != 0 {
		t.Errorf("pgup past the start: %d", m.log.cursor)
	}
	press(m, "pgdown")
	if m.log.cursor <= 0 {
		t.Error("pgdown did not move down")
	}
	press(m, "end")
	if m.log.cursor != -1 {
		t.Errorf("end: cursor %d", m.log.cursor)
	}
	press(m, "up", "down")
	if m.log.cursor != -1 {
		t.Errorf("down onto the newest row: cursor %d, want following", m.log.cursor)
	}
	// Selecting older rows from the newest keeps the newer ones in view: the log does not jump.
	m = newModel(t, "bully-boot", nil)
	steps(m, 25)
	press(m, "up", "up", "up")
	if view := m.View(); !strings.Contains(view, "▸   20.000   #22 ") || !strings.Contains(view, "   20.000   #24 ") {
		t.Errorf("up three times from the newest row:\n%s", view)
	}
	// The details of a row: the whole description and the node's reasons, wrapped.
	m = newModel(t, "bully-boot", nil)
	steps(m, 5)
	view := m.View()
	for _, want := range []string{"── #5 at 0.000ms  1 boot", "follower → candidate · ELECTION→2 3 4 5",
		"why: booted: election — ELECTION to the 4 higher ids,", "waiting 50ms for an OK"} {
		if !strings.Contains(view, want) {
			t.Errorf("the details lack %q:\n%s", want, view)
		}
	}
	// Stepping follows the newest row again.
	press(m, "up", "right")
	if m.log.cursor != -1 {
		t.Errorf("a step did not follow the newest row: cursor %d", m.log.cursor)
	}
}

// The selected node's state and its messages in flight show under the legend; the count of
// messages in flight says how many more there are than it lists.
func TestSelectedNodeAndFlights(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	steps(m, 8) // nodes 1 to 4 booted: 10 ELECTIONs sent, 6 in flight to live nodes
	press(m, "3")
	view := m.View()
	for _, want := range []string{"node 3: ◆ candidate, no leader", "from it (2): ELECTION→4 5", "to it (2): ELECTION←1 2", "in flight: 10"} {
		if !strings.Contains(view, want) {
			t.Errorf("no %q:\n%s", want, view)
		}
	}
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 34})
	if view := m.View(); !strings.Contains(view, " more") {
		t.Errorf("a short list of flights does not say how many more:\n%s", view)
	}
	// Where the canvas leaves no room for the list, the count stays.
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	if view := m.View(); !strings.Contains(view, "in flight: 10") {
		t.Errorf("no count of the messages in flight:\n%s", view)
	}
	// Before the boot steps, nodes have not booted: ○, not ● followers.
	m = newModel(t, "bully-boot", nil)
	if view := m.View(); !strings.Contains(view, "node 1: ○ not booted yet") || !strings.Contains(view, "○ not booted yet") {
		t.Errorf("the first screen:\n%s", view)
	}
}

// s saves the session — the scenario with the user's actions at their times — and electsim run
// replays it to the same trace.
func TestSaveReplaysTheSameTrace(t *testing.T) {
	for _, e := range []sim.Engine{sim.Inline, sim.Goroutine} {
		m := newModel(t, "bully-leader-crash", func(c *sim.Config) { c.Engine = e })
		steps(m, 30)
		press(m, "3", "c")
		steps(m, 40)
		press(m, ":")
		typeText(m, "partition 1 | 2 4")
		steps(m, 25)
		press(m, "3", "r")
		steps(m, 20)
		press(m, "s", "enter") // the default name
		path := filepath.Join(m.opts.SaveDir, "bully-leader-crash-session.scn")
		if m.messageErr || !strings.Contains(m.message, "saved to "+path) {
			t.Fatalf("save: %q", m.message)
		}
		sc, err := scenarios.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		cfg := sc.Config()
		cfg.Trace, cfg.Engine = true, e
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i, ls := range m.ss.Steps() {
			r, ok := s.Step()
			if !ok {
				t.Fatalf("the replay ended at step %d of %d", i, len(m.ss.Steps()))
			}
			if got, want := jsonl(r.Records), jsonl(ls.Records); got != want {
				t.Fatalf("%s: step %d differs:\nreplay  %s\nsession %s", e, i+1, got, want)
			}
		}
		s.Close()
		// The file keeps the scenario's expectations, and says that the story was changed.
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"#   at 21ms crash 3\n", "may no longer match", "\nexpect leader 4 by 1500ms\n", "\nexpect no split-brain\n"} {
			if !strings.Contains(string(text), want) {
				t.Errorf("the saved file lacks %q:\n%s", want, text)
			}
		}
		if len(sc.Expects) != 4 {
			t.Errorf("the saved scenario has %d expectations, want the scenario's 4", len(sc.Expects))
		}
	}
}

// s asks before it replaces a file; n keeps the file, y replaces it.
func TestSaveAsksBeforeReplacing(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	path := filepath.Join(m.opts.SaveDir, "lesson.scn")
	if err := os.WriteFile(path, []byte("# my lesson\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	steps(m, 12)
	press(m, "c")
	press(m, "s")
	typeText(m, "lesson.scn")
	if m.ask == nil || !strings.Contains(m.ask.text, "lesson.scn exists already. Replace it with this session? y/n") {
		t.Fatalf("no question before replacing a file: %+v", m.ask)
	}
	if !strings.Contains(m.View(), "exists already. Replace it") {
		t.Errorf("the question does not show:\n%s", m.View())
	}
	press(m, "n")
	if b, _ := os.ReadFile(path); string(b) != "# my lesson\n" || m.ask != nil {
		t.Fatalf("n replaced the file: %q", b)
	}
	press(m, "s")
	typeText(m, "lesson.scn")
	press(m, "y")
	sc, err := scenarios.Load(path)
	if err != nil || len(sc.Actions) != len(m.opts.Scenario.Actions)+1 {
		t.Fatalf("y did not save the session: %v, %d actions", err, len(sc.Actions))
	}
}

func jsonl(recs []sim.Record) string {
	var b bytes.Buffer
	for i := range recs {
		b.Write(report.AppendJSON(nil, &recs[i]))
		b.WriteByte('\n')
	}
	return b.String()
}

// R restarts from the beginning, forgetting the user's actions — after asking, when there are
// any; ? opens help and esc or ? closes it; q quits.
func TestRestartHelpQuit(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	steps(m, 10)
	press(m, "R")
	if len(m.ss.Steps()) != 0 || m.ask != nil {
		t.Fatalf("R with nothing to forget: %d steps, question %+v", len(m.ss.Steps()), m.ask)
	}
	steps(m, 10)
	press(m, "c")
	press(m, "R")
	if m.ask == nil || m.ask.text != "Start again from the beginning, and forget 1 action of yours: crash 1 at 11ms? y/n" {
		t.Fatalf("R with an action: question %+v", m.ask)
	}
	press(m, "right", "c", " ") // other keys wait for the answer
	if m.ask == nil || len(m.ss.User()) != 1 || m.playing {
		t.Fatalf("keys acted while a question waited")
	}
	press(m, "n")
	if m.ask != nil || len(m.ss.User()) != 1 || len(m.ss.Steps()) == 0 || m.message != "nothing done" {
		t.Fatalf("n: question %+v, user %v, %d steps", m.ask, m.ss.User(), len(m.ss.Steps()))
	}
	press(m, "R", "y")
	if len(m.ss.Steps()) != 0 || len(m.ss.User()) != 0 || m.ss.Now() != 0 {
		t.Errorf("after R y: %d steps, user %v, now %v", len(m.ss.Steps()), m.ss.User(), m.ss.Now())
	}
	for _, closeKey := range []string{"?", "esc", "q"} {
		press(m, "?")
		if m.overlay != overlayHelp || !strings.Contains(m.View(), "save session") {
			t.Fatal("? does not show the full help")
		}
		press(m, "right") // ignored while help covers the panels
		press(m, closeKey)
		if m.overlay != overlayNone || len(m.ss.Steps()) != 0 {
			t.Errorf("%q does not close the help, or a key acted behind it", closeKey)
		}
	}
	for _, k := range []string{"q", "ctrl+c"} {
		if cmd := press(m, k); cmd == nil || cmd() != tea.Quit() {
			t.Errorf("%q does not quit", k)
		}
	}
}

// Acting after stepping back, before actions the user took later, asks first: y forgets them,
// n keeps them.
func TestActAfterBackAsks(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	steps(m, 12)
	press(m, "c")
	steps(m, 5)
	press(m, "left", "left", "left", "left", "left", "left")
	press(m, "2", "c")
	if m.ask == nil || m.ask.text != "crash 2 at 11ms replaces what you did from then on: crash 1 at 11ms. Go ahead? y/n" {
		t.Fatalf("question %+v", m.ask)
	}
	press(m, "esc")
	if len(m.ss.User()) != 1 || m.ss.User()[0].Nodes[0] != 1 {
		t.Fatalf("esc: user %v", m.ss.User())
	}
	press(m, "c", "y")
	if len(m.ss.User()) != 1 || m.ss.User()[0].Nodes[0] != 2 || m.ss.Node(2).Status != sim.Crashed || m.ss.Node(1).Status == sim.Crashed {
		t.Fatalf("y: user %v, node 1 %s, node 2 %s", m.ss.User(), m.ss.Node(1).Status, m.ss.Node(2).Status)
	}
}

// An action taken at step 0 stops at the break on its way, as playback would: it happens when
// the presenter goes on.
func TestActStopsAtABreak(t *testing.T) {
	m := newModel(t, "bully-leader-crash", nil)
	press(m, ":")
	typeText(m, "partition 1 2 | 3 4 5")
	if !m.ss.AtBreak() || len(m.ss.Steps()) != 2 || m.ss.Partition() != nil {
		t.Fatalf("at step %d, at a break %v, partition %v", len(m.ss.Steps()), m.ss.AtBreak(), m.ss.Partition())
	}
	if m.message != "partition 1 2 | 3 4 5 will happen at 1ms: a break comes first — n or enter goes on" {
		t.Errorf("message %q", m.message)
	}
	for m.ss.Partition() == nil {
		press(m, "right")
	}
	if r := lastStep(m).Records[0]; r.At != ms || r.Action == nil || r.Action.Op != sim.Partition {
		t.Errorf("the partition came at %+v", r)
	}
}

// An action that changes nothing — recover a live node, heal with nothing cut — is not taken,
// so a saved session does not carry it.
func TestIdleActionsAreNotTaken(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	steps(m, 12)
	n := len(m.ss.Steps())
	press(m, "r")
	if len(m.ss.User()) != 0 || len(m.ss.Steps()) != n || !m.messageErr || m.message != "recover 1: node 1 is not crashed — nothing done" {
		t.Errorf("r on a live node: user %v, %d steps (was %d), message %q", m.ss.User(), len(m.ss.Steps()), n, m.message)
	}
	press(m, ":")
	typeText(m, "heal")
	if len(m.ss.User()) != 0 || m.message != "heal: no partition and no cut link to heal — nothing done" {
		t.Errorf("heal: user %v, message %q", m.ss.User(), m.message)
	}
	press(m, "5", "c") // node 5 is down from the start
	if len(m.ss.User()) != 0 || m.message != "crash 5: node 5 is already crashed — nothing done" {
		t.Errorf("crash 5: user %v, message %q", m.ss.User(), m.message)
	}
}

// While the terminal is too small, only q works: nothing happens that cannot be seen.
func TestTooSmallTakesOnlyQuit(t *testing.T) {
	m := newModel(t, "bully-leader-crash", nil)
	m.Update(tea.WindowSizeMsg{Width: 50, Height: 12})
	press(m, "right", "right", "right", "c", ":", "space")
	if len(m.ss.Steps()) != 0 || len(m.ss.User()) != 0 || m.mode != inputNone || m.playing {
		t.Errorf("keys acted while too small: %d steps, user %v, mode %d", len(m.ss.Steps()), m.ss.User(), m.mode)
	}
	if cmd := press(m, "q"); cmd == nil || cmd() != tea.Quit() {
		t.Error("q does not quit")
	}
	// Playback waits while the terminal is too small.
	m = newModel(t, "bully-boot", nil)
	press(m, " ")
	m.Update(tea.WindowSizeMsg{Width: 50, Height: 12})
	m.Update(tickMsg{m.tick})
	if len(m.ss.Steps()) != 0 || !m.playing {
		t.Errorf("a tick while too small: %d steps, playing %v", len(m.ss.Steps()), m.playing)
	}
}

// A playback tick steps for no longer than tickBudget of wall time, whatever the speed, so the
// keys are never kept waiting.
func TestTickBudget(t *testing.T) {
	var now time.Time
	m := newModel(t, "bully-boot", func(c *sim.Config) { c.Actions = nil })
	m.clock = func() time.Time { now = now.Add(3 * ms); return now } // every step takes 3ms
	m.speed = len(speeds) - 1
	press(m, " ")
	m.Update(tickMsg{m.tick})
	if got, want := len(m.ss.Steps()), int(tickBudget/(3*ms))+1; got != want {
		t.Errorf("a tick at %d steps/s ran %d steps in 3ms each, want %d", speeds[m.speed], got, want)
	}
}

// At the end of the run, the status line and the box under the log give the verdicts: the
// properties and the scenario's expectations.
func TestEndOfRun(t *testing.T) {
	m := newModel(t, "bully-leader-crash", nil)
	for !m.ss.Done() {
		m.stepOnce()
	}
	view := m.View()
	for _, want := range []string{"■ the end · ✓ 4 of 4 expectations hold", "── the end, at 2s", "✓ at-most-one-leader",
		"expectations: 4 of 4 hold", "✓ expect leader 4 by 1500ms"} {
		if !strings.Contains(view, want) {
			t.Errorf("no %q:\n%s", want, view)
		}
	}
	// With the user's crash of node 4, an expectation fails, and the end says so.
	m = newModel(t, "bully-leader-crash", nil)
	playToBreak(m, 3)
	press(m, "4", "c")
	for !m.ss.Done() {
		m.stepOnce()
	}
	if view := m.View(); !strings.Contains(view, "✗ 1 of 4 expectations fail") || !strings.Contains(view, "✗ expect leader 4 by 1500ms") {
		t.Errorf("a failed expectation:\n%s", view)
	}
}

// A run whose time runs out in mid-election ends with the verdict that it is unfinished — how
// many of the election's messages were in flight, and how to give it time — in the box under the
// log; the same run to its own end does not say it.
func TestEndOfRunUnfinished(t *testing.T) {
	m := newModel(t, "ring-worst-case", func(c *sim.Config) { c.RunFor = 25 * ms })
	for !m.ss.Done() {
		m.stepOnce()
	}
	view := m.View()
	for _, want := range []string{"── the end, at 25ms", "no leader that every live node names", "unfinished: the run ended with", "--run 1m"} {
		if !strings.Contains(view, want) {
			t.Errorf("no %q:\n%s", want, view)
		}
	}
	m = newModel(t, "ring-worst-case", nil)
	for !m.ss.Done() {
		m.stepOnce()
	}
	if view := m.View(); strings.Contains(view, "unfinished") {
		t.Errorf("a run that elected says it is unfinished:\n%s", view)
	}
}

// Every line of the narration of an instant shows, stacked; H shows all the narration so far,
// and esc closes it.
func TestNarration(t *testing.T) {
	m := newModel(t, "gc-pause-split-brain", nil)
	for m.ss.Now() < 520*ms || !m.ss.AtBreak() {
		press(m, "right")
	}
	view := m.View()
	for _, want := range []string{"“Node 5 is about to freeze", "“What will the other nodes do? What does node 5 know about it?”"} {
		if !strings.Contains(view, want) {
			t.Errorf("no %q:\n%s", want, view)
		}
	}
	press(m, "H")
	view = m.View()
	for _, want := range []string{"Narration so far", "0.000ms “Five nodes; every message", "520.000ms “Node 5 is about to freeze", "“What will the other nodes do?"} {
		if !strings.Contains(view, want) {
			t.Errorf("the history lacks %q:\n%s", want, view)
		}
	}
	press(m, "right") // ignored while the history covers the panels
	press(m, "esc")
	if m.overlay != overlayNone || !m.ss.AtBreak() {
		t.Error("esc does not close the history, or a key acted behind it")
	}
}

// One flow end to end through a real bubbletea program: step, crash the leader through the
// command line, play until a new leader shows, quit.
func TestProgramFlow(t *testing.T) {
	m := newModel(t, "bully-boot", func(c *sim.Config) {
		c.Engine = sim.Goroutine
		c.Actions = slices.DeleteFunc(c.Actions, func(a sim.Action) bool { return a.Op != sim.Crash }) // no narration, no breaks
	})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	for range 8 {
		tm.Send(keyMsg("right"))
	}
	tm.Send(keyMsg(":"))
	tm.Type("crash 4")
	tm.Send(keyMsg("enter"))
	for range 5 {
		tm.Send(keyMsg("+"))
	}
	tm.Send(keyMsg(" "))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("★3")) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(keyMsg("q"))
	waitFor(t, tm, "Quit, and lose 1 action of yours not saved: crash 4 at 11ms? y quits · n stays (then s saves them)")
	tm.Send(keyMsg("y"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	final := tm.FinalModel(t).(*Model)
	if final.ss.Node(4).Status != sim.Crashed || final.ss.Node(3).Status != sim.Leader {
		t.Errorf("final: node 4 %s, node 3 %s", final.ss.Node(4).Status, final.ss.Node(3).Status)
	}
}

// waitFor waits until the program has drawn what.
func waitFor(t *testing.T, tm *teatest.TestModel, what ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, w := range what {
			if !bytes.Contains(b, []byte(w)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

// finish quits the program — saying yes when it asks whether to lose actions not saved — and
// returns its final model.
func finish(t *testing.T, tm *teatest.TestModel) *Model {
	t.Helper()
	tm.Send(keyMsg("q"))
	tm.Send(keyMsg("y")) // after a quit without a question, a key no one reads
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	return tm.FinalModel(t).(*Model)
}

// Through a real program: a mistake on the command line shows at once, whole, while the line
// stays open; mended, the action is taken.
func TestProgramCommandError(t *testing.T) {
	m := newModel(t, "bully-boot", func(c *sim.Config) { c.Engine = sim.Goroutine })
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	for range 5 {
		tm.Send(keyMsg("right"))
	}
	tm.Send(keyMsg(":"))
	tm.Type("crush 4")
	tm.Send(keyMsg("enter"))
	waitFor(t, tm, `column 1: unknown action "crush" (expected crash,`, "delay, drop, elect, say, break, clock)", ":crush 4")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU}) // clears the line
	tm.Type("crash 4")
	tm.Send(keyMsg("enter"))
	waitFor(t, tm, "crash 4 at 1ms")
	if final := finish(t, tm); final.ss.Node(4).Status != sim.Crashed || len(final.ss.User()) != 1 {
		t.Errorf("node 4 %s, user actions %v", final.ss.Node(4).Status, final.ss.User())
	}
}

// Through a real program: an action taken at step 0 stops at the break on its way; playing on
// stops at each break, where every line of narration of the instant shows; H shows them all.
func TestProgramBreaksAndNarration(t *testing.T) {
	m := newModel(t, "bully-leader-crash", func(c *sim.Config) { c.Engine = sim.Goroutine })
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	tm.Send(keyMsg("4"))
	tm.Send(keyMsg("p"))
	waitFor(t, tm, "pause 4 will happen at 1ms: a break comes first", "BREAK")
	for range 6 {
		tm.Send(keyMsg("+"))
	}
	tm.Send(keyMsg("n"))
	waitFor(t, tm, "t 1000.000ms", "BREAK", "“Node 5, the leader, crashes.")
	tm.Send(keyMsg("n"))
	waitFor(t, tm, "t 1250.000ms", "“After 150ms without a heartbeat", "“Node 4 asks only 5, hears nothing")
	tm.Send(keyMsg("H"))
	waitFor(t, tm, "Narration so far", "100.000ms “Node 5 won at once")
	tm.Send(keyMsg("esc"))
	final := finish(t, tm)
	if final.ss.Node(4).Status != sim.Paused || !final.ss.AtBreak() || final.ss.Now() != 1250*ms {
		t.Errorf("node 4 %s, at a break %v, now %v", final.ss.Node(4).Status, final.ss.AtBreak(), final.ss.Now())
	}
}

// Through a real program: R, and an action after stepping back, ask before they forget the
// user's actions; n keeps them, y goes ahead.
func TestProgramQuestions(t *testing.T) {
	m := newModel(t, "bully-boot", func(c *sim.Config) { c.Engine = sim.Goroutine })
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	for range 12 {
		tm.Send(keyMsg("right"))
	}
	tm.Send(keyMsg("c"))
	waitFor(t, tm, "crash 1 at 11ms")
	for range 4 {
		tm.Send(keyMsg("left"))
	}
	tm.Send(keyMsg("2"))
	tm.Send(keyMsg("c"))
	waitFor(t, tm, "crash 2 at 11ms replaces what you did from then on: crash 1 at 11ms. Go ahead? y/n")
	tm.Send(keyMsg("n"))
	waitFor(t, tm, "nothing done")
	tm.Send(keyMsg("R"))
	waitFor(t, tm, "Start again from the beginning, and forget 1 action of yours: crash 1 at 11ms? y/n")
	tm.Send(keyMsg("y"))
	waitFor(t, tm, "started again from the beginning")
	if final := finish(t, tm); len(final.ss.User()) != 0 || len(final.ss.Steps()) != 0 {
		t.Errorf("after R y: user %v, %d steps", final.ss.User(), len(final.ss.Steps()))
	}
}

// Rendering a frame renders only what shows: 16 nodes (a ring) and 40 (the list), each with a
// 10,000-step log (docs/performance.md's target: ≤ 5 ms at 16 nodes).
func BenchmarkView(b *testing.B) {
	for _, n := range []int{16, 40} {
		b.Run(fmt.Sprintf("%d nodes", n), func(b *testing.B) {
			m := newModel(b, "bully-leader-crash", func(c *sim.Config) {
				c.IDs = nil
				for i := 1; i <= n; i++ {
					c.IDs = append(c.IDs, algo.ID(i))
				}
				c.Actions = nil
				c.RunFor = time.Hour
			})
			for len(m.ss.Steps()) < 10_000 {
				m.stepOnce()
			}
			m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}

// A playback tick at the top speed, 40 nodes, 10,000 steps in: the steps of one frame and the
// frame drawn, which together must leave time for the keys (a frame is 16ms).
func BenchmarkPlaybackFrame(b *testing.B) {
	m := newModel(b, "bully-leader-crash", func(c *sim.Config) {
		c.IDs = nil
		for i := 1; i <= 40; i++ {
			c.IDs = append(c.IDs, algo.ID(i))
		}
		c.Actions = nil
		c.RunFor = time.Hour
		c.Engine = sim.Goroutine
	})
	for len(m.ss.Steps()) < 10_000 {
		m.stepOnce()
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.speed = len(speeds) - 1
	press(m, " ")
	for b.Loop() {
		m.Update(tickMsg{m.tick})
		_ = m.View()
	}
}

// The README shows a real screen: the block marked <!-- screen of: ... TestREADMEScreen ... -->
// is the demo at 100×30 played to its break at the leader's crash, then on to 1157ms, when the
// new leader's COORDINATORs are on their way — without colour, trailing spaces trimmed. go test
// -update rewrites it; review the diff.
func TestREADMEScreen(t *testing.T) {
	m := newModel(t, "bully-leader-crash", nil)
	playToBreak(m, 2)
	playTo(m, 1157*ms)
	screenBlock(t, "../README.md", "TestREADMEScreen", m.View())
}

// docs/teaching.md shows the Raft split vote on the canvas: the block marked <!-- screen of: ...
// TestTeachingScreen ... --> is raft-boot-split-vote at 100×30 played to its break at 170ms and
// on to 185.5ms, without colour, trailing spaces trimmed. go test -update rewrites it.
func TestTeachingScreen(t *testing.T) {
	m := newModel(t, "raft-boot-split-vote", nil)
	playTo(m, 170*ms)
	playTo(m, 185500*time.Microsecond)
	screenBlock(t, "../docs/teaching.md", "TestTeachingScreen", m.View())
}

// screenBlock checks that file shows screen — trailing spaces trimmed — in its block marked
// <!-- screen of: ... test ... -->, or with -update writes it there.
func screenBlock(t *testing.T, file, test, view string) {
	t.Helper()
	var b strings.Builder
	for _, l := range strings.Split(view, "\n") {
		b.WriteString(strings.TrimRight(l, " ") + "\n")
	}
	screen := b.String()
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)(<!-- screen of: [^\n]*" + test + "[^\n]*-->\n```\n)(.*?)(```)")
	found := re.FindSubmatchIndex(text)
	if found == nil {
		t.Fatalf("%s has no block marked <!-- screen of: ... %s ... -->", file, test)
	}
	if got := string(text[found[4]:found[5]]); got != screen {
		if flag.Lookup("update").Value.String() == "true" {
			out := append(append(slices.Clone(text[:found[4]]), screen...), text[found[5]:]...)
			if err := os.WriteFile(file, out, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s shows a screen the TUI no longer draws (go test ./tui -update rewrites it; review the diff); it draws:\n%s", file, screen)
	}
}

func TestMain(m *testing.M) {
	// The golden screens are drawn without colour whatever the terminal running the tests.
	os.Setenv("NO_COLOR", "1")
	os.Exit(m.Run())
}

// A panic in Update — a bug — quits the program cleanly and is reported by Err, not by a
// stack trace over the user's terminal.
func TestPanicQuitsCleanly(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	m.nodes = nil // selecting the next node now divides by zero
	_, cmd := m.Update(keyMsg("tab"))
	if cmd == nil || cmd() != tea.Quit() || m.Err() == nil {
		t.Fatalf("cmd %v, err %v", cmd, m.Err())
	}
	if v := m.View(); v != "electsim failed; press q" {
		t.Errorf("view %q", v)
	}
}

// A say or a break of the user's own happens at its time, as a fault does: it is the step the
// action waits for, not a break it must stop at first.
func TestUserSayAndBreak(t *testing.T) {
	m := newModel(t, "bully-leader-crash", nil)
	for len(m.ss.Steps()) < 5 {
		press(m, "right") // past the break at 0ms
	}
	press(m, ":")
	typeText(m, "say hi")
	last := lastStep(m).Records[0]
	if last.Type != sim.RecSay || last.At != ms || m.message != `say "hi" at 1ms` {
		t.Fatalf("say: at %v a %v record, message %q", last.At, last.Type, m.message)
	}
	press(m, ":")
	typeText(m, "break")
	last = lastStep(m).Records[0]
	if !m.ss.AtBreak() || last.Type != sim.RecBreak || last.At != 2*ms || m.message != "break at 2ms — n or enter goes on" {
		t.Fatalf("break: at %v a %v record, at a break %v, message %q", last.At, last.Type, m.ss.AtBreak(), m.message)
	}
}

// Saving to a folder says so at once, while the line stays open to mend it, as every mistake
// in the input line does — without asking to replace it; mended, the session is saved.
func TestSaveToAFolder(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	dir := filepath.Join(m.opts.SaveDir, "lessons")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	press(m, "s")
	typeText(m, "lessons")
	want := dir + " is a folder: give a file name, such as lessons/bully-boot-session.scn"
	if m.ask != nil || m.mode != inputSave || m.inErr != want {
		t.Fatalf("ask %+v, mode %d, error %q", m.ask, m.mode, m.inErr)
	}
	if view := m.View(); !strings.Contains(view, dir+" is a folder: give a file name") || !strings.Contains(view, "save session as: lessons") {
		t.Errorf("the mistake and the line do not both show:\n%s", view)
	}
	typeText(m, "lessons/one.scn")
	if m.mode != inputNone || !strings.Contains(m.message, "saved to "+filepath.Join(dir, "one.scn")) {
		t.Errorf("mended: mode %d, message %q", m.mode, m.message)
	}
}

// burst sends text as a terminal hands over keys that arrive in one write (a paste without
// bracketed paste, a slow link, tmux send-keys 'lllll'): each run of runes as one message, a
// space and a carriage return each as their own; and returns the last command.
func burst(m *Model, text string) tea.Cmd {
	var cmd tea.Cmd
	var run []rune
	flush := func() {
		if len(run) > 0 {
			_, cmd = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: run})
			run = nil
		}
	}
	for _, r := range text {
		switch r {
		case ' ':
			flush()
			_, cmd = m.Update(keyMsg(" "))
		case '\r':
			flush()
			_, cmd = m.Update(keyMsg("enter"))
		default:
			run = append(run, r)
		}
	}
	flush()
	return cmd
}

// Keys that arrive in one message are each a key, in order, in every mode: none is lost.
func TestKeysInABurst(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	burst(m, "lllll")
	if len(m.ss.Steps()) != 5 {
		t.Fatalf("lllll in one burst: %d steps, want 5", len(m.ss.Steps()))
	}
	burst(m, "]]]]")
	if m.speed != defaultSpeed+4 {
		t.Errorf("]]]] in one burst: speed %d, want %d", m.speed, defaultSpeed+4)
	}
	burst(m, "[[")
	if m.speed != defaultSpeed+2 {
		t.Errorf("[[ in one burst: speed %d, want %d", m.speed, defaultSpeed+2)
	}
	// The command line opens, and the rest of the burst is its text.
	steps(m, 7)
	burst(m, ":crash 3\r")
	if m.mode != inputNone || len(m.ss.User()) != 1 || m.ss.User()[0].String() != "crash 3" || m.ss.Node(3).Status != sim.Crashed {
		t.Fatalf(":crash 3 in one burst: mode %d, line %q, error %q, user %v", m.mode, m.in.Value(), m.inErr, m.ss.User())
	}
	// Back keys in a burst go back that many steps, to exactly the state shown then.
	n := len(m.ss.Steps())
	press(m, "end") // clears the message
	want := m.View()
	steps(m, 3)
	burst(m, "h,h")
	if len(m.ss.Steps()) != n || m.View() != want {
		t.Errorf("h,h in one burst: at step %d, want %d; the screen:\n%s", len(m.ss.Steps()), n, m.View())
	}
	// The filter line.
	burst(m, "/4 ok\r")
	if m.mode != inputNone || m.log.filter.text != "4 ok" {
		t.Errorf("/4 ok in one burst: mode %d, filter %+v", m.mode, m.log.filter)
	}
	// Help, then the narration from it, then closed; keys after it go to the panels again.
	burst(m, "?H")
	if m.overlay != overlayHistory {
		t.Errorf("?H in one burst: overlay %d, want the narration", m.overlay)
	}
	burst(m, "Hl")
	if m.overlay != overlayNone || len(m.ss.Steps()) != n+1 {
		t.Errorf("Hl in one burst: overlay %d, %d steps (want %d)", m.overlay, len(m.ss.Steps()), n+1)
	}
	// A question answered in the burst that asked it.
	burst(m, "hhh2cy")
	if len(m.ss.User()) != 1 || m.ss.User()[0].String() != "crash 2" || m.ask != nil {
		t.Errorf("hhh2cy in one burst: user %v, question %v", m.ss.User(), m.ask)
	}
	// With an action not saved, q asks; the keys after it are not the panels'; y quits, and ends
	// the burst.
	n = len(m.ss.Steps())
	if cmd := burst(m, "lqll"); cmd != nil || len(m.ss.Steps()) != n+1 || m.ask == nil || !strings.HasPrefix(m.ask.text, "Quit, and lose 1 action") {
		t.Errorf("lqll in one burst: %d steps (want %d), command %v, question %v", len(m.ss.Steps()), n+1, cmd, m.ask)
	}
	if cmd := burst(m, "nlqyll"); cmd == nil || cmd() != tea.Quit() || len(m.ss.Steps()) != n+2 {
		t.Errorf("nlqyll in one burst: %d steps (want %d), command %v", len(m.ss.Steps()), n+2, cmd)
	}
	// While the terminal is too small, only q works, in a burst too.
	m = newModel(t, "bully-boot", nil)
	m.Update(tea.WindowSizeMsg{Width: 50, Height: 12})
	if cmd := burst(m, "llc:q"); cmd == nil || cmd() != tea.Quit() || len(m.ss.Steps()) != 0 || m.mode != inputNone {
		t.Errorf("llc:q while too small: %d steps, mode %d", len(m.ss.Steps()), m.mode)
	}
}

// A paste into the open input line is its text — line breaks become spaces — never keys; a
// paste elsewhere is the keys it holds, and once it opens the input line, the rest is text.
func TestPaste(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	steps(m, 12)
	press(m, ":")
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("partition 1 2 | 3 4 5\nq"), Paste: true})
	if m.mode != inputCommand || m.in.Value() != "partition 1 2 | 3 4 5 q" || len(m.ss.User()) != 0 {
		t.Fatalf("a paste into the command line: mode %d, line %q, user %v", m.mode, m.in.Value(), m.ss.User())
	}
	press(m, "esc")
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("l:crash 3"), Paste: true})
	if len(m.ss.Steps()) != 13 || m.mode != inputCommand || m.in.Value() != "crash 3" {
		t.Errorf("a paste of l:crash 3: %d steps, mode %d, line %q", len(m.ss.Steps()), m.mode, m.in.Value())
	}
	press(m, "enter")
	if m.ss.Node(3).Status != sim.Crashed {
		t.Errorf("the pasted command did not crash node 3: %q", m.message)
	}
}

// An action that would change nothing is refused at the start too — before the nodes boot, and
// with a break on the way — because it is judged where it happens: after the boot, and after
// the scenario's own actions at the same instant.
func TestIdleActionsBeforeBoot(t *testing.T) {
	refused := func(m *Model, keys []string, want string) {
		t.Helper()
		n, user := len(m.ss.Steps()), len(m.ss.User())
		press(m, keys...)
		if !m.messageErr || m.message != want || len(m.ss.User()) != user || len(m.ss.Steps()) != n {
			t.Errorf("%v at step %d: message %q (want %q), user %v, %d steps", keys, n, m.message, want, m.ss.User(), len(m.ss.Steps()))
		}
	}
	taken := func(m *Model, keys []string, want string) {
		t.Helper()
		user := len(m.ss.User())
		press(m, keys...)
		if m.messageErr || m.message != want || len(m.ss.User()) != user+1 {
			t.Errorf("%v: message %q (want %q), user %v", keys, m.message, want, m.ss.User())
		}
	}
	// The demo: the nodes boot at 0ms, and a break follows.
	m := newModel(t, "bully-leader-crash", nil)
	refused(m, []string{"r"}, "recover 1: node 1 is not crashed — nothing done")
	taken(m, []string{"c"}, "crash 1 will happen at 1ms: a break comes first — n or enter goes on")
	refused(m, []string{"c"}, "crash 1: node 1 is already crashed — nothing done")
	refused(m, []string{"e"}, "elect 1: node 1 is crashed and cannot elect — nothing done")
	taken(m, []string{"r"}, "recover 1 at 1ms")
	for i := 0; i < 100 && m.ss.Now() < 2*ms; i++ {
		press(m, "right")
	}
	var at1 []string
	for _, ls := range m.ss.Steps() {
		if r := ls.Records[0]; r.At == ms {
			at1 = append(at1, r.Action.String())
		}
	}
	if !slices.Equal(at1, []string{"crash 1", "recover 1"}) {
		t.Errorf("the steps at 1ms: %q, want crash 1 then recover 1", at1)
	}
	// Node 5 is crashed at 0ms by the scenario, before the break.
	m = newModel(t, "bully-boot", nil)
	refused(m, []string{"5", "c"}, "crash 5: node 5 is already crashed — nothing done")
	refused(m, []string{"p"}, "pause 5: node 5 is crashed — nothing done")
	refused(m, []string{"e"}, "elect 5: node 5 is crashed and cannot elect — nothing done")
	taken(m, []string{"r"}, "recover 5 will happen at 1ms: a break comes first — n or enter goes on")
	// A cut, a partition and a pause at 0ms: the command line and p judge them at 1ms.
	m = newModel(t, "bully-boot", func(c *sim.Config) {
		c.Actions = append(c.Actions,
			sim.Action{Op: sim.Cut, Link: &network.Link{From: 1, To: 2}},
			sim.Action{Op: sim.Partition, Groups: [][]algo.ID{{1, 2}}},
			sim.Action{Op: sim.Pause, Nodes: []algo.ID{2}})
	})
	command := func(text string) []string { return append(append([]string{":"}, strings.Split(text, "")...), "enter") }
	refused(m, command("cut 1->2"), "cut 1->2: the link 1->2 is cut already — nothing done")
	refused(m, command("partition 3 4 5"), "partition 3 4 5: the nodes are split that way already — nothing done")
	taken(m, []string{"2", "p"}, "resume 2 will happen at 1ms: a break comes first — n or enter goes on")
	taken(m, command("heal"), "heal at 1ms") // at the break now: none comes first
	refused(m, command("heal"), "heal: no partition and no cut link to heal — nothing done")
}

// unsafeOnScreen returns the first character in a screen drawn without colour that a terminal
// could act on, or that reorders text: a control character other than a line break, or a
// bidirectional control.
func unsafeOnScreen(view string) (rune, bool) {
	for _, r := range view {
		switch {
		case r == '\n':
		case r < 0x20, r >= 0x7f && r <= 0x9f:
			return r, true
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return r, true
		}
	}
	return 0, false
}

// Text from a file — the title, the narration, the log's say rows, the history, the
// expectations — and what the user typed or named reaches the screen with its escape sequences
// and bidirectional controls written out, never acted on by the terminal.
func TestFileTextIsEscaped(t *testing.T) {
	const hostile = "\x1b]0;PWNED\x07x \u202eevil\u202c \x1b[2J"
	const shown = `\x1b]0;PWNED\x07x \u202eevil\u202c \x1b[2J`
	sc, err := scenarios.LoadBundled("bully-boot")
	if err != nil {
		t.Fatal(err)
	}
	sc.Name = "odd\x1b[31mname"
	sc.Title = "Title " + hostile
	cfg := sc.Config()
	cfg.Engine = sim.Inline
	cfg.Actions = append([]sim.Action{{Op: sim.Say, Text: "Say " + hostile}}, cfg.Actions...)
	m, err := New(Options{Scenario: sc, Config: cfg, Output: io.Discard, NoColor: true, SaveDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	check := func(state, want string) {
		t.Helper()
		view := m.View()
		if r, bad := unsafeOnScreen(view); bad {
			t.Errorf("%s: the screen holds %U:\n%s", state, r, view)
		}
		if !strings.Contains(view, want) {
			t.Errorf("%s: the screen does not show %q:\n%s", state, want, view)
		}
	}
	check("the title", "electsim · Title "+shown)
	steps(m, 1)
	check("the narration", "“Say "+shown+"”")
	check("the log row", `say  "Say \x1b]0;PWNED\a`)
	press(m, "H")
	check("the history", "“Say "+shown+"”")
	press(m, "esc")
	// What the user names: a file name with escapes, pasted (a paste keeps what the keys
	// cannot type), shown in the line, in the question, and in the message once saved.
	press(m, "s")
	if v := m.in.Value(); v != `odd\x1b[31mname-session.scn` {
		t.Errorf("the default file name %q", v)
	}
	press(m, "esc", ":")
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("crash \u202e3"), Paste: true})
	press(m, "enter")
	check("a mistake in the command line", `crash \u202e3`)
	press(m, "esc")
	for !m.ss.Done() {
		m.stepOnce()
	}
	check("the end", "expect leader 4 by 60ms")
}

// The input line holds at most maxLine characters, and says so when what was typed or pasted
// is cut; a long paste arriving in many bursts, as a terminal without bracketed paste sends it
// word by word, is taken in about the time of drawing a frame for each (each message draws
// one), not in time that grows with the line. Each burst after the line is full is cheap.
func TestLongPasteIsBounded(t *testing.T) {
	m := newModel(t, "bully-leader-crash", nil)
	press(m, ":")
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("crash 1 ", 50_000)), Paste: true})
	if n := len([]rune(m.in.Value())); n != maxLine {
		t.Errorf("a 400,000-character paste left %d characters in the line, want %d", n, maxLine)
	}
	cut := fmt.Sprintf("the line holds at most %d characters: the rest was cut", maxLine)
	if m.inErr != cut || !strings.Contains(m.View(), cut) {
		t.Errorf("the cut is not said: %q", m.inErr)
	}
	press(m, "esc", ":")
	// Word by word: once the line is full, a burst does no work, and the frame is the one drawn.
	for range 600 {
		burst(m, "partition ")
		_ = m.View()
	}
	if n := len([]rune(m.in.Value())); n != maxLine {
		t.Errorf("600 bursts left %d characters in the line, want %d", n, maxLine)
	}
	before := m.View()
	allocs := testing.AllocsPerRun(20, func() {
		burst(m, "partition")
		if m.View() != before {
			t.Fatal("a burst into a full line changed the screen")
		}
	})
	if allocs > 20 {
		t.Errorf("a burst into a full line and its frame allocate %v times: it does work it need not", allocs)
	}
}

// Stepping back on a 200,000-node ring (go test ./tui -run '^$' -bench BackStep -benchtime 5x):
// each iteration is ← and its frame, then → to come back; early in the run (step 30) and after
// every node has booted (step 200,030), on either engine.
func BenchmarkBackStep(b *testing.B) {
	info, err := algo.Lookup("ring")
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range []sim.Engine{sim.Goroutine, sim.Inline} {
		for _, at := range []int{30, 200_030} {
			b.Run(fmt.Sprintf("%s/step %d", e, at), func(b *testing.B) {
				cfg := sim.DefaultConfig(info, 200_000)
				cfg.Engine = e
				m, err := New(Options{Config: cfg, Output: io.Discard, NoColor: true})
				if err != nil {
					b.Fatal(err)
				}
				defer m.Close()
				m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
				for range at {
					m.stepOnce()
				}
				_ = m.View()
				cpu := cpuTime()
				for b.Loop() {
					press(m, "left")
					_ = m.View()
					press(m, "right")
					_ = m.View()
				}
				// CPU time, every thread's: on a machine shared with other work, steadier than
				// the wall time.
				b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
				if len(m.ss.Steps()) != at {
					b.Fatalf("at step %d, want %d", len(m.ss.Steps()), at)
				}
			})
		}
	}
}

// :crash leader acts on the node that leads when it happens, and says which; when no node
// leads then, it is refused at once, saying who names whom, and the run goes on. Saved, the
// session says `leader`, and replays to the same trace.
func TestCrashLeader(t *testing.T) {
	m := newModel(t, "bully-leader-crash", nil)
	steps(m, 12)
	press(m, ":")
	typeText(m, "crash leader")
	want := "crash leader: no node leads at 7ms — the live nodes do not all name one live leader: nodes 1 3 4 name nobody; nodes 2 5 name 5 — nothing done"
	if !m.messageErr || m.message != want || len(m.ss.User()) != 0 || len(m.ss.Steps()) != 12 || m.ss.Done() {
		t.Fatalf("crash leader with no leader: message %q, user %v, %d steps, done %v", m.message, m.ss.User(), len(m.ss.Steps()), m.ss.Done())
	}
	if view := m.View(); !strings.Contains(view, "crash leader: no node leads at 7ms") || strings.Contains(view, "stopped early") {
		t.Errorf("the refusal does not show:\n%s", view)
	}
	for m.ss.Now() < 200*ms {
		press(m, "right")
	}
	press(m, ":")
	typeText(m, "crash leader")
	if m.messageErr || m.message != "crash leader (node 5) at 201ms" || m.ss.Node(5).Status != sim.Crashed {
		t.Fatalf("crash leader: message %q, node 5 %s", m.message, m.ss.Node(5).Status)
	}
	if view := m.View(); !strings.Contains(view, "crash leader (node 5)") {
		t.Errorf("the log does not name the node:\n%s", view)
	}
	steps(m, 20)
	press(m, "s", "enter")
	path := filepath.Join(m.opts.SaveDir, "bully-leader-crash-session.scn")
	text, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(text), "#   at 201ms crash leader\n") || !regexp.MustCompile(`\nat 201ms +crash leader\n`).Match(text) {
		t.Fatalf("the saved session (%v):\n%s", err, text)
	}
	sc, err := scenarios.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.Trace = true
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, ls := range m.ss.Steps() {
		r, ok := s.Step()
		if !ok || jsonl(r.Records) != jsonl(ls.Records) {
			t.Fatalf("the saved session's replay differs at step %d", i+1)
		}
	}
}
