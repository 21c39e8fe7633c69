// Package report renders runs for people, in one place: the timeline of a run step by step
// and the description of a step that the terminal UI's event log shares, the run's setup line,
// its summary and the verdicts on it (as data, Verdicts, and as text), and the JSON objects of
// electsim run, check and bench, and the trace as JSON Lines for scripts. Diagrams of a run
// are drawn by its sub-package diagram.
//
// The command line and the terminal UI call it, each with its own colours: a Styler (a Palette
// for whole reports) is injected, and Plain adds none. Numbers are written by internal/human.
package report
