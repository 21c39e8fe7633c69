package main

import (
	"golang.org/x/term"

	"electsim/report"
)

// colorFor returns the palette of output to w: ANSI colours only on a terminal, never with
// --no-color or NO_COLOR (https://no-color.org).
func colorFor(w any, noColor bool, getenv env) report.Palette {
	if noColor || getenv("NO_COLOR") != "" {
		return report.Plain{}
	}
	if f, ok := fileOf(w); ok && term.IsTerminal(int(f.Fd())) {
		return report.ANSI{}
	}
	return report.Plain{}
}
