package tui

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"electsim/algo"
	"electsim/internal/safetext"
	"electsim/scenarios"
	"electsim/sim"
)

// Options configure the TUI.
type Options struct {
	Scenario *scenarios.Scenario // what is played: its name, title and expectations; nil for a run the flags describe
	Config   sim.Config          // the run: the scenario's, with the command line's flags applied
	Output   io.Writer           // where the program draws: the renderer's colour profile is its
	NoColor  bool                // no colour at all (--no-color, NO_COLOR)
	SaveDir  string              // where `s` saves sessions; "" is the current directory
	// Clock is the wall clock that bounds the work of a playback tick (nil: time.Now). The run
	// itself never reads it: it only decides how many steps a tick gets through.
	Clock func() time.Time
}

// speeds are the playback speeds, in steps per second.
var speeds = [...]int{1, 2, 4, 8, 16, 32, 64, 128, 256, 1024}

const defaultSpeed = 3 // 8 steps per second

// tickBudget is the most wall time one playback tick spends stepping, whatever the speed: the
// rest of the frame is for drawing and for the keys, so a key is never kept waiting.
const tickBudget = 8 * time.Millisecond

// inputMode is what the input line is for, if anything.
type inputMode uint8

const (
	inputNone    inputMode = iota
	inputCommand           // : a scenario action
	inputFilter            // / the log filter
	inputSave              // s the file to save the session to
)

// overlay is what covers the panels, if anything.
type overlay uint8

const (
	overlayNone    overlay = iota
	overlayHelp            // ? every key
	overlayHistory         // H the narration so far
)

// question is a yes/no question in the status line, before something that cannot be undone.
type question struct {
	text string
	yes  func() tea.Cmd
}

// Model is the TUI's bubbletea model.
type Model struct {
	opts  Options
	keys  keyMap
	help  help.Model
	st    styles
	bar   progress.Model
	in    textinput.Model
	clock func() time.Time

	ss      *session
	nodes   []algo.ID // ring order
	byID    []int     // byID[i] is where nodes[i] comes in ascending order, as the run lists nodes
	members *scenarios.Members
	sel     int // the selected node, an index into nodes
	playing bool
	speed   int // index into speeds
	tick    int // the playback tick in flight; older ticks are stale

	width, height int
	overlay       overlay
	histUp        int // narration history lines scrolled up from the newest
	mode          inputMode
	inErr         string    // what is wrong with the input line's text: shown while it stays open
	inLen         int       // the input line's length, in characters
	inEdits       int       // changes whenever the input line's text or cursor may have
	ask           *question // a question waiting for y or n
	filter        filter
	message       string
	messageErr    bool
	ver           int   // changes with every message that may change more than the input line
	frame         frame // the screen last drawn
	failed        any   // what Update or View panicked with: the program quits and Err says it
	quitting      bool  // a key quit: the keys that came with it are not handled

	// The event log: rows are the indices in ss.steps of the steps the filter shows, built as
	// steps come (rowsN of them so far, for the session's generation rowsGen). cursor is the
	// selected row, -1 to follow the newest; logTop the first row on screen when not following.
	rows           []int
	rowsN, rowsGen int
	cursor, logTop int
}

// New returns the TUI, before its first step: the nodes are about to boot.
func New(o Options) (*Model, error) {
	var exps []scenarios.Expectation
	if o.Scenario != nil {
		exps = o.Scenario.Expects
	}
	ss, err := newSession(o.Config, exps)
	if err != nil {
		return nil, err
	}
	r := lipgloss.DefaultRenderer()
	if o.Output != nil {
		r = lipgloss.NewRenderer(o.Output)
	}
	m := &Model{opts: o, keys: newKeyMap(), st: newStyles(r, o.NoColor), ss: ss, clock: o.Clock,
		nodes: o.Config.IDs, speed: defaultSpeed, width: 100, height: 30, cursor: -1, rowsGen: -1}
	if m.clock == nil {
		m.clock = time.Now
	}
	m.members = scenarios.NewMembers(m.nodes)
	sorted := slices.Sorted(slices.Values(m.nodes))
	m.byID = make([]int, len(m.nodes))
	for i, id := range m.nodes {
		m.byID[i], _ = slices.BinarySearch(sorted, id)
	}
	m.help = help.New()
	m.help.Styles.ShortKey = m.st.bold
	m.help.Styles.ShortDesc = m.st.help
	m.help.Styles.FullKey = m.st.bold
	m.help.Styles.FullDesc = m.st.help
	m.help.Styles.ShortSeparator = m.st.help
	m.help.Styles.FullSeparator = m.st.help
	m.help.Width = m.width
	m.bar = progress.New(progress.WithoutPercentage(), progress.WithSolidFill("#5f87d7"))
	if o.NoColor {
		m.bar = progress.New(progress.WithoutPercentage(), progress.WithColorProfile(termenv.Ascii), progress.WithSolidFill(""))
		m.bar.Full, m.bar.Empty = '#', '.'
	}
	m.in = textinput.New()
	m.in.Prompt = ""
	m.in.CharLimit = maxLine
	return m, nil
}

// Close stops the run's goroutines. The program does it when it quits.
func (m *Model) Close() { m.ss.close() }

// Init starts nothing: the user steps or plays.
func (m *Model) Init() tea.Cmd { return nil }

type tickMsg struct{ n int }

// nextTick schedules the next playback tick. One tick is in flight at a time: the next is
// scheduled when one has been handled, so ticks never queue up behind a slow frame.
func (m *Model) nextTick() tea.Cmd {
	m.tick++
	n := m.tick
	every := time.Second / time.Duration(speeds[m.speed])
	return tea.Tick(max(every, time.Second/60), func(time.Time) tea.Msg { return tickMsg{n} })
}

// stepsPerTick is how many steps a tick runs: above 60 steps a second, several per frame (as
// many as tickBudget allows).
func (m *Model) stepsPerTick() int { return max(1, speeds[m.speed]/60) }

// Err returns the panic that ended the program, if one did: a bug, which the command line
// reports in one line once the terminal is restored.
func (m *Model) Err() error {
	if m.failed == nil {
		return nil
	}
	return fmt.Errorf("%v", m.failed)
}

// Update handles a message. A panic — a bug — quits the program cleanly instead of leaving the
// terminal in a state; Err reports it.
func (m *Model) Update(msg tea.Msg) (_ tea.Model, cmd tea.Cmd) {
	defer func() {
		if p := recover(); p != nil {
			m.failed, m.playing, cmd = p, false, tea.Quit
		}
	}()
	typing, mode := m.typing(), m.mode
	defer func() {
		// A key that only edited the open input line leaves the panels as they were drawn.
		if _, key := msg.(tea.KeyMsg); !key || !typing || !m.typing() || m.mode != mode {
			m.ver++
		}
	}()
	return m.update(msg)
}

// tooSmall reports whether the terminal is below the smallest size the TUI draws in.
func (m *Model) tooSmall() bool { return m.width < minWidth || m.height < minHeight }

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.Width = msg.Width
		m.sizeInput()
		return m, nil
	case tickMsg:
		if !m.playing || msg.n != m.tick {
			return m, nil
		}
		if m.tooSmall() || m.ask != nil {
			return m, m.nextTick() // nothing moves while it cannot be seen
		}
		start := m.clock()
		for range m.stepsPerTick() {
			if !m.stepOnce() || m.clock().Sub(start) > tickBudget {
				break
			}
		}
		if m.playing {
			return m, m.nextTick()
		}
		return m, nil
	case tea.KeyMsg:
		return m, m.keyMsg(msg)
	}
	return m, nil
}

// keyMsg handles what the terminal sent as one key message. Keys that arrive together — a
// paste, a slow link, tmux send-keys 'lllll' — come as one message holding several runes:
// each is a key of its own, handled in order, so that none is lost. Once one of them opens the
// input line, the rest are its text; and a paste (the terminal marks one) into the open input
// line is text, never keys. A run of back keys in one message replays the run once.
func (m *Model) keyMsg(k tea.KeyMsg) tea.Cmd {
	if k.Type != tea.KeyRunes || len(k.Runes) <= 1 && !k.Paste {
		return m.oneKey(k)
	}
	var cmds []tea.Cmd
	for rs := k.Runes; len(rs) > 0 && !m.quitting; {
		if m.typing() {
			cmds = append(cmds, m.insert(rs, k.Paste))
			break
		}
		one, ok := runeKey(rs[0], k.Alt)
		if !ok { // a control character in a paste: no key
			rs = rs[1:]
			continue
		}
		if m.ready() && key.Matches(one, m.keys.Back) {
			n := 1
			for n < len(rs) && key.Matches(tea.KeyMsg{Type: tea.KeyRunes, Runes: rs[n : n+1]}, m.keys.Back) {
				n++
			}
			m.back(n)
			rs = rs[n:]
			continue
		}
		cmds = append(cmds, m.oneKey(one))
		rs = rs[1:]
	}
	return tea.Batch(cmds...)
}

// runeKey is the key message of one rune, as the terminal sends it when typed alone; ok is
// false for a control character that is no key the TUI knows.
func runeKey(r rune, alt bool) (tea.KeyMsg, bool) {
	switch {
	case r == ' ':
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{r}, Alt: alt}, true
	case r == '\r' || r == '\n':
		return tea.KeyMsg{Type: tea.KeyEnter, Alt: alt}, true
	case r == '\t':
		return tea.KeyMsg{Type: tea.KeyTab, Alt: alt}, true
	case r < ' ' || r == 0x7f:
		return tea.KeyMsg{}, false
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: alt}, true
}

// typing reports whether a key goes to the input line: it is open, and nothing comes first.
func (m *Model) typing() bool { return !m.tooSmall() && m.ask == nil && m.mode != inputNone }

// ready reports whether a key goes to the panels: nothing else is open or asking.
func (m *Model) ready() bool {
	return !m.tooSmall() && m.ask == nil && m.mode == inputNone && m.overlay == overlayNone
}

// oneKey handles one key.
func (m *Model) oneKey(k tea.KeyMsg) tea.Cmd {
	switch {
	case m.tooSmall():
		// Nothing shows but the size: only what needs no screen works.
		if key.Matches(k, m.keys.Quit) {
			return m.quit()
		}
		return nil
	case m.ask != nil:
		return m.answer(k)
	case m.mode != inputNone:
		return m.updateInput(k)
	case m.overlay != overlayNone:
		return m.updateOverlay(k)
	}
	return m.updateKey(k)
}

// quit ends the program; keys that came with the one that quit are not handled.
func (m *Model) quit() tea.Cmd {
	m.playing, m.quitting = false, true
	return tea.Quit
}

// stepOnce runs a step; playback stops at a break and at the end. It reports whether playback
// may go on.
func (m *Model) stepOnce() bool {
	ls, ok := m.ss.step()
	if !ok {
		m.playing = false
		m.say("the run is over — ← goes back, R starts again", false)
		return false
	}
	if ls.recs[0].Type == sim.RecBreak {
		m.playing = false
		return false
	}
	return true
}

func (m *Model) say(text string, isErr bool) { m.message, m.messageErr = text, isErr }

// follow makes the log follow its newest row again.
func (m *Model) follow() { m.cursor = -1 }

// answer handles a key while a question waits: y does it, n or esc does not; ctrl+c still quits.
func (m *Model) answer(k tea.KeyMsg) tea.Cmd {
	q := m.ask
	switch {
	case key.Matches(k, m.keys.Yes):
		m.ask = nil
		m.message = ""
		return q.yes()
	case key.Matches(k, m.keys.No):
		m.ask = nil
		m.say("nothing done", false)
	case k.String() == "ctrl+c":
		return m.quit()
	}
	return nil
}

// updateOverlay handles a key while help or the narration history covers the panels.
func (m *Model) updateOverlay(k tea.KeyMsg) tea.Cmd {
	keys := m.keys
	switch {
	case k.String() == "ctrl+c":
		return m.quit()
	case key.Matches(k, keys.Close), key.Matches(k, keys.Quit),
		m.overlay == overlayHelp && key.Matches(k, keys.Help),
		m.overlay == overlayHistory && key.Matches(k, keys.History):
		m.overlay = overlayNone
	case m.overlay == overlayHelp && key.Matches(k, keys.History):
		m.overlay, m.histUp = overlayHistory, 0
	case m.overlay == overlayHistory && key.Matches(k, keys.Help):
		m.overlay = overlayHelp
	case m.overlay != overlayHistory:
	case key.Matches(k, keys.RowUp):
		m.histUp++
	case key.Matches(k, keys.RowDown):
		m.histUp = max(0, m.histUp-1)
	case key.Matches(k, keys.PageUp):
		m.histUp += max(1, m.height/2)
	case key.Matches(k, keys.PageDown):
		m.histUp = max(0, m.histUp-max(1, m.height/2))
	case key.Matches(k, keys.Top):
		m.histUp = 1 << 30 // clamped when drawn
	case key.Matches(k, keys.Bottom):
		m.histUp = 0
	}
	return nil
}

// updateKey handles a key outside the input line.
func (m *Model) updateKey(k tea.KeyMsg) tea.Cmd {
	m.message = ""
	keys := m.keys
	switch {
	case key.Matches(k, keys.Quit):
		return m.quit()
	case key.Matches(k, keys.Help):
		m.overlay = overlayHelp
	case key.Matches(k, keys.History):
		m.overlay, m.histUp = overlayHistory, 0
	case key.Matches(k, keys.Close):
		m.follow()
	case key.Matches(k, keys.Play):
		m.playing = !m.playing
		if m.playing {
			if m.ss.s.Done() {
				m.playing = false
				m.say("the run is over — ← goes back, R starts again", false)
				return nil
			}
			m.follow()
			return m.nextTick()
		}
	case key.Matches(k, keys.Continue):
		m.follow()
		if m.ss.atBreak() {
			m.playing = true
			return m.nextTick()
		}
		m.stepOnce()
	case key.Matches(k, keys.Step):
		m.playing = false
		m.follow()
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
		if m.ss.view(m.nodes[m.sel]).Status == sim.Paused {
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
		if n := m.syncRows(); n > 0 {
			m.cursor = max(0, m.selectedRow()-1)
		}
	case key.Matches(k, keys.RowDown):
		m.moveDown(1)
	case key.Matches(k, keys.PageUp):
		if n := m.syncRows(); n > 0 {
			m.cursor = max(0, m.selectedRow()-m.layout().logRows)
		}
	case key.Matches(k, keys.PageDown):
		m.moveDown(m.layout().logRows)
	case key.Matches(k, keys.Top):
		if n := m.syncRows(); n > 0 {
			m.cursor = 0
		}
	case key.Matches(k, keys.Bottom):
		m.follow()
	case key.Matches(k, keys.Restart):
		m.playing = false
		restart := func() tea.Cmd {
			m.ss.forgetAll()
			m.follow()
			if err := m.ss.restart(); err != nil {
				m.say(err.Error(), true)
			} else {
				m.say("started again from the beginning", false)
			}
			return nil
		}
		if len(m.ss.user) == 0 {
			return restart()
		}
		m.ask = &question{fmt.Sprintf("Start again from the beginning, and forget %s: %s? y/n",
			plural(len(m.ss.user), "action of yours", "actions of yours"), actionList(m.ss.user)), restart}
	}
	return nil
}

// back goes back n steps, or to the start of the run if it is nearer.
func (m *Model) back(n int) {
	m.playing = false
	m.follow()
	if n > len(m.ss.steps) {
		m.say("this is the start of the run", false)
		n = len(m.ss.steps)
	}
	if n == 0 {
		return
	}
	if err := m.ss.back(n); err != nil {
		m.say(err.Error(), true)
	}
}

// moveDown moves the log's selection n rows down; past the newest row, the log follows it.
func (m *Model) moveDown(n int) {
	rows := m.syncRows()
	if m.cursor < 0 {
		return
	}
	m.cursor += n
	if m.cursor >= rows-1 {
		m.follow()
	}
}

// act takes a user's action, now — after asking, when it would make the run forget actions the
// user took later before stepping back. With toggle, a is a pause or a resume, whichever fits
// the node when it comes.
func (m *Model) act(a sim.Action, toggle bool) {
	if lost := m.ss.forgets(); len(lost) > 0 && !m.ss.s.Done() {
		m.playing = false
		m.ask = &question{fmt.Sprintf("%s at %s replaces what you did from then on: %s. Go ahead? y/n",
			a, algo.FormatDuration(m.ss.actTime()), actionList(lost)), func() tea.Cmd { m.doAct(a, toggle); return nil }}
		return
	}
	m.doAct(a, toggle)
}

func (m *Model) doAct(a sim.Action, toggle bool) {
	atBreak, err := m.ss.act(a, toggle)
	if err != nil {
		m.say(err.Error(), true)
		return
	}
	m.follow()
	a = m.ss.user[len(m.ss.user)-1]
	at := algo.FormatDuration(a.At)
	if atBreak {
		m.playing = false
		m.say(fmt.Sprintf("%s will happen at %s: a break comes first — n or enter goes on", a, at), false)
		return
	}
	if a.Op == sim.Break {
		m.playing = false
		m.say(fmt.Sprintf("break at %s — n or enter goes on", at), false)
		return
	}
	m.say(fmt.Sprintf("%s at %s", a, at), false)
}

// actionList writes actions with their times: "crash 3 at 1012ms, heal at 1100ms".
func actionList(as []sim.Action) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = fmt.Sprintf("%s at %s", a, algo.FormatDuration(a.At))
	}
	return strings.Join(s, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func (m *Model) defaultSaveName() string {
	name := "session"
	if m.opts.Scenario != nil && m.opts.Scenario.Name != "" {
		name = safetext.Escape(m.opts.Scenario.Name) + "-session"
	}
	return name + ".scn"
}

func (m *Model) title() string {
	if m.opts.Scenario != nil && m.opts.Scenario.Title != "" {
		return m.opts.Scenario.Title
	}
	cfg := m.opts.Config
	return fmt.Sprintf("%s, %s (%s)", cfg.Algorithm.Name, plural(len(cfg.IDs), "node", "nodes"), m.members)
}

// syncRows brings the log's rows up to date with the steps shown and returns how many there
// are: only the new steps are looked at, and the rows of steps taken back are dropped; all are
// built again only when the run starts again or the filter changes.
func (m *Model) syncRows() int {
	if m.rowsGen != m.ss.gen {
		m.rows, m.rowsN, m.rowsGen = m.rows[:0], 0, m.ss.gen
	}
	if n := len(m.ss.steps); m.rowsN > n { // steps taken back: their rows go
		i, _ := slices.BinarySearch(m.rows, n)
		m.rows, m.rowsN = m.rows[:i], n
	}
	info := m.opts.Config.Algorithm
	for i := m.rowsN; i < len(m.ss.steps); i++ {
		if m.filter.match(m.ss.steps[i], info) {
			m.rows = append(m.rows, i)
		}
	}
	m.rowsN = len(m.ss.steps)
	if m.cursor >= len(m.rows) {
		m.follow() // the selected row was taken back
	}
	return len(m.rows)
}

// selectedRow is the index in rows of the selected row: the newest when following; -1 when
// there is none.
func (m *Model) selectedRow() int {
	if m.cursor >= 0 {
		return m.cursor
	}
	return len(m.rows) - 1
}
