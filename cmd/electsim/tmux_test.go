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

// The TUI end to end, in a real terminal: the built binary in tmux at 100×30, stepped with keys
// sent one at a time and in bursts (several keys in one write, as a paste or a slow link
// delivers them: none may be lost); shrunk too small, where keys do nothing; a mistake on the
// command line shown and mended; the leader crashed by a command typed in one burst; sped up in
// a burst and played until a new leader shows; R asked about and declined; quit with q — and
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
	// The shell in the pane records the exit status in a file: whether tmux notices that its
	// pane's process ended is up to tmux, and tmux 3.3 sometimes leaves it a zombie.
	dir := t.TempDir()
	stderr, status := filepath.Join(dir, "stderr"), filepath.Join(dir, "status")
	tmux("new-session", "-d", "-s", "e2e", "-x", "100", "-y", "30",
		fmt.Sprintf("%s tui bully-leader-crash --no-color 2>%s; echo $? >%s.tmp && mv %s.tmp %s; sleep 60", bin, stderr, status, status, status))
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
	// burst sends keys in one write: the program reads them together.
	burst := func(keys string) { tmux("send-keys", "-t", "e2e", "-l", keys) }
	waitFor("the first screen", func(s string) bool { return strings.Contains(s, "electsim · Bully: the leader crashes") })
	// Before the boot, r on node 1 would change nothing: refused, not recorded.
	key("r")
	waitFor("r refused", func(s string) bool { return strings.Contains(s, "recover 1: node 1 is not crashed — nothing done") })
	key("l", "l", "l", "l", "l", "l", "l", "l")
	waitFor("the boot of node 5", func(s string) bool { return strings.Contains(s, "step 8 ") && strings.Contains(s, "★5") })
	burst("lllll")
	waitFor("five steps in one burst", func(s string) bool { return strings.Contains(s, "step 13 ") })
	burst("hhh")
	waitFor("three steps back in one burst", func(s string) bool { return strings.Contains(s, "step 10 ") })
	burst("h,")
	waitFor("two more steps back in one burst", func(s string) bool { return strings.Contains(s, "step 8 ") && strings.Contains(s, "★5") })
	// Too small: the screen says so, and keys other than q do nothing until it is larger.
	tmux("resize-window", "-t", "e2e", "-x", "50", "-y", "12")
	waitFor("the too-small screen", func(s string) bool { return strings.Contains(s, "terminal too small") })
	key("l", "l", "c")
	tmux("resize-window", "-t", "e2e", "-x", "100", "-y", "30")
	waitFor("the screen back, unchanged", func(s string) bool {
		return strings.Contains(s, "step 8 ") && strings.Contains(s, "★5") && !strings.Contains(s, "✗1")
	})
	// A mistake on the command line shows at once, with the line open to mend it.
	key(":")
	key(strings.Split("crush 5", "")...)
	key("Enter")
	waitFor("the mistake", func(s string) bool {
		return strings.Contains(s, `unknown action "crush"`) && strings.Contains(s, ":crush 5")
	})
	key("C-u")
	key(strings.Split("crash 4", "")...)
	key("Escape")
	waitFor("the line closed", func(s string) bool { return !strings.Contains(s, ":crash 4") })
	// The whole command in one burst: the colon opens the line, the rest is its text.
	burst(":crash 5")
	waitFor("the command typed in one burst", func(s string) bool { return strings.Contains(s, ":crash 5") })
	key("Enter")
	waitFor("node 5 crashed", func(s string) bool { return strings.Contains(s, "✗5") && strings.Contains(s, "crash 5 at") })
	burst("]]]]")
	waitFor("four speeds up in one burst", func(s string) bool { return strings.Contains(s, "stopped, 128 steps/s") })
	key("Space")
	final := waitFor("a new leader", func(s string) bool { return strings.Contains(s, "★4") })
	if !strings.Contains(final, "✗5") || strings.Contains(final, "★5") {
		t.Errorf("node 5 should be crashed, 4 leading:\n%s", final)
	}
	// R asks before it forgets the crash; n keeps it.
	key("R")
	waitFor("the question", func(s string) bool { return strings.Contains(s, "forget 1 action of yours: crash 5 at") })
	key("n")
	waitFor("the answer", func(s string) bool { return strings.Contains(s, "nothing done") && strings.Contains(s, "✗5") })
	key("q")
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := os.ReadFile(status)
		if err == nil {
			if code := strings.TrimSpace(string(b)); code != "0" {
				dump, _ := os.ReadFile(stderr)
				t.Errorf("after q the process exited with status %s; stderr:\n%s", code, dump)
			}
			return
		}
		if time.Now().After(deadline) {
			// Still running: make Go print every goroutine's stack, to see what it waits for.
			exec.Command("pkill", "-QUIT", "-f", bin+" tui").Run()
			time.Sleep(time.Second)
			dump, _ := os.ReadFile(stderr)
			t.Fatalf("the process did not end after q; its goroutines:\n%s", dump)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
