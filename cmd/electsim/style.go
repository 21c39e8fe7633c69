package main

import (
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
	f, ok := fileOf(w)
	return palette{on: ok && term.IsTerminal(int(f.Fd()))}
}

func (p palette) sgr(code, s string) string {
	if !p.on || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p palette) Dim(s string) string     { return p.sgr("2", s) }
func (p palette) Bold(s string) string    { return p.sgr("1", s) }
func (p palette) Red(s string) string     { return p.sgr("31", s) }
func (p palette) Green(s string) string   { return p.sgr("32", s) }
func (p palette) Fault(s string) string   { return p.sgr("1;35", s) }
func (p palette) Say(s string) string     { return p.sgr("3;32", s) }
func (p palette) Heading(s string) string { return p.sgr("1;4", s) }

// kind colours a message kind by its place in the algorithm's list; routine kinds are dim.
func (p palette) Kind(s string, index int, routine bool) string {
	if routine {
		return p.Dim(s)
	}
	codes := []string{"36", "34", "33", "35", "32", "96", "94"}
	return p.sgr(codes[index%len(codes)], s)
}

func (p palette) Status(st sim.Status, s string) string {
	switch st {
	case sim.Leader:
		return p.sgr("1;33", s)
	case sim.Candidate:
		return p.sgr("36", s)
	case sim.Crashed:
		return p.Red(s)
	case sim.Paused:
		return p.sgr("35", s)
	}
	return s
}
