package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
	"golang.org/x/term"

	"electsim/scenarios"
	"electsim/tui"
)

// tuiCommand opens the interactive terminal UI on a scenario: the one named, or the run the
// flags describe, or the default demo.
func tuiCommand(args []string, stdout, stderr io.Writer, getenv env) error {
	return interactive("tui", scenarios.DefaultDemo, args, stdout, stderr, getenv)
}

// interactive runs the TUI on what headless would play with the same args (scenarioFor): a
// scenario named in args, or the run the flags describe, or demo; with the run flags applied.
func interactive(cmd, demo string, args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlagSet(cmd)
	var rf runFlags
	rf.register(fs)
	theme := fs.String("theme", "", "colours: dark, light or contrast (a projector: no faint or grey text); t cycles them; default: follow the terminal")
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "Usage: electsim tui [SCENARIO] [flags]\n\nPlays a scenario — a .scn file or a bundled one — or the run the flags describe, in the\nterminal, step by step or at a speed, with the faults at your fingertips. Without a scenario\nor --algo, --nodes, --ids, it plays the default demo. ? shows the keys.")
		fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
		fmt.Fprintln(w, "\nKeys: space play/pause · →/l step · ←/h step back · +/- speed · tab/j/k/1-9 select node ·\nc crash · r recover · p pause/resume · e elect · ↑/↓ log row · : command · s save session ·\n/ filter · H narration · t theme · R restart · ? help · esc close · q quit · mouse: click a node or\na log row, the wheel scrolls the log")
	}
	if help, err := parseFlags(fs, args, stdout, usage); help || err != nil {
		return err
	}
	if *theme != "" && !slices.Contains(tui.ThemeNames(), *theme) {
		return usagef("--theme %q: expected %s", *theme, strings.Join(tui.ThemeNames(), ", "))
	}
	sc, err := scenarioFor(demo, fs)
	if err != nil {
		return err
	}
	cfg, err := rf.apply(fs, sc)
	if err != nil {
		return err
	}
	out, ok := fileOf(stdout)
	if !ok || !term.IsTerminal(int(out.Fd())) {
		words := withoutTheme(args) // electsim run has no colours to choose
		if fs.NArg() == 0 && sc.Name != "" {
			words = append([]string{sc.Name}, words...) // the demo
		}
		return usagef("the terminal UI needs a terminal; %s plays it headless", strings.Join(append([]string{"electsim run"}, words...), " "))
	}
	for _, w := range cfg.Warnings() {
		fmt.Fprintf(stderr, "electsim: warning: %s\n", w)
	}
	for _, n := range rf.notes {
		fmt.Fprintf(stderr, "electsim: note: %s\n", n)
	}
	if sc.Name == "" {
		sc = nil // a run the flags describe: no title, narration nor expectations of its own
	}
	m, err := tui.New(tui.Options{Scenario: sc, Config: cfg, Output: out,
		NoColor: rf.noColor || getenv("NO_COLOR") != "", Theme: *theme})
	if err != nil {
		return usagef("%v", err)
	}
	defer m.Close()
	// The program restores the terminal on every way out: q, ctrl+c, a signal, a panic. A signal
	// — kill's TERM, an INT from outside the terminal, the terminal's HUP — ends it as it ends
	// electsim run: with 128 + the signal's number, as a shell reports a process it killed.
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithOutput(out), tea.WithoutSignalHandler(), tea.WithMouseCellMotion())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	caught := make(chan os.Signal, 1)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			caught <- s
			p.Kill() // Run restores the terminal and returns
		case <-done:
		}
	}()
	_, err = p.Run()
	signal.Stop(sigs)
	close(done)
	select {
	case s := <-caught:
		m.Close()
		os.Exit(128 + int(s.(syscall.Signal)))
	default:
	}
	if err != nil {
		return fmt.Errorf("the terminal UI failed: %v", err)
	}
	if err := m.Err(); err != nil {
		panic(err.Error()) // a bug: the guard reports it in one line, the terminal is restored
	}
	return nil
}

// withoutTheme returns args without --theme and its value.
func withoutTheme(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--theme" || a == "-theme":
			i++ // its value
		case strings.HasPrefix(a, "--theme=") || strings.HasPrefix(a, "-theme="):
		default:
			out = append(out, a)
		}
	}
	return out
}

// wantsTUI reports whether bare electsim, with args, should open the TUI: on a terminal, unless
// a flag asks for headless output.
func wantsTUI(args []string, stdout io.Writer) bool {
	out, ok := fileOf(stdout)
	if !ok || !term.IsTerminal(int(out.Fd())) || !term.IsTerminal(int(os.Stdin.Fd())) {
		return false
	}
	return !slices.ContainsFunc(args, func(a string) bool {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		return strings.HasPrefix(a, "-") && slices.Contains([]string{"json", "quiet", "q", "all", "trace", "svg", "mermaid", "shiviz"}, name)
	})
}
