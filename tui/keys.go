package tui

import "github.com/charmbracelet/bubbles/key"

// keyMap is every key the TUI answers to (DESIGN §7; the conventions of mpv, lazygit and k9s).
// The help bar shows the short list, ? the full one.
type keyMap struct {
	Play, Step, Back, Continue   key.Binding
	Faster, Slower               key.Binding
	Next, Prev, Pick             key.Binding
	Crash, Recover, Pause, Elect key.Binding
	Command, Save, Filter        key.Binding
	Up, Down, Top, Bottom        key.Binding
	Restart, Help, Quit          key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		Play:     key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "play/pause")),
		Step:     key.NewBinding(key.WithKeys("right", "l", "."), key.WithHelp("→/l", "step")),
		Back:     key.NewBinding(key.WithKeys("left", "h", ","), key.WithHelp("←/h", "back")),
		Continue: key.NewBinding(key.WithKeys("n", "enter"), key.WithHelp("n/enter", "continue after a break")),
		Faster:   key.NewBinding(key.WithKeys("+", "]", "="), key.WithHelp("+/]", "faster")),
		Slower:   key.NewBinding(key.WithKeys("-", "["), key.WithHelp("-/[", "slower")),
		Next:     key.NewBinding(key.WithKeys("tab", "j"), key.WithHelp("tab/j", "next node")),
		Prev:     key.NewBinding(key.WithKeys("shift+tab", "k"), key.WithHelp("k", "previous node")),
		Pick:     key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "select node")),
		Crash:    key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "crash")),
		Recover:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "recover")),
		Pause:    key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause/resume")),
		Elect:    key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "elect")),
		Command:  key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "command")),
		Save:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save session")),
		Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter log")),
		Up:       key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "scroll log up")),
		Down:     key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "scroll log down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home", "log start")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end", "log end")),
		Restart:  key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "restart")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:     key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// ShortHelp is the help bar.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Play, k.Step, k.Back, k.Next, k.Crash, k.Command, k.Help, k.Quit}
}

// FullHelp is what ? shows, in columns.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Play, k.Step, k.Back, k.Continue, k.Faster, k.Slower},
		{k.Next, k.Prev, k.Pick, k.Crash, k.Recover, k.Pause, k.Elect},
		{k.Command, k.Save, k.Filter, k.Up, k.Down, k.Top, k.Bottom},
		{k.Restart, k.Help, k.Quit},
	}
}
