package report

import "electsim/sim"

// ANSI is the Palette that colours with ANSI escapes, for a terminal (the command line's; the
// terminal UI has its own styles).
type ANSI struct{}

func sgr(code, s string) string {
	if s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (ANSI) Dim(s string) string     { return sgr("2", s) }
func (ANSI) Bold(s string) string    { return sgr("1", s) }
func (ANSI) Red(s string) string     { return sgr("31", s) }
func (ANSI) Green(s string) string   { return sgr("32", s) }
func (ANSI) Fault(s string) string   { return sgr("1;35", s) }
func (ANSI) Say(s string) string     { return sgr("3;32", s) }
func (ANSI) Heading(s string) string { return sgr("1;4", s) }

// Kind colours a message kind by its place in the algorithm's list; routine kinds are dim, and
// a kind not in the list is left as it is.
func (ANSI) Kind(s string, index int, routine bool) string {
	switch {
	case routine:
		return sgr("2", s)
	case index < 0:
		return s
	}
	codes := []string{"36", "34", "33", "35", "32", "96", "94"}
	return sgr(codes[index%len(codes)], s)
}

// Status colours a node status: the leader bold yellow, a candidate cyan, a crashed node red,
// a paused one purple.
func (ANSI) Status(st sim.Status, s string) string {
	switch st {
	case sim.Leader:
		return sgr("1;33", s)
	case sim.Candidate:
		return sgr("36", s)
	case sim.Crashed:
		return sgr("31", s)
	case sim.Paused:
		return sgr("35", s)
	}
	return s
}
