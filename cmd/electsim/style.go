package main

import (
	"os"

	"golang.org/x/term"

	"electsim/sim"
)

// palette colours the human output with ANSI escapes, or not at all.
type palette struct{ on bool }

// colorFor decides whether to colour output to w: only on a terminal, never with --no-color or
// NO_COLOR (https://no-color.org).
func colorFor(w any, noColor bool, getenv env) palette {
	if noColor || getenv("NO_COLOR") != "" {
		return palette{}
	}
	f, ok := w.(*os.File)
	return palette{on: ok && term.IsTerminal(int(f.Fd()))}
}

func (p palette) sgr(code, s string) string {
	if !p.on || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p palette) dim(s string) string     { return p.sgr("2", s) }
func (p palette) bold(s string) string    { return p.sgr("1", s) }
func (p palette) red(s string) string     { return p.sgr("31", s) }
func (p palette) green(s string) string   { return p.sgr("32", s) }
func (p palette) fault(s string) string   { return p.sgr("1;35", s) }
func (p palette) say(s string) string     { return p.sgr("3;32", s) }
func (p palette) heading(s string) string { return p.sgr("1;4", s) }

// kind colours a message kind by its place in the algorithm's list; routine kinds are dim.
func (p palette) kind(s string, index int, routine bool) string {
	if routine {
		return p.dim(s)
	}
	codes := []string{"36", "34", "33", "35", "32", "96", "94"}
	return p.sgr(codes[index%len(codes)], s)
}

func (p palette) status(st sim.Status, s string) string {
	switch st {
	case sim.Leader:
		return p.sgr("1;33", s)
	case sim.Candidate:
		return p.sgr("36", s)
	case sim.Crashed:
		return p.red(s)
	case sim.Paused:
		return p.sgr("35", s)
	}
	return s
}
