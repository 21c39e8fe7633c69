package tui

import "github.com/charmbracelet/bubbles/key"

// keyMap is every key the TUI answers to (the README's "The terminal UI" lists them; the
// conventions of mpv, lazygit and k9s). The help bar shows the short list, ? the full one.
type keyMap struct {
	Play, Step, Back, Continue          key.Binding
	Faster, Slower                      key.Binding
	Next, Prev, Pick                    key.Binding
	Crash, Recover, Pause, Elect        key.Binding
	Command, Save, Filter               key.Binding
	RowUp, RowDown, PageUp, PageDown    key.Binding
	Top, Bottom                         key.Binding
	History, Restart, Help, Close, Quit key.Binding
	Theme                               key.Binding
	Yes, No                             key.Binding // the answers to a question in the status line
}

func newKeyMap() keyMap {
	return keyMap{
		Play:     key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "play/pause")),
		Step:     key.NewBinding(key.WithKeys("right", "l", "."), key.WithHelp("→/l", "step")),
		Back:     key.NewBinding(key.WithKeys("left", "h", ","), key.WithHelp("←/h", "back")),
		Continue: key.NewBinding(key.WithKeys("n", "enter"), key.WithHelp("n/enter", "go on at a break")),
		Faster:   key.NewBinding(key.WithKeys("+", "]", "="), key.WithHelp("+/]", "faster")),
		Slower:   key.NewBinding(key.WithKeys("-", "["), key.WithHelp("-/[", "slower")),
		Next:     key.NewBinding(key.WithKeys("tab", "j"), key.WithHelp("tab/j", "next node")),
		Prev:     key.NewBinding(key.WithKeys("shift+tab", "k"), key.WithHelp("k", "previous node")),
		Pick:     key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "pick a node")),
		Crash:    key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "crash it")),
		Recover:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "recover it")),
		Pause:    key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause/resume")),
		Elect:    key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "it elects")),
		Command:  key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "command")),
		Save:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save session")),
		Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter log")),
		RowUp:    key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "older row")),
		RowDown:  key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "newer row")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home", "first row")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end", "follow newest")),
		History:  key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "narration")),
		Theme:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "theme: auto, dark, light, contrast")),
		Restart:  key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "restart")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Close:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
		Quit:     key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Yes:      key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes")),
		No:       key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n/esc", "no")),
	}
}

// ShortHelp is the help bar.
func (k keyMap) ShortHelp() []key.Binding {
	next, crash := k.Next, k.Crash
	next.SetHelp("tab", "node")
	crash.SetHelp("c", "crash")
	return []key.Binding{k.Play, k.Step, k.Back, next, crash, k.Command, k.History, k.Help}
}

// FullHelp is what ? shows, in columns.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Play, k.Step, k.Back, k.Continue, k.Faster, k.Slower, k.Restart},
		{k.Next, k.Prev, k.Pick, k.Crash, k.Recover, k.Pause, k.Elect},
		{k.RowUp, k.RowDown, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Filter},
		{k.Command, k.Save, k.History, k.Theme, k.Help, k.Close, k.Quit},
	}
}
