package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The TUI in a real terminal (issue 28, items 11 and 17): a save to a named pipe is refused at
// once — the TUI goes on answering keys, where opening the pipe would have held it forever —
// and q with an action not saved asks before it quits: typed one key at a time, n stays; in
// one burst, q and y quit, and the process is gone.
func TestTUIQuitAsksUnderTmux(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe.scn")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	p := startPane(t, "tui", "bully-boot", "--no-color")
	p.shows("the first screen", "electsim · Bully at boot")
	p.burst(strings.Repeat("l", 12))
	p.shows("twelve steps", "step 12 ")
	p.key("c")
	p.shows("node 1 crashed", "crash 1 at 11ms")
	p.key("s", "C-u")
	p.burst(fifo)
	p.key("Enter")
	p.shows("the pipe refused", "is a named pipe, not a file")
	p.key("Escape")
	p.key("q")
	p.shows("the question", "Quit, and lose 1 action of yours not saved: crash 1 at 11ms?")
	p.key("n")
	p.shows("still running", "nothing done", "step 19 ")
	p.key("l")
	p.shows("a step after n", "step 20 ")
	p.burst("qy")
	if code := p.exitStatus(); code != 0 {
		t.Errorf("exit status %d after q y", code)
	}
}
