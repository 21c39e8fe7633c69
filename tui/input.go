package tui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"

	"electsim/internal/outfile"
	"electsim/internal/safetext"
	"electsim/scenarios"
)

// startInput opens the input line for mode, with value in it.
func (m *Model) startInput(mode inputMode, value string) tea.Cmd {
	m.playing = false
	m.mode = mode
	m.inErr = ""
	m.in.SetValue(value)
	m.in.CursorEnd()
	m.inLen = utf8.RuneCountInString(m.in.Value())
	m.inEdits++
	m.sizeInput()
	return m.in.Focus()
}

// sizeInput fits the input line to the terminal, after its label.
func (m *Model) sizeInput() {
	label, _ := m.inputText()
	m.in.Width = max(10, m.width-len([]rune(label))-2)
}

// closeInput closes the input line.
func (m *Model) closeInput() {
	m.mode = inputNone
	m.inErr = ""
	m.in.Blur()
}

// updateInput handles a key while the input line is open: enter takes it, esc drops it. A
// mistake shows at once, whole, and the line stays open to mend it.
func (m *Model) updateInput(k tea.KeyMsg) tea.Cmd {
	if (k.Type == tea.KeyRunes || k.Type == tea.KeySpace) && !k.Alt {
		return m.insert(k.Runes, k.Paste)
	}
	switch k.Type {
	case tea.KeyCtrlC:
		return m.quitAsking()
	case tea.KeyEsc:
		m.closeInput()
		return nil
	case tea.KeyEnter:
		text := strings.TrimSpace(m.in.Value())
		if err := m.take(text); err != nil {
			m.inErr = err.Error()
			return nil
		}
		return nil
	}
	var cmd tea.Cmd
	m.in, cmd = m.in.Update(k)
	m.inLen = utf8.RuneCountInString(m.in.Value())
	m.inEdits++
	return cmd
}

// maxLine is the most characters the input line holds: far more than any action needs (a
// partition names one side; the nodes it does not name form the other), and few enough that
// editing the line stays cheap whatever is pasted into it.
const maxLine = 4096

// insert types runes into the input line at its cursor, as many as fit in maxLine: what is cut
// is said. A paste's line breaks and tabs become spaces; what else a terminal could act on —
// an escape sequence, a bidirectional control — is written out (safetext), so that the line
// shows what it holds. Into a full line, it does nothing but say so.
func (m *Model) insert(runes []rune, paste bool) tea.Cmd {
	room := maxLine - m.inLen
	cut := len(runes) > room
	runes = runes[:max(0, min(len(runes), room))] // escaping can only lengthen them
	text := safetext.Escape(strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' || r == '\t' {
			return ' '
		}
		return r
	}, string(runes)))
	if runes = []rune(text); len(runes) > room {
		runes, cut = runes[:room], true
	}
	if cut {
		m.inErr = fmt.Sprintf("the line holds at most %d characters: the rest was cut", maxLine)
	}
	if len(runes) == 0 {
		return nil
	}
	var cmd tea.Cmd
	m.in, cmd = m.in.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: runes, Paste: paste})
	m.inLen = utf8.RuneCountInString(m.in.Value())
	m.inEdits++
	return cmd
}

// take does what the input line asks for, and closes it; or says what is wrong, and leaves it
// open.
func (m *Model) take(text string) error {
	switch m.mode {
	case inputCommand:
		if text == "" {
			m.closeInput()
			return nil
		}
		a, err := scenarios.ParseAction(text, m.ss.Members())
		if err != nil {
			return err
		}
		m.closeInput()
		m.act(a, false)
	case inputFilter:
		f, err := parseFilter(text, m.opts.Config.Algorithm, m.nodes)
		if err != nil {
			return err
		}
		m.closeInput()
		m.log.setFilter(f)
		if f.text == "" {
			m.say("filter cleared", false)
		}
	case inputSave:
		if text == "" {
			m.closeInput()
			return nil
		}
		path := text
		if !filepath.IsAbs(path) && m.opts.SaveDir != "" {
			path = filepath.Join(m.opts.SaveDir, path)
		}
		switch err := outfile.CheckFile(path); {
		case errors.Is(err, outfile.ErrIsDir):
			return fmt.Errorf("%s is a folder: give a file name, such as %s", path, filepath.Join(text, m.defaultSaveName()))
		case err != nil:
			// A named pipe would hold the TUI waiting for a reader; a device is no file to save.
			return fmt.Errorf("%s %v: give the name of a file, such as %s", path, err, m.defaultSaveName())
		}
		if _, err := os.Stat(path); err == nil {
			m.closeInput()
			m.ask = &question{fmt.Sprintf("%s exists already. Replace it with this session? y/n", path), func() tea.Cmd {
				m.save(path)
				return nil
			}, false}
			return nil
		}
		if err := m.save(path); err != nil {
			return err
		}
		m.closeInput()
	}
	return nil
}

// save writes the session to path.
func (m *Model) save(path string) error {
	name := strings.TrimSuffix(filepath.Base(path), ".scn")
	if err := scenarios.WriteFile(path, m.ss.File(name, "electsim tui")); err != nil {
		m.say(err.Error(), true)
		return err
	}
	m.saved = m.ss.User()
	m.say(fmt.Sprintf("saved to %s — electsim run %s replays it", path, path), false)
	return nil
}
