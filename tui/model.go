package tui

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/internal/safetext"
	"electsim/scenarios"
	"electsim/session"
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
	// Theme is the colour scheme: "dark", "light", "contrast" (a projector), or "" to follow
	// the terminal's background (ThemeNames lists them).
	Theme string
}

// speeds are the playback rates: how much virtual time plays in a second of wall time, from a
// hundredth of real time to a thousand times it.
var speeds = [...]time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond,
	100 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second,
	5 * time.Second, 10 * time.Second, 20 * time.Second, 50 * time.Second, 100 * time.Second,
	200 * time.Second, 500 * time.Second, 1000 * time.Second}

// defaultSpeed is 20ms of virtual time a second: a message of the default network (5 to 15ms
// on its way) crosses the screen in about half a second.
const defaultSpeed = 1

// fps is how many frames a second playback draws: a tick plays speeds[speed]/fps of virtual time.
const fps = 30

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
	text  string
	yes   func() tea.Cmd
	quits bool // the question before quitting: the quit key, pressed again, is yes
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

	ss      *session.Session
	glyphs  map[string]rune // each message kind's letter on the canvas
	theme   int             // an index into themes
	nodes   []algo.ID       // ring order
	byID    []int           // byID[i] is where nodes[i] comes in ascending order, as the run lists nodes
	sel     int             // the selected node, an index into nodes
	playing bool
	speed   int // index into speeds
	tick    int // the playback tick in flight; older ticks are stale

	width, height int
	overlay       overlay
	hist          viewport.Model // the narration so far, while it covers the panels
	histKey       historyKey     // what hist's lines were built from
	log           eventLog
	mode          inputMode
	inErr         string       // what is wrong with the input line's text: shown while it stays open
	inLen         int          // the input line's length, in characters
	inEdits       int          // changes whenever the input line's text or cursor may have
	ask           *question    // a question waiting for y or n
	saved         []sim.Action // the user's actions when the session was last saved: quitting loses nothing else
	message       string
	messageErr    bool
	ver           int   // changes with every message that may change more than the input line
	frame         frame // the screen last drawn
	failed        any   // what Update or View panicked with: the program quits and Err says it
	quitting      bool  // a key quit: the keys that came with it are not handled
}

// New returns the TUI, before its first step: the nodes are about to boot.
func New(o Options) (*Model, error) {
	ss, err := session.New(o.Config, o.Scenario)
	if err != nil {
		return nil, err
	}
	r := lipgloss.DefaultRenderer()
	if o.Output != nil {
		r = lipgloss.NewRenderer(o.Output)
	}
	theme := max(0, slices.Index(themes, o.Theme))
	m := &Model{opts: o, keys: newKeyMap(), st: newStyles(r, o.NoColor, themes[theme]), ss: ss, clock: o.Clock,
		nodes: o.Config.IDs, speed: defaultSpeed, width: 100, height: 30, log: newEventLog(),
		glyphs: session.KindLetters(o.Config.Algorithm), theme: theme}
	if m.clock == nil {
		m.clock = time.Now
	}
	sorted := slices.Sorted(slices.Values(m.nodes))
	m.byID = make([]int, len(m.nodes))
	for i, id := range m.nodes {
		m.byID[i], _ = slices.BinarySearch(sorted, id)
	}
	m.styleHelp()
	m.in = textinput.New()
	m.in.Prompt = ""
	m.in.CharLimit = maxLine
	m.settle()
	return m, nil
}

// styleHelp styles the help bar and the time bar with the theme's styles.
func (m *Model) styleHelp() {
	o := m.opts
	m.help = help.New()
	m.help.Width = m.width
	m.help.Styles.ShortKey = m.st.bold
	m.help.Styles.ShortDesc = m.st.help
	m.help.Styles.FullKey = m.st.bold
	m.help.Styles.FullDesc = m.st.help
	m.help.Styles.ShortSeparator = m.st.help
	m.help.Styles.FullSeparator = m.st.help
	m.bar = progress.New(progress.WithoutPercentage(), progress.WithSolidFill("#5f87d7"))
	if themes[m.theme] == "contrast" { // the time still to run in the text's own colour, not grey
		m.bar.EmptyColor = "#000000"
		if m.st.r.HasDarkBackground() {
			m.bar.EmptyColor = "#ffffff"
		}
	}
	if o.NoColor {
		m.bar = progress.New(progress.WithoutPercentage(), progress.WithColorProfile(termenv.Ascii), progress.WithSolidFill(""))
		m.bar.Full, m.bar.Empty = '#', '.'
	}
}

// cycleTheme changes to the next theme.
func (m *Model) cycleTheme() {
	m.theme = (m.theme + 1) % len(themes)
	r := m.st.r
	m.st = newStyles(r, m.opts.NoColor, themes[m.theme])
	m.styleHelp()
	m.say("theme: "+themes[m.theme], false)
}

// Close stops the run's goroutines. The program does it when it quits.
func (m *Model) Close() { m.ss.Close() }

// Init starts nothing: the user steps or plays.
func (m *Model) Init() tea.Cmd { return nil }

type tickMsg struct{ n int }

// nextTick schedules the next playback tick, a frame from now. One tick is in flight at a time:
// the next is scheduled when one has been handled, so ticks never queue up behind a slow frame.
func (m *Model) nextTick() tea.Cmd {
	m.tick++
	n := m.tick
	return tea.Tick(time.Second/fps, func(time.Time) tea.Msg { return tickMsg{n} })
}

// perTick is the virtual time a tick plays.
func (m *Model) perTick() time.Duration { return speeds[m.speed] / fps }

// linger is how long, in virtual time, a lost message's ✗ stays on the canvas: about two thirds
// of a second of playback at the rate chosen.
func (m *Model) linger() time.Duration { return speeds[m.speed] * 2 / 3 }

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
			m.settle()
		} else if m.log.cursor >= 0 {
			m.settle()
		}
	}()
	return m.update(msg)
}

// settle brings what the next frame shows up to date with the model, so that View changes
// nothing: the log's rows with the steps shown, the selected row in view, the narration's
// history with its lines.
func (m *Model) settle() {
	if m.failed != nil || m.tooSmall() {
		return
	}
	m.log.sync(m.ss, m.opts.Config.Algorithm)
	if m.log.cursor < 0 && m.overlay != overlayHistory {
		return
	}
	l := m.layout()
	m.log.scroll(l.logRows)
	if m.overlay == overlayHistory {
		m.hist = m.historyPort(max(1, l.body-1))
		m.histKey = historyKey{len(m.ss.Says()), m.ss.Generation(), m.width}
	}
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
		m.playTick()
		if m.playing {
			return m, m.nextTick()
		}
		return m, nil
	case tea.MouseMsg:
		return m, m.mouse(msg)
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
	case m.tooSmall() && m.ask != nil:
		return m.answer(k) // the question shows, even so small
	case m.tooSmall():
		// Nothing shows but the size: only what needs no screen works.
		if key.Matches(k, m.keys.Quit) {
			return m.quitAsking()
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

// quitAsking quits — after asking, as an editor asks before it closes a changed file, when the
// user took actions that are not saved: y quits, n (or esc) stays, and s then saves them. Asked
// again (q or ctrl+c while the question shows), it quits.
func (m *Model) quitAsking() tea.Cmd {
	lost := m.unsaved()
	if len(lost) == 0 {
		return m.quit()
	}
	m.playing = false
	m.ask = &question{fmt.Sprintf("Quit, and lose %s not saved: %s? y quits · n stays (then s saves them)",
		human.Plural(len(lost), "action of yours", "actions of yours"), shortActionList(lost)), m.quit, true}
	return nil
}

// unsaved returns the user's actions when they are not what the session was last saved with
// (none, before the first save), or nil: nothing would be lost by quitting.
func (m *Model) unsaved() []sim.Action {
	user := m.ss.User()
	same := len(user) == len(m.saved)
	for i := 0; same && i < len(user); i++ {
		same = user[i].At == m.saved[i].At && user[i].String() == m.saved[i].String()
	}
	if same {
		return nil
	}
	return user
}

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
	case k.String() == "ctrl+c", q.quits && key.Matches(k, m.keys.Quit):
		return m.quit()
	}
	return nil
}

// updateOverlay handles a key while help or the narration history covers the panels.
func (m *Model) updateOverlay(k tea.KeyMsg) tea.Cmd {
	keys := m.keys
	switch {
	case k.String() == "ctrl+c":
		return m.quitAsking()
	case key.Matches(k, keys.Close), key.Matches(k, keys.Quit),
		m.overlay == overlayHelp && key.Matches(k, keys.Help),
		m.overlay == overlayHistory && key.Matches(k, keys.History):
		m.overlay = overlayNone
	case m.overlay == overlayHelp && key.Matches(k, keys.History):
		m.openHistory()
	case m.overlay == overlayHistory && key.Matches(k, keys.Help):
		m.overlay = overlayHelp
	case m.overlay != overlayHistory:
	case key.Matches(k, keys.RowUp):
		m.hist.ScrollUp(1)
	case key.Matches(k, keys.RowDown):
		m.hist.ScrollDown(1)
	case key.Matches(k, keys.PageUp):
		m.hist.ScrollUp(max(1, m.height/2))
	case key.Matches(k, keys.PageDown):
		m.hist.ScrollDown(max(1, m.height/2))
	case key.Matches(k, keys.Top):
		m.hist.GotoTop()
	case key.Matches(k, keys.Bottom):
		m.hist.GotoBottom()
	}
	return nil
}

// defaultSaveName is the file name s offers.
func (m *Model) defaultSaveName() string { return safetext.Escape(m.ss.SaveName()) }
