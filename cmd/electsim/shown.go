package main

import (
	"unicode/utf8"

	"electsim/internal/human"
	"electsim/internal/safetext"
)

// maxShown is the most characters of a flag's value an error repeats: enough to recognise it,
// never a page of it (a 15 MB --topology, a paste gone wrong).
const maxShown = 60

// shown is a flag's value as an error repeats it: escaped (safetext) and, past maxShown
// characters, cut short with "…" and how long it was.
func shown(v string) string {
	if n := utf8.RuneCountInString(v); n > maxShown {
		return safetext.Escape(string([]rune(v)[:maxShown])) + "… (" + human.Thousands(int64(n)) + " characters)"
	}
	return safetext.Escape(v)
}
