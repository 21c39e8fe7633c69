package tui

import (
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/session"
	"electsim/sim"
)

// updateKey handles a key outside the input line: on the panels.
func (m *Model) updateKey(k tea.KeyMsg) tea.Cmd {
	m.message = ""
	keys := m.keys
	switch {
	case key.Matches(k, keys.Quit):
		return m.quitAsking()
	case key.Matches(k, keys.Help):
		m.overlay = overlayHelp
	case key.Matches(k, keys.History):
		m.openHistory()
	case key.Matches(k, keys.Close), key.Matches(k, keys.Bottom):
		m.log.follow()
	case key.Matches(k, keys.Play):
		return m.togglePlay()
	case key.Matches(k, keys.Continue):
		return m.goOn()
	case key.Matches(k, keys.Step):
		m.playing = false
		m.log.follow()
		m.stepOnce()
	case key.Matches(k, keys.Back):
		m.back(1)
	case key.Matches(k, keys.Faster):
		m.speed = min(m.speed+1, len(speeds)-1)
	case key.Matches(k, keys.Slower):
		m.speed = max(m.speed-1, 0)
	case key.Matches(k, keys.Next):
		m.sel = (m.sel + 1) % len(m.nodes)
	case key.Matches(k, keys.Prev):
		m.sel = (m.sel + len(m.nodes) - 1) % len(m.nodes)
	case key.Matches(k, keys.Pick):
		if i := int(k.String()[0] - '1'); i < len(m.nodes) {
			m.sel = i
		}
	case key.Matches(k, keys.Crash):
		m.act(sim.Action{Op: sim.Crash, Nodes: []algo.ID{m.nodes[m.sel]}}, false)
	case key.Matches(k, keys.Recover):
		m.act(sim.Action{Op: sim.Recover, Nodes: []algo.ID{m.nodes[m.sel]}}, false)
	case key.Matches(k, keys.Pause):
		op := sim.Pause
		if m.ss.Node(m.nodes[m.sel]).Status == sim.Paused {
			op = sim.Resume
		}
		m.act(sim.Action{Op: op, Nodes: []algo.ID{m.nodes[m.sel]}}, true)
	case key.Matches(k, keys.Elect):
		m.act(sim.Action{Op: sim.Elect, Nodes: []algo.ID{m.nodes[m.sel]}}, false)
	case key.Matches(k, keys.Command):
		return m.startInput(inputCommand, "")
	case key.Matches(k, keys.Filter):
		return m.startInput(inputFilter, "")
	case key.Matches(k, keys.Save):
		return m.startInput(inputSave, m.defaultSaveName())
	case key.Matches(k, keys.RowUp):
		m.log.up(1)
	case key.Matches(k, keys.RowDown):
		m.log.down(1)
	case key.Matches(k, keys.PageUp):
		m.log.up(m.layout().logRows)
	case key.Matches(k, keys.PageDown):
		m.log.down(m.layout().logRows)
	case key.Matches(k, keys.Top):
		m.log.first()
	case key.Matches(k, keys.Restart):
		return m.restart()
	case key.Matches(k, keys.Theme):
		m.cycleTheme()
	}
	return nil
}

// mouse handles the mouse: a click on a node selects it, a click on a row of the log selects
// that row, the wheel scrolls the log.
func (m *Model) mouse(e tea.MouseMsg) tea.Cmd {
	if !m.ready() {
		return nil
	}
	switch {
	case e.Button == tea.MouseButtonWheelUp:
		m.log.up(3)
	case e.Button == tea.MouseButtonWheelDown:
		m.log.down(3)
	case e.Button == tea.MouseButtonLeft && e.Action == tea.MouseActionPress:
		l := m.layout()
		y := e.Y - len(l.header)
		if y < 0 || y >= l.body {
			return nil
		}
		if e.X < l.left {
			for i, b := range m.frame.boxes {
				if b.w > 0 && y-m.frame.boxTop == b.y && e.X >= b.x && e.X < b.x+b.w {
					m.sel = i
				}
			}
			return nil
		}
		if screen := m.logScreen(l.logRows, l.right); y-1 >= 0 && y-1 < len(screen) {
			m.log.top = screen[0].row
			m.log.cursor = screen[y-1].row
		}
	}
	return nil
}

// togglePlay starts or stops playback; at the end of the run, it says so.
func (m *Model) togglePlay() tea.Cmd {
	m.playing = !m.playing
	if !m.playing {
		return nil
	}
	if m.ss.Done() {
		m.playing = false
		m.say("the run is over — ← goes back, R starts again", false)
		return nil
	}
	m.log.follow()
	return m.nextTick()
}

// goOn plays on from a break; elsewhere it steps.
func (m *Model) goOn() tea.Cmd {
	m.log.follow()
	if m.ss.AtBreak() {
		m.playing = true
		return m.nextTick()
	}
	m.stepOnce()
	return nil
}

// playTick plays a frame's worth of virtual time (perTick): every step due by then, in order,
// for at most tickBudget of wall time. No step is ever skipped: past the budget, the next tick
// goes on from the last step shown, and playback runs slower than the rate asked. It stops at
// a break, at the end of the run, and where the session is full (session.Full), saying so.
func (m *Model) playTick() {
	target := m.ss.Instant() + m.perTick()
	start := m.clock()
	for {
		st, ok := m.ss.NextBy(target)
		if !ok && m.ss.Full() != "" { // no room for another step: playback stops, saying which bound
			m.playing = false
			m.say(m.ss.Full(), true)
			return
		}
		if !ok {
			break
		}
		if st.Records[0].Type == sim.RecBreak {
			m.playing = false
			return
		}
		if m.clock().Sub(start) > tickBudget {
			return
		}
	}
	m.ss.PlayTo(target) // nothing more is due by then: the instant drawn moves on
	if m.ss.Done() {
		m.playing = false
		m.say("the run is over — ← goes back, R starts again", false)
	}
}

// stepOnce runs a step; playback stops at a break and at the end. It reports whether playback
// may go on.
func (m *Model) stepOnce() bool {
	st, ok := m.ss.Next()
	if !ok && m.ss.Full() != "" {
		m.playing = false
		m.say(m.ss.Full(), true)
		return false
	}
	if !ok {
		m.playing = false
		m.say("the run is over — ← goes back, R starts again", false)
		return false
	}
	if st.Records[0].Type == sim.RecBreak {
		m.playing = false
		return false
	}
	return true
}

func (m *Model) say(text string, isErr bool) { m.message, m.messageErr = text, isErr }

// back goes back n steps, or to the start of the run if it is nearer.
func (m *Model) back(n int) {
	m.playing = false
	m.log.follow()
	shown := len(m.ss.Steps())
	if n > shown {
		m.say("this is the start of the run", false)
		n = shown
	}
	if n == 0 {
		return
	}
	if err := m.ss.Back(n); err != nil {
		m.say(err.Error(), true)
	}
}

// restart starts the run again from the beginning — after asking, when that forgets actions the
// user took.
func (m *Model) restart() tea.Cmd {
	m.playing = false
	restart := func() tea.Cmd {
		m.log.follow()
		if err := m.ss.Restart(); err != nil {
			m.say(err.Error(), true)
		} else {
			m.say("started again from the beginning", false)
		}
		return nil
	}
	user := m.ss.User()
	if len(user) == 0 {
		return restart()
	}
	m.ask = &question{fmt.Sprintf("Start again from the beginning, and forget %s: %s? y/n",
		human.Plural(len(user), "action of yours", "actions of yours"), actionList(user)), restart, false}
	return nil
}

// act takes a user's action, now — after asking, when it would make the run forget actions the
// user took later before stepping back. With toggle, a is a pause or a resume, whichever fits
// the node when it comes.
func (m *Model) act(a sim.Action, toggle bool) {
	if lost := m.ss.Forgets(); len(lost) > 0 && !m.ss.Done() {
		m.playing = false
		m.ask = &question{fmt.Sprintf("%s at %s replaces what you did from then on: %s. Go ahead? y/n",
			a, algo.FormatDuration(m.ss.ActTime()), actionList(lost)), func() tea.Cmd { m.doAct(a, toggle); return nil }, false}
		return
	}
	m.doAct(a, toggle)
}

// doAct takes the action and says what became of it.
func (m *Model) doAct(a sim.Action, toggle bool) {
	t, err := m.ss.Act(a, toggle)
	switch {
	case errors.Is(err, session.ErrOver):
		m.say("the run is over: ← goes back, R starts it again", true)
		return
	case err != nil:
		m.say(err.Error(), true)
		return
	}
	m.log.follow()
	at := algo.FormatDuration(t.Action.At)
	switch {
	case t.AtBreak:
		m.playing = false
		m.say(fmt.Sprintf("%s will happen at %s: a break comes first — n or enter goes on", t.Action, at), false)
	case t.Action.Op == sim.Break:
		m.playing = false
		m.say(fmt.Sprintf("break at %s — n or enter goes on", at), false)
	default:
		m.say(fmt.Sprintf("%s at %s", t.Happened, at), false)
	}
}

// shortActionList is actionList for a question that must fit a line: the first three, and how
// many more.
func shortActionList(as []sim.Action) string {
	const most = 3
	if len(as) <= most {
		return actionList(as)
	}
	return fmt.Sprintf("%s and %d more", actionList(as[:most]), len(as)-most)
}

// actionList writes actions with their times: "crash 3 at 1012ms, heal at 1100ms".
func actionList(as []sim.Action) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = fmt.Sprintf("%s at %s", a, algo.FormatDuration(a.At))
	}
	return strings.Join(s, ", ")
}
