package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// tmuxBinary is electsim built once for the tmux tests.
var tmuxBinary struct {
	once sync.Once
	path string
	err  error
}

// pane is electsim running in a tmux pane of its own server, as a user runs it in a terminal.
type pane struct {
	t              *testing.T
	socket         string
	stderr, status string // files: the program's standard error; its exit status, once it ended
}

// startPane builds electsim (once) and runs it with args in a 100×30 tmux pane, or skips the
// test where tmux is missing or tests are short. The pane's shell records the exit status in a
// file: whether tmux notices that its pane's process ended is up to tmux, and tmux 3.3 sometimes
// leaves it a zombie.
func startPane(t *testing.T, args ...string) *pane {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed; the end-to-end tests of the terminal UI need it")
	}
	if testing.Short() {
		t.Skip("builds the binary and drives it in tmux")
	}
	tmuxBinary.once.Do(func() {
		dir, err := os.MkdirTemp("", "electsim-e2e")
		if err != nil {
			tmuxBinary.err = err
			return
		}
		tmuxBinary.path = filepath.Join(dir, "electsim")
		if out, err := exec.Command("go", "build", "-o", tmuxBinary.path, ".").CombinedOutput(); err != nil {
			tmuxBinary.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if tmuxBinary.err != nil {
		t.Fatal(tmuxBinary.err)
	}
	dir := t.TempDir()
	p := &pane{t: t, socket: fmt.Sprintf("electsim-e2e-%d-%s", os.Getpid(), strings.ReplaceAll(t.Name(), "/", "-")),
		stderr: filepath.Join(dir, "stderr"), status: filepath.Join(dir, "status")}
	quoted := []string{tmuxBinary.path}
	for _, a := range args {
		quoted = append(quoted, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	t.Cleanup(func() { p.tmux("kill-server") })
	p.tmux("new-session", "-d", "-s", "e2e", "-x", "100", "-y", "30",
		fmt.Sprintf("%s 2>%s; echo $? >%s.tmp && mv %s.tmp %s; sleep 60", strings.Join(quoted, " "), p.stderr, p.status, p.status, p.status))
	return p
}

func (p *pane) tmux(args ...string) string {
	out, err := exec.Command("tmux", append([]string{"-L", p.socket}, args...)...).CombinedOutput()
	if err != nil && args[0] != "kill-server" {
		p.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// screen is what the pane shows now.
func (p *pane) screen() string { return p.tmux("capture-pane", "-p", "-t", "e2e") }

// waitFor waits until the screen is ok, and returns it.
func (p *pane) waitFor(what string, ok func(string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := p.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waiting for %s; the screen:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// shows waits until the screen holds every one of texts.
func (p *pane) shows(what string, texts ...string) string {
	p.t.Helper()
	return p.waitFor(what, func(s string) bool {
		for _, text := range texts {
			if !strings.Contains(s, text) {
				return false
			}
		}
		return true
	})
}

// key sends keys one at a time, as a person types them.
func (p *pane) key(keys ...string) {
	for _, k := range keys {
		p.tmux("send-keys", "-t", "e2e", k)
		time.Sleep(60 * time.Millisecond)
	}
}

// burst sends keys in one write, as a paste or a slow link delivers them: the program reads
// them together.
func (p *pane) burst(keys string) { p.tmux("send-keys", "-t", "e2e", "-l", keys) }

// exitStatus waits for the program to end and returns its exit status; the test fails if it
// does not end.
func (p *pane) exitStatus() int {
	p.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if b, err := os.ReadFile(p.status); err == nil {
			code, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			return code
		}
		if time.Now().After(deadline) {
			// Still running: make Go print every goroutine's stack, to see what it waits for.
			if pid := p.pid(); pid > 0 {
				exec.Command("kill", "-QUIT", strconv.Itoa(pid)).Run()
				time.Sleep(time.Second)
			}
			dump, _ := os.ReadFile(p.stderr)
			p.t.Fatalf("the process did not end; its goroutines:\n%s", dump)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// pid is the process id of electsim in the pane: the pane's shell's child, or 0.
func (p *pane) pid() int {
	shell := strings.TrimSpace(p.tmux("display-message", "-p", "-t", "e2e", "#{pane_pid}"))
	out, _ := exec.Command("pgrep", "-P", shell).Output()
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil {
			if cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); strings.HasPrefix(string(cmd), tmuxBinary.path) {
				return pid
			}
		}
	}
	return 0
}

// The TUI end to end, in a real terminal: the built binary in tmux at 100×30, stepped with keys
// sent one at a time and in bursts (several keys in one write, as a paste or a slow link
// delivers them: none may be lost); shrunk too small, where keys do nothing; a mistake on the
// command line shown and mended; the leader crashed by a command typed in one burst; sped up in
// a burst and played until a new leader shows; R asked about and declined; a long paste into
// the command line cut to what it holds; a save to a folder refused at once, then mended; quit
// with q — and the process is gone.
func TestTUIUnderTmux(t *testing.T) {
	p := startPane(t, "tui", "bully-leader-crash", "--no-color")
	p.shows("the first screen", "electsim · Bully: the leader crashes")
	// Before the boot, r on node 1 would change nothing: refused, not recorded.
	p.key("r")
	p.shows("r refused", "recover 1: node 1 is not crashed — nothing done")
	p.key("l", "l", "l", "l", "l", "l", "l", "l")
	p.shows("the boot of node 5", "step 8 ", "★5")
	p.burst("lllll")
	p.shows("five steps in one burst", "step 13 ")
	p.burst("hhh")
	p.shows("three steps back in one burst", "step 10 ")
	p.burst("h,")
	p.shows("two more steps back in one burst", "step 8 ", "★5")
	// Too small: the screen says so, and keys other than q do nothing until it is larger.
	p.tmux("resize-window", "-t", "e2e", "-x", "50", "-y", "12")
	p.shows("the too-small screen", "terminal too small")
	p.key("l", "l", "c")
	p.burst("llc")
	p.tmux("resize-window", "-t", "e2e", "-x", "100", "-y", "30")
	p.waitFor("the screen back, unchanged", func(s string) bool {
		return strings.Contains(s, "step 8 ") && strings.Contains(s, "★5") && !strings.Contains(s, "✗1")
	})
	// A mistake on the command line shows at once, with the line open to mend it.
	p.key(":")
	p.key(strings.Split("crush 5", "")...)
	p.key("Enter")
	p.shows("the mistake", `unknown action "crush"`, ":crush 5")
	p.key("C-u")
	p.key(strings.Split("crash 4", "")...)
	p.key("Escape")
	p.waitFor("the line closed", func(s string) bool { return !strings.Contains(s, ":crash 4") })
	// The whole command in one burst: the colon opens the line, the rest is its text.
	p.burst(":crash 5")
	p.shows("the command typed in one burst", ":crash 5")
	p.key("Enter")
	p.shows("node 5 crashed", "✗5", "crash 5 at")
	p.burst("]]]]")
	p.shows("four speeds up in one burst", "stopped, 0.5× (500ms/s)")
	p.key("Space")
	final := p.shows("a new leader", "★4")
	if !strings.Contains(final, "✗5") || strings.Contains(final, "★5") {
		t.Errorf("node 5 should be crashed, 4 leading:\n%s", final)
	}
	// R asks before it forgets the crash; n keeps it.
	p.key("R")
	p.shows("the question", "forget 1 action of yours: crash 5 at")
	p.key("n")
	p.shows("the answer", "nothing done", "✗5")
	// 100 KB pasted into the command line as a terminal without bracketed paste sends it, in
	// thousands of bursts: the line keeps what fits, says so, and the keys after it work.
	paste := filepath.Join(t.TempDir(), "paste")
	if err := os.WriteFile(paste, []byte(strings.Repeat("partition 1 2 | 3 4 5 ", 5000)), 0o644); err != nil {
		t.Fatal(err)
	}
	p.key(":")
	p.tmux("load-buffer", "-b", "big", paste)
	p.tmux("paste-buffer", "-b", "big", "-t", "e2e")
	p.shows("the paste cut", "the line holds at most 4096 characters: the rest was cut")
	p.key("Escape")
	p.waitFor("the line closed", func(s string) bool { return !strings.Contains(s, "the rest was cut") })
	// Saving to a folder says so at once, with the line still open to mend it.
	dir := t.TempDir()
	p.key("s", "C-u")
	p.burst(dir)
	p.key("Enter")
	p.shows("the folder refused, the line open", "is a folder: give a file name", "save session as: "+dir[:20])
	p.burst("/lesson.scn")
	p.key("Enter")
	p.shows("the session saved", "saved to "+dir[:20])
	if _, err := os.Stat(filepath.Join(dir, "lesson.scn")); err != nil {
		t.Errorf("the session was not saved: %v", err)
	}
	p.key("q")
	if code := p.exitStatus(); code != 0 {
		dump, _ := os.ReadFile(p.stderr)
		t.Errorf("after q the process exited with status %d; stderr:\n%s", code, dump)
	}
}

// A scenario file's title and narration holding escape sequences and a bidirectional override
// show written out: the terminal's title stays as it was, and nothing is reordered.
func TestTUIUnderTmuxShowsFileTextEscaped(t *testing.T) {
	file := filepath.Join(t.TempDir(), "t.scn")
	src := "title \x1b]0;PWNED\x07x \u202eevil\nalgo bully\nnodes 3\nrun 1s\nat 0ms say Hello \x1b]2;PWNED\x07 \u202emirror\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startPane(t, "tui", file, "--no-color")
	p.shows("the title written out", `electsim · \x1b]0;PWNED\x07x \u202eevil`)
	p.key("l")
	p.shows("the narration written out", `“Hello \x1b]2;PWNED\x07 \u202emirror”`)
	if title := strings.TrimSpace(p.tmux("display-message", "-p", "-t", "e2e", "#{pane_title}")); strings.Contains(title, "PWNED") {
		t.Errorf("the file retitled the terminal: %q", title)
	}
	p.key("q")
	if code := p.exitStatus(); code != 0 {
		t.Errorf("after q the process exited with status %d", code)
	}
}

// Killed by a signal — kill's TERM, an INT from outside the terminal — the TUI restores the
// terminal (the main screen back, the cursor shown) and exits with 128 + the signal's number, as
// electsim run does and a shell reports it.
func TestTUIUnderTmuxSignals(t *testing.T) {
	for _, sig := range []struct {
		name string
		code int
	}{{"TERM", 143}, {"INT", 130}, {"HUP", 129}} {
		t.Run(sig.name, func(t *testing.T) {
			p := startPane(t, "tui", "bully-leader-crash", "--no-color")
			p.shows("the first screen", "electsim · Bully: the leader crashes")
			p.key("l", "l")
			p.shows("two steps", "step 2 ")
			pid := p.pid()
			if pid == 0 {
				t.Fatal("electsim is not running in the pane")
			}
			if err := exec.Command("kill", "-"+sig.name, strconv.Itoa(pid)).Run(); err != nil {
				t.Fatal(err)
			}
			if code := p.exitStatus(); code != sig.code {
				dump, _ := os.ReadFile(p.stderr)
				t.Errorf("after SIG%s the process exited with status %d, want %d; stderr:\n%s", sig.name, code, sig.code, dump)
			}
			if state := strings.TrimSpace(p.tmux("display-message", "-p", "-t", "e2e", "#{alternate_on} #{cursor_flag}")); state != "0 1" {
				t.Errorf("the terminal is not restored: alternate screen and cursor flags %q, want \"0 1\"", state)
			}
		})
	}
}

// :crash leader in a real terminal: refused at once, saying who names whom, while no node
// leads; taken once one does, naming it; and stepping back over it and forward again comes back
// to it.
func TestTUIUnderTmuxCrashLeader(t *testing.T) {
	p := startPane(t, "tui", "bully-leader-crash", "--no-color")
	p.shows("the first screen", "electsim · Bully: the leader crashes")
	p.burst("llllllllllll")
	p.shows("twelve steps in one burst", "step 12 ")
	p.burst(":crash leader")
	p.key("Enter")
	p.shows("crash leader refused", "crash leader: no node leads at 7ms", "nodes 2 5 name 5 — nothing done")
	p.burst(strings.Repeat("l", 48))
	p.shows("48 more steps in one burst", "step 60 ")
	p.key(":")
	p.key(strings.Split("crash leader", "")...)
	p.key("Enter")
	p.shows("crash leader taken", "crash leader (node 5) at ", "✗5")
	screen := p.screen()
	p.key("l")
	p.burst("hh")
	p.key("l")
	p.waitFor("back over the crash and forward again", func(s string) bool {
		return strings.Contains(s, "✗5") && strings.Contains(s, "step "+stepOf(screen)+" ")
	})
	p.key("q")
	p.shows("q asks about the crash not saved", "Quit, and lose 1 action of yours not saved: crash leader at")
	p.key("y")
	if code := p.exitStatus(); code != 0 {
		t.Errorf("after q the process exited with status %d", code)
	}
}

// stepOf reads the step number off a screen's status line.
func stepOf(screen string) string {
	_, rest, _ := strings.Cut(screen, " · step ")
	n, _, _ := strings.Cut(rest, " ")
	return n
}

// The picture in a real terminal: played slowly, the messages in flight glide along the lines
// between the nodes — two reads of the canvas during play find the kinds' letters elsewhere —
// and the rate keys work typed one at a time and in a burst.
func TestTUIUnderTmuxPacketsMove(t *testing.T) {
	p := startPane(t, "tui", "bully-leader-crash", "--no-color")
	p.shows("the first screen", "electsim · Bully: the leader crashes")
	p.key("-")
	p.shows("the slowest rate", "stopped, 0.01× (10ms/s)")
	p.burst("++-")
	p.shows("two faster and one slower in a burst", "stopped, 0.02× (20ms/s)")
	p.key("-")
	p.shows("the slowest rate again", "stopped, 0.01× (10ms/s)")
	p.burst("ll") // the narration, the break at 0ms
	p.key("n")    // play on from the break: every node boots and sends
	first := p.waitFor("packets on the canvas", func(s string) bool { return len(packets(s)) > 0 })
	time.Sleep(400 * time.Millisecond)
	second := p.screen()
	a, b := packets(first), packets(second)
	if len(b) == 0 || a == b {
		t.Errorf("the packets did not move in 400ms of play at 0.01×:\n%s\nthen:\n%s", first, second)
	}
	if !strings.Contains(second, "▶ playing 0.01×") {
		t.Errorf("the status line does not say it plays at 0.01×:\n%s", second)
	}
	p.key("Space")
	p.shows("stopped", "stopped, 0.01×")
	p.key("q")
	if code := p.exitStatus(); code != 0 {
		t.Errorf("after q the process exited with status %d", code)
	}
}

// packets returns where the canvas of a screen of bully-leader-crash draws a message: the places
// of the kinds' letters (E, O, C) in the node panel above its legend, written out.
func packets(screen string) string {
	var out []string
	lines := strings.Split(screen, "\n")
	for y, line := range lines {
		if strings.Contains(line, "★ leader") {
			break
		}
		if y < 4 {
			continue // the title, status, counts and the panel's heading
		}
		left, _, _ := strings.Cut(line, "│")
		for x, r := range []rune(left) {
			if r == 'E' || r == 'O' || r == 'C' {
				out = append(out, fmt.Sprintf("%c@%d,%d", r, x, y))
			}
		}
	}
	return strings.Join(out, " ")
}
