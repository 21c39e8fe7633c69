package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The TUI end to end, in a real terminal: the built binary in tmux at 100×30, stepped, the
// leader crashed through the command line, played until a new leader shows, quit with q — and
// the process is gone.
func TestTUIUnderTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed; the end-to-end test of the terminal UI needs it")
	}
	if testing.Short() {
		t.Skip("builds the binary and drives it in tmux")
	}
	bin := filepath.Join(t.TempDir(), "electsim")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	socket := fmt.Sprintf("electsim-e2e-%d", os.Getpid())
	tmux := func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-L", socket}, args...)...).CombinedOutput()
		if err != nil && args[0] != "kill-server" {
			t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	defer tmux("kill-server")
	tmux("new-session", "-d", "-s", "e2e", "-x", "100", "-y", "30", bin+" tui bully-leader-crash --no-color")
	tmux("set-option", "-t", "e2e", "remain-on-exit", "on")
	screen := func() string { return tmux("capture-pane", "-p", "-t", "e2e") }
	waitFor := func(what string, ok func(string) bool) string {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			s := screen()
			if ok(s) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s; the screen:\n%s", what, s)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	key := func(keys ...string) {
		for _, k := range keys {
			tmux("send-keys", "-t", "e2e", k)
			time.Sleep(60 * time.Millisecond)
		}
	}
	waitFor("the first screen", func(s string) bool { return strings.Contains(s, "electsim · Bully: the leader crashes") })
	key("l", "l", "l", "l", "l", "l", "l", "l")
	waitFor("the boot of node 5", func(s string) bool { return strings.Contains(s, "step 8 ") && strings.Contains(s, "★5") })
	key(":")
	key(strings.Split("crash 5", "")...)
	key("Enter")
	waitFor("node 5 crashed", func(s string) bool { return strings.Contains(s, "✗5") })
	key("+", "+", "+", "+", "Space")
	final := waitFor("a new leader", func(s string) bool { return strings.Contains(s, "★4") })
	if !strings.Contains(final, "✗5") || strings.Contains(final, "★5") {
		t.Errorf("node 5 should be crashed, 4 leading:\n%s", final)
	}
	key("q")
	pane := ""
	waitFor("the process to end", func(string) bool {
		pane = strings.TrimSpace(tmux("list-panes", "-t", "e2e", "-F", "#{pane_dead} #{pane_dead_status}"))
		return strings.HasPrefix(pane, "1 ")
	})
	if pane != "1 0" {
		t.Errorf("the process ended with dead/status %q, want exit status 0", pane)
	}
}
