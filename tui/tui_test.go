package tui

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"electsim/algo"
	"electsim/scenarios"
	"electsim/sim"
	"electsim/sim/export"
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
		"backspace": tea.KeyBackspace,
	}
	if t, ok := special[k]; ok {
		if t == tea.KeySpace {
			return tea.KeyMsg{Type: t, Runes: []rune{' '}}
		}
		return tea.KeyMsg{Type: t}
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
		for m.ss.s.Now() < 720*ms {
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
	t.Run("too small", func(t *testing.T) {
		m := newModel(t, "bully-leader-crash", nil)
		m.Update(tea.WindowSizeMsg{Width: 50, Height: 12})
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

// Every line of the screen is exactly the terminal's width, at any size from the smallest up.
func TestViewFitsTheTerminal(t *testing.T) {
	m := newModel(t, "ring-partition", nil)
	steps(m, 80)
	for _, size := range [][2]int{{60, 16}, {80, 24}, {100, 30}, {200, 60}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(m.View(), "\n")
		if len(lines) != size[1] {
			t.Errorf("%v: %d lines", size, len(lines))
		}
		for i, l := range lines {
			if w := len([]rune(l)); w != size[0] {
				t.Errorf("%v: line %d is %d wide: %q", size, i, w, l)
				break
			}
		}
	}
}

// → . l step; ← , h step back to exactly the state shown before — replayed from the start with
// the user's actions where they were taken.
func TestStepAndBack(t *testing.T) {
	m := newModel(t, "bully-leader-crash", nil)
	for _, k := range []string{"right", ".", "l"} {
		before := len(m.ss.steps)
		press(m, k)
		if len(m.ss.steps) != before+1 {
			t.Errorf("%q: %d steps, want %d", k, len(m.ss.steps), before+1)
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
		return snapshot{m.ss.s.Now(), m.ss.s.Nodes(), fmt.Sprint(m.ss.s.Summary()), m.View()}
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
			t.Fatalf("back to step %d: not the state shown then\n got %v %v\nwant %v %v", len(m.ss.steps), got.now, got.nodes, history[i].now, history[i].nodes)
		}
	}
	// Back past the user's crash: it is undone, and redone going forward again.
	for len(m.ss.steps) > 0 && m.nodeView(1).Status == sim.Crashed {
		press(m, "left")
	}
	if m.nodeView(1).Status == sim.Crashed || len(m.ss.user) != 1 {
		t.Fatalf("stepping back past the crash: node 1 %s, user actions %v", m.nodeView(1).Status, m.ss.user)
	}
	press(m, "right")
	if m.nodeView(1).Status != sim.Crashed {
		t.Errorf("stepping forward again: node 1 is %s, want crashed again", m.nodeView(1).Status)
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
	if len(m.ss.steps) != 2 || m.playing {
		t.Fatalf("at the break after 2 steps: %d steps, playing %v", len(m.ss.steps), m.playing)
	}
	for _, k := range []string{"n", "enter"} {
		if cmd := press(m, k); !m.playing || cmd == nil {
			t.Fatalf("%q at a break did not continue", k)
		}
		for m.playing {
			tick()
		}
		if _, atBreak := m.ss.narration(); !atBreak {
			t.Fatalf("playback stopped at step %d, not at a break", len(m.ss.steps))
		}
	}
	press(m, " ")
	n := len(m.ss.steps)
	press(m, " ")
	m.Update(tickMsg{m.tick - 1}) // a stale tick does nothing
	if len(m.ss.steps) != n || m.playing {
		t.Errorf("paused: %d steps (was %d), playing %v", len(m.ss.steps), n, m.playing)
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
	if m.speed != len(speeds)-1 || m.stepsPerTick() < 10 {
		t.Errorf("top speed %d, %d steps per tick", m.speed, m.stepsPerTick())
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
	now := m.ss.s.Now()
	press(m, "c")
	if m.nodeView(4).Status != sim.Crashed || m.ss.user[0].At != (now/ms+1)*ms {
		t.Errorf("c: node 4 %s, action %v (now was %v)", m.nodeView(4).Status, m.ss.user, now)
	}
	press(m, "r")
	if st := m.nodeView(4).Status; st == sim.Crashed {
		t.Errorf("r: node 4 is still crashed")
	}
	press(m, "p")
	if m.nodeView(4).Status != sim.Paused {
		t.Errorf("p: node 4 is %s, want paused", m.nodeView(4).Status)
	}
	press(m, "p")
	if m.nodeView(4).Status == sim.Paused {
		t.Error("p again: node 4 is still paused")
	}
	press(m, "2", "e")
	last := m.ss.steps[len(m.ss.steps)-1].recs
	if last[0].Type != sim.RecFault || last[0].Action.Op != sim.Elect || last[0].Node != 2 {
		t.Errorf("e: the last step is %+v", last[0])
	}
	if len(m.ss.user) != 5 {
		t.Errorf("user actions %v", m.ss.user)
	}
}

// : takes any scenario action; a mistake is shown inline, with the line kept to mend it; esc
// drops the line.
func TestCommandLine(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	steps(m, 5)
	press(m, ":")
	typeText(m, "partition 1 2 | 3 4 9")
	if !m.messageErr || m.message != "column 21: unknown node 9 (nodes are 1..5)" || m.mode != inputCommand {
		t.Fatalf("a bad command: message %q, mode %d", m.message, m.mode)
	}
	typeText(m, "partition 1 2 | 3 4 5")
	if m.mode != inputNone || m.ss.s.Partition() == nil {
		t.Fatalf("the mended command did not partition: message %q", m.message)
	}
	if !strings.Contains(m.View(), "partition A: 1 2 | B: 3 4 5") {
		t.Errorf("the partition does not show:\n%s", m.View())
	}
	press(m, ":")
	typeText(m, "cut 1->2")
	if len(m.ss.s.Cuts()) != 1 {
		t.Error("cut 1->2 did not cut")
	}
	press(m, ":", "x", "esc")
	if m.mode != inputNone || len(m.ss.user) != 2 {
		t.Errorf("esc: mode %d, user actions %v", m.mode, m.ss.user)
	}
}

// / filters the log by node or kind; routine kinds show only when named; a mistake is said.
func TestFilter(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	steps(m, 60)
	press(m, "/")
	typeText(m, "4 ok")
	if !slices.Equal(m.filter.nodes, []algo.ID{4}) || !slices.Equal(m.filter.kinds, []string{"OK"}) {
		t.Fatalf("filter %+v", m.filter)
	}
	for _, line := range strings.Split(m.View(), "\n")[4:] {
		if i := strings.Index(line, "│"); i >= 0 && strings.Contains(line[i:], " #") &&
			(!strings.Contains(line[i:], "OK") || !strings.Contains(line[i:], "4")) {
			t.Errorf("a line the filter should hide: %q", line[i:])
		}
	}
	press(m, "/")
	typeText(m, "heartbeat")
	if !strings.Contains(m.View(), "HEARTBEAT") {
		t.Error("naming HEARTBEAT does not show the routine steps")
	}
	press(m, "/")
	typeText(m, "votes")
	if !m.messageErr || !strings.Contains(m.message, `"votes" is neither a node id nor a kind of bully`) {
		t.Errorf("a bad filter: %q", m.message)
	}
	press(m, "/")
	typeText(m, "")
	if m.filter.text != "" {
		t.Errorf("an empty filter should clear it: %+v", m.filter)
	}
}

// pgup pgdn home end scroll the log; the newest line is at the bottom again after end.
func TestScroll(t *testing.T) {
	m := newModel(t, "bully-leader-crash", nil)
	steps(m, 150)
	press(m, "pgup")
	if m.scroll == 0 {
		t.Fatal("pgup did not scroll")
	}
	press(m, "home")
	top := m.scroll
	press(m, "pgup")
	if m.scroll != top {
		t.Errorf("scrolled past the start: %d then %d", top, m.scroll)
	}
	if !strings.Contains(m.View(), "#1 ") {
		t.Error("home does not show the first step")
	}
	press(m, "pgdown")
	if m.scroll >= top {
		t.Error("pgdown did not scroll down")
	}
	press(m, "end")
	if m.scroll != 0 {
		t.Errorf("end: scroll %d", m.scroll)
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
		for i, ls := range m.ss.steps {
			r, ok := s.Step()
			if !ok {
				t.Fatalf("the replay ended at step %d of %d", i, len(m.ss.steps))
			}
			if got, want := jsonl(r.Records), jsonl(ls.recs); got != want {
				t.Fatalf("%s: step %d differs:\nreplay  %s\nsession %s", e, i+1, got, want)
			}
		}
		s.Close()
	}
}

func jsonl(recs []sim.Record) string {
	var b bytes.Buffer
	for i := range recs {
		b.Write(export.AppendJSON(nil, &recs[i]))
		b.WriteByte('\n')
	}
	return b.String()
}

// R restarts from the beginning, forgetting the user's actions; ? toggles help; q quits.
func TestRestartHelpQuit(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	steps(m, 10)
	press(m, "c")
	press(m, "R")
	if len(m.ss.steps) != 0 || len(m.ss.user) != 0 || m.ss.s.Now() != 0 {
		t.Errorf("after R: %d steps, user %v, now %v", len(m.ss.steps), m.ss.user, m.ss.s.Now())
	}
	press(m, "?")
	if !m.showHelp || !strings.Contains(m.View(), "save session") {
		t.Error("? does not show the full help")
	}
	press(m, "?")
	if m.showHelp {
		t.Error("? again does not close it")
	}
	for _, k := range []string{"q", "ctrl+c"} {
		if cmd := press(m, k); cmd == nil || cmd() != tea.Quit() {
			t.Errorf("%q does not quit", k)
		}
	}
}

// Acting after the end, or too late, says so.
func TestActAtTheEnd(t *testing.T) {
	m := newModel(t, "bully-boot", func(c *sim.Config) { c.RunFor = 30 * ms })
	for !m.ss.s.Done() {
		press(m, "right")
	}
	press(m, "c")
	if !m.messageErr || m.message != "the run is over: R starts it again" {
		t.Errorf("message %q", m.message)
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
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	final := tm.FinalModel(t).(*Model)
	if final.nodeView(4).Status != sim.Crashed || final.nodeView(3).Status != sim.Leader {
		t.Errorf("final: node 4 %s, node 3 %s", final.nodeView(4).Status, final.nodeView(3).Status)
	}
}

// Rendering a frame renders only what shows: 16 nodes and a 10,000-step log (DESIGN §9: ≤ 5 ms).
func BenchmarkView(b *testing.B) {
	m := newModel(b, "bully-leader-crash", func(c *sim.Config) {
		c.IDs = nil
		for i := 1; i <= 16; i++ {
			c.IDs = append(c.IDs, algo.ID(i))
		}
		c.Actions = nil
		c.RunFor = time.Hour
	})
	for len(m.ss.steps) < 10_000 {
		m.stepOnce()
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for b.Loop() {
		_ = m.View()
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
	m.ss.s = nil // any step now panics
	_, cmd := m.Update(keyMsg("right"))
	if cmd == nil || cmd() != tea.Quit() || m.Err() == nil {
		t.Fatalf("cmd %v, err %v", cmd, m.Err())
	}
	if v := m.View(); v != "electsim failed; press q" {
		t.Errorf("view %q", v)
	}
}
