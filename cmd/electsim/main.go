package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"electsim/internal/human"
	"electsim/internal/safetext"
	"electsim/scenarios"
)

func main() {
	os.Exit(electsim(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

// Exit codes (README, "The run flags"; docs/properties.md for check).
const (
	exitOK       = 0
	exitFailed   = 1 // an expectation failed, or check found a violation
	exitBadUsage = 2 // bad usage or a bad scenario
)

// usageError is a mistake in how electsim was called; it exits 2 with one line on stderr.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// env is how electsim reads its environment (NO_COLOR), so tests can set it.
type env func(string) string

type command struct {
	name, args, summary string
	run                 func(args []string, stdout, stderr io.Writer, getenv env) error
}

func commands() []command {
	return []command{
		{"run", "[SCENARIO] [flags]", "play a scenario (a .scn file or a bundled one) or a run the flags describe", runCommand},
		{"tui", "[SCENARIO] [flags]", "play a scenario in the interactive terminal UI", tuiCommand},
		{"web", "[SCENARIO] [flags]", "play a scenario in your browser", webCommand},
		{"check", "[flags] --faults LIST", "check a property under random fault schedules; shrink what breaks it", checkCommand},
		{"bench", "[flags]", "elections at scale: messages against theory, time and memory", benchCommand},
		{"sweep", "[SCENARIO] --param KEY=VALUES", "vary one parameter: false suspicions, recovery time, messages per value", sweepCommand},
		{"scenarios", "", "list the bundled scenarios", scenariosCommand},
		{"algorithms", "", "list the algorithms with their kinds and parameters", algorithmsCommand},
	}
}

// version says which electsim this is: the module's version (or the commit it was built from)
// and the Go that built it.
func version() string {
	v, rev, dirty := "(devel)", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" && !strings.Contains(v, rev) { // a pseudo-version names the commit already
		v += " " + rev
	}
	if dirty && !strings.HasSuffix(v, "+dirty") {
		v += " (modified)"
	}
	return fmt.Sprintf("electsim %s · %s %s/%s", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// guard runs f and turns a panic — a bug in electsim, never the user's fault — into one line
// on stderr and exit 2. The stack is for developers: ELECTSIM_DEBUG=1 prints it.
func guard(stderr io.Writer, getenv env, f func() int) (code int) {
	defer func() {
		if p := recover(); p != nil {
			msg, stack, _ := strings.Cut(fmt.Sprint(p), "\n")
			fmt.Fprintf(stderr, "electsim: internal error: %s — this is a bug in electsim; please report it with the command line that caused it (runs are reproducible)\n", msg)
			if getenv("ELECTSIM_DEBUG") != "" {
				fmt.Fprintf(stderr, "%s\n%s", stack, debug.Stack())
			}
			code = exitBadUsage
		}
	}()
	return f()
}

// electsim runs the command line and returns the exit code. What a command prints on standard
// output is checked once, at the end: a table or a list that could not be written (a full disk,
// a closed terminal) is an error, exit 2, not a silent success.
func electsim(args []string, stdout, stderr io.Writer, getenv env) int {
	out := &checkedWriter{w: stdout}
	code := guard(stderr, getenv, func() int { return dispatch(args, out, stderr, getenv) })
	if out.err != nil && code != exitBadUsage {
		fmt.Fprintf(stderr, "electsim: %v; nothing after that was written\n", out.err)
		code = exitBadUsage
	}
	return code
}

// checkedWriter passes writes on and keeps the first error, failing every write after it. The
// error says it was standard output that could not be written: a command that prints it says
// what went wrong, not "write /dev/stdout".
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = stdoutError{err}
	}
	return n, c.err
}

// stdoutError is a failed write to standard output.
type stdoutError struct{ err error }

func (e stdoutError) Error() string {
	why := e.err
	var pe *fs.PathError
	if errors.As(why, &pe) {
		why = pe.Err // the path is /dev/stdout, or the terminal's: no news to the user
	}
	return "cannot write to standard output: " + why.Error()
}

func (e stdoutError) Unwrap() error { return e.err }

// fileOf returns the file behind w, if w is one or passes its writes to one: what decides
// whether output goes to a terminal.
func fileOf(w any) (*os.File, bool) {
	if c, ok := w.(*checkedWriter); ok {
		w = c.w
	}
	f, ok := w.(*os.File)
	return f, ok
}

func dispatch(args []string, stdout, stderr io.Writer, getenv env) int {
	name := "electsim"
	var err error
	if len(args) == 2 && args[0] == "help" {
		args = []string{args[1], "-h"} // electsim help run = electsim run -h
	}
	switch {
	case len(args) > 2 && args[0] == "help":
		err = usagef("help takes one command, e.g. electsim help run; got %q", args[1:])
	case len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help"):
		topUsage(stdout)
		return exitOK
	case len(args) > 0 && (args[0] == "--version" || args[0] == "version"):
		if len(args) > 1 {
			err = usagef("%s takes nothing else, got %q", args[0], args[1:])
			break
		}
		fmt.Fprintln(stdout, version())
		return exitOK
	case len(args) == 0 || strings.HasPrefix(args[0], "-"):
		// Bare electsim, with or without run flags: the default demo — in the TUI on a
		// terminal, headless otherwise.
		if wantsTUI(args, stdout) {
			err = interactive("electsim", scenarios.DefaultDemo, args, stdout, stderr, getenv)
		} else {
			err = demoCommand(args, stdout, stderr, getenv)
		}
	default:
		var cmd *command
		for _, c := range commands() {
			if c.name == args[0] {
				cmd = &c
			}
		}
		if cmd == nil {
			err = usagef("unknown command %q (commands: %s; see electsim -h)", args[0], commandNames())
			break
		}
		name += " " + cmd.name
		err = cmd.run(args[1:], stdout, stderr, getenv)
	}
	var failed failedError
	var usage *usageError
	var mistakes mistakesError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &mistakes):
		for _, e := range mistakes.list {
			fmt.Fprintln(stderr, safetext.EscapeLines(e.Error()))
		}
		fmt.Fprintf(stderr, "%s: %s in %s; nothing ran\n", name, human.Plural(mistakes.list.Count(), "mistake"), safetext.EscapeLines(mistakes.what))
		return exitBadUsage
	case errors.As(err, &failed):
		return exitFailed
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "%s: %s\n", name, safetext.EscapeLines(usage.msg))
		return exitBadUsage
	default:
		fmt.Fprintf(stderr, "%s: %s\n", name, safetext.EscapeLines(err.Error()))
		return exitBadUsage
	}
}

// mistakesError is the mistakes of a scenario — in the file, or its lines that the flags of a
// run make wrong: each is printed at its position, then how many there are in what.
type mistakesError struct {
	list scenarios.ErrorList
	what string // "bully-partition with --nodes 3"
}

func (e mistakesError) Error() string { return fmt.Sprintf("%d mistakes in %s", len(e.list), e.what) }

// failedError means the run worked and reported a failure (an expectation or a violation); the
// report is already printed.
type failedError struct{}

func (failedError) Error() string { return "failed" }

func commandNames() string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
}

func topUsage(w io.Writer) {
	fmt.Fprintln(w, `electsim — an educational simulator of leader-election algorithms

Usage:
  electsim [flags]                 the default demo (a Bully election whose leader crashes) —
                                   or, with --algo, --nodes or --ids, the run those flags
                                   describe: the terminal UI on a terminal, headless otherwise`)
	for _, c := range commands() {
		usage := strings.TrimSpace(c.name + " " + c.args)
		if len(usage) > 23 {
			// Too long for the column: the summary goes on the next line.
			fmt.Fprintf(w, "  electsim %s\n%35s%s\n", usage, "", c.summary)
			continue
		}
		fmt.Fprintf(w, "  electsim %-23s %s\n", usage, c.summary)
	}
	fmt.Fprintln(w, `
Every command takes -h for its flags (or: electsim help run); electsim --version says which
electsim this is. Exit codes: 0 success; 1 a scenario's expectation failed, the checker found a
violation, or a bench count differs from its theory; 2 bad usage, a bad scenario, or a run that
could not finish (out of memory; leader named when no node leads). A run that shows a violation
still exits 0: the violation is the lesson, not an error.`)
}
