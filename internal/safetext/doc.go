// Package safetext makes text that came from a file safe to show on a terminal or a page.
//
// Scenario files are shared between strangers — a course page, a colleague's gist — and a
// title or a `say` line could carry escape sequences that retitle or clear the reader's
// terminal, or bidirectional overrides that make a line read differently from what it is.
// Everything electsim shows that a file supplied goes through Escape first.
package safetext
