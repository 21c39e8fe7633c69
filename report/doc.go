// Package report renders runs for people: the step-by-step description of a run that the
// timeline and the terminal UI's event log share, and the trace as JSON Lines for scripts.
// Diagrams of a run are drawn by its sub-package diagram.
package report
