package tui

import (
	"fmt"
	"io"
	"path/filepath"
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
	"electsim/scenarios"
	"electsim/sim"
)

// Options configure the TUI.
type Options struct {
	Scenario *scenarios.Scenario // what is played: its name and title, shown and saved
	Config   sim.Config          // the run: the scenario's, with the command line's flags applied
	Output   io.Writer           // where the program draws: the renderer's colour profile is its
	NoColor  bool                // no colour at all (--no-color, NO_COLOR)
	SaveDir  string              // where `s` saves sessions; "" is the current directory
}

// speeds are the playback speeds, in steps per second.
var speeds = [...]int{1, 2, 4, 8, 16, 32, 64, 128, 256, 1024}

const defaultSpeed = 3 // 8 steps per second

// inputMode is what the input line is for, if anything.
type inputMode uint8

const (
	inputNone    inputMode = iota
	inputCommand           // : a scenario action
	inputFilter            // / the log filter
	inputSave              // s the file to save the session to
)

// Model is the TUI's bubbletea model.
type Model struct {
	opts Options
	keys keyMap
	help help.Model
	st   styles
	bar  progress.Model
	in   textinput.Model

	ss      *session
	nodes   []algo.ID // ring order
	sel     int       // the selected node, an index into nodes
	playing bool
	speed   int // index into speeds
	tick    int // the playback tick in flight; older ticks are stale

	width, height int
	showHelp      bool
	mode          inputMode
	filter        filter
	scroll        int // log lines scrolled up from the newest
	message       string
	messageErr    bool
	failed        any // what Update or View panicked with: the program quits and Err says it
}

// New returns the TUI, before its first step: the nodes are about to boot.
func New(o Options) (*Model, error) {
	ss, err := newSession(o.Config)
	if err != nil {
		return nil, err
	}
	r := lipgloss.DefaultRenderer()
	if o.Output != nil {
		r = lipgloss.NewRenderer(o.Output)
	}
	m := &Model{opts: o, keys: newKeyMap(), st: newStyles(r, o.NoColor), ss: ss,
		nodes: o.Config.IDs, speed: defaultSpeed, width: 100, height: 30}
	m.help = help.New()
	m.help.Styles.ShortKey = m.st.bold
	m.help.Styles.ShortDesc = m.st.help
	m.help.Styles.FullKey = m.st.bold
	m.help.Styles.FullDesc = m.st.help
	m.help.Styles.ShortSeparator = m.st.help
	m.help.Styles.FullSeparator = m.st.help
	m.bar = progress.New(progress.WithoutPercentage(), progress.WithSolidFill("#5f87d7"))
	if o.NoColor {
		m.bar = progress.New(progress.WithoutPercentage(), progress.WithColorProfile(termenv.Ascii), progress.WithSolidFill(""))
		m.bar.Full, m.bar.Empty = '#', '.'
	}
	m.in = textinput.New()
	m.in.Prompt = ""
	return m, nil
}

// Close stops the run's goroutines. The program does it when it quits.
func (m *Model) Close() { m.ss.close() }

// Init starts nothing: the user steps or plays.
func (m *Model) Init() tea.Cmd { return nil }

type tickMsg struct{ n int }

// nextTick schedules the next playback tick.
func (m *Model) nextTick() tea.Cmd {
	m.tick++
	n := m.tick
	every := time.Second / time.Duration(speeds[m.speed])
	return tea.Tick(max(every, time.Second/60), func(time.Time) tea.Msg { return tickMsg{n} })
}

// stepsPerTick is how many steps a tick runs: above 60 steps a second, several per frame.
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
	return m.update(msg)
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.Width = msg.Width
		return m, nil
	case tickMsg:
		if !m.playing || msg.n != m.tick {
			return m, nil
		}
		for range m.stepsPerTick() {
			if !m.stepOnce() {
				break
			}
		}
		if m.playing {
			return m, m.nextTick()
		}
		return m, nil
	case tea.KeyMsg:
		if m.mode != inputNone {
			return m, m.updateInput(msg)
		}
		return m, m.updateKey(msg)
	}
	return m, nil
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

// updateKey handles a key outside the input line.
func (m *Model) updateKey(k tea.KeyMsg) tea.Cmd {
	m.message = ""
	keys := m.keys
	switch {
	case key.Matches(k, keys.Quit):
		m.playing = false
		return tea.Quit
	case key.Matches(k, keys.Help):
		m.showHelp = !m.showHelp
	case key.Matches(k, keys.Play):
		m.playing = !m.playing
		if m.playing {
			if m.ss.s.Done() {
				m.playing = false
				m.say("the run is over — ← goes back, R starts again", false)
				return nil
			}
			m.scroll = 0
			return m.nextTick()
		}
	case key.Matches(k, keys.Continue):
		if _, atBreak := m.ss.narration(); atBreak {
			m.playing = true
			m.scroll = 0
			return m.nextTick()
		}
		m.stepOnce()
	case key.Matches(k, keys.Step):
		m.playing = false
		m.stepOnce()
	case key.Matches(k, keys.Back):
		m.playing = false
		if len(m.ss.steps) == 0 {
			m.say("this is the start of the run", false)
		} else if err := m.ss.back(); err != nil {
			m.say(err.Error(), true)
		}
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
		m.act(sim.Action{Op: sim.Crash, Nodes: []algo.ID{m.nodes[m.sel]}})
	case key.Matches(k, keys.Recover):
		m.act(sim.Action{Op: sim.Recover, Nodes: []algo.ID{m.nodes[m.sel]}})
	case key.Matches(k, keys.Pause):
		op := sim.Pause
		if m.nodeView(m.nodes[m.sel]).Status == sim.Paused {
			op = sim.Resume
		}
		m.act(sim.Action{Op: op, Nodes: []algo.ID{m.nodes[m.sel]}})
	case key.Matches(k, keys.Elect):
		m.act(sim.Action{Op: sim.Elect, Nodes: []algo.ID{m.nodes[m.sel]}})
	case key.Matches(k, keys.Command):
		return m.startInput(inputCommand, "")
	case key.Matches(k, keys.Filter):
		return m.startInput(inputFilter, m.filter.text)
	case key.Matches(k, keys.Save):
		return m.startInput(inputSave, m.defaultSaveName())
	case key.Matches(k, keys.Up):
		m.scroll = min(m.scroll+m.logHeight()/2, m.maxScroll())
	case key.Matches(k, keys.Down):
		m.scroll = max(0, m.scroll-m.logHeight()/2)
	case key.Matches(k, keys.Top):
		m.scroll = m.maxScroll()
	case key.Matches(k, keys.Bottom):
		m.scroll = 0
	case key.Matches(k, keys.Restart):
		m.playing = false
		m.ss.user = nil
		if err := m.ss.restart(); err != nil {
			m.say(err.Error(), true)
		} else {
			m.say("started again from the beginning", false)
		}
	}
	return nil
}

// act takes a user's action, now.
func (m *Model) act(a sim.Action) {
	if _, err := m.ss.act(a); err != nil {
		m.say(err.Error(), true)
		return
	}
	m.scroll = 0
	m.say(fmt.Sprintf("%s at %s", a, algo.FormatDuration(m.ss.user[len(m.ss.user)-1].At)), false)
}

func (m *Model) nodeView(id algo.ID) sim.NodeView {
	for _, n := range m.ss.s.Nodes() {
		if n.ID == id {
			return n
		}
	}
	return sim.NodeView{ID: id}
}

// startInput opens the input line for mode, with value in it.
func (m *Model) startInput(mode inputMode, value string) tea.Cmd {
	m.playing = false
	m.mode = mode
	m.in.SetValue(value)
	m.in.CursorEnd()
	m.in.Width = max(10, m.width-20)
	return m.in.Focus()
}

// updateInput handles a key while the input line is open: enter takes it, esc drops it.
func (m *Model) updateInput(k tea.KeyMsg) tea.Cmd {
	switch k.Type {
	case tea.KeyEsc:
		m.mode = inputNone
		m.in.Blur()
		return nil
	case tea.KeyEnter:
		text := strings.TrimSpace(m.in.Value())
		mode := m.mode
		m.mode = inputNone
		m.in.Blur()
		m.take(mode, text)
		return nil
	}
	var cmd tea.Cmd
	m.in, cmd = m.in.Update(k)
	return cmd
}

// take does what the input line asked for.
func (m *Model) take(mode inputMode, text string) {
	switch mode {
	case inputCommand:
		if text == "" {
			return
		}
		a, err := scenarios.ParseAction(text, scenarios.NewMembers(m.nodes))
		if err != nil {
			m.say(err.Error(), true)
			m.mode = inputCommand // keep the line, to mend it
			m.in.SetValue(text)
			m.in.Focus()
			return
		}
		m.act(a)
	case inputFilter:
		f, err := parseFilter(text, m.opts.Config.Algorithm)
		if err != nil {
			m.say(err.Error(), true)
			return
		}
		m.filter = f
		m.scroll = 0
	case inputSave:
		if text == "" {
			return
		}
		path := text
		if !filepath.IsAbs(path) && m.opts.SaveDir != "" {
			path = filepath.Join(m.opts.SaveDir, path)
		}
		name := strings.TrimSuffix(filepath.Base(path), ".scn")
		sc := m.ss.scenario(name, m.title()+" (a saved session)")
		if err := scenarios.Save(path, sc); err != nil {
			m.say(err.Error(), true)
			return
		}
		m.say(fmt.Sprintf("saved to %s — electsim run %s replays it", path, path), false)
	}
}

func (m *Model) defaultSaveName() string {
	name := "session"
	if m.opts.Scenario != nil && m.opts.Scenario.Name != "" {
		name = m.opts.Scenario.Name + "-session"
	}
	return name + ".scn"
}

func (m *Model) title() string {
	if m.opts.Scenario != nil && m.opts.Scenario.Title != "" {
		return m.opts.Scenario.Title
	}
	return m.opts.Config.Algorithm.Name + " election"
}

// maxScroll is how far up the log can scroll: to its first line at the top.
func (m *Model) maxScroll() int {
	n := 0
	for _, ls := range m.ss.steps {
		if m.filter.match(ls, m.opts.Config.Algorithm) {
			n++
		}
	}
	return max(0, n-m.logHeight())
}
