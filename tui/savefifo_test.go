package tui

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Saving to a named pipe is refused at once, while the line stays open to mend it — opening one
// for writing would wait for a reader, and the TUI with it, keys and all (issue 28, item 11) —
// and so is a device; mended, the session is saved.
func TestSaveToANamedPipe(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	fifo := filepath.Join(m.opts.SaveDir, "pipe.scn")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	steps(m, 3)
	press(m, "c")
	for _, c := range []struct{ typed, want string }{
		{"pipe.scn", fifo + " is a named pipe, not a file: give the name of a file, such as bully-boot-session.scn"},
		{os.DevNull, os.DevNull + " is a character device (such as /dev/null or a terminal), not a file: give the name of a file"},
		{"/dev/stdout", "/dev/stdout is an open descriptor (a standard stream, /dev/fd/N), not a file"},
	} {
		press(m, "s")
		typeText(m, c.typed)
		if m.ask != nil || m.mode != inputSave || !strings.HasPrefix(m.inErr, c.want) {
			t.Fatalf("%s: ask %+v, mode %d, error %q\nwant %s", c.typed, m.ask, m.mode, m.inErr, c.want)
		}
		press(m, "esc")
	}
	press(m, "s")
	typeText(m, "lesson.scn")
	if m.mode != inputNone || !strings.Contains(m.message, "saved to "+filepath.Join(m.opts.SaveDir, "lesson.scn")) {
		t.Errorf("mended: mode %d, message %q", m.mode, m.message)
	}
}
