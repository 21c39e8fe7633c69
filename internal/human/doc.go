// Package human writes numbers for people, one way each: virtual and wall-clock durations,
// counts with their noun ("3 nodes"), counts with thousands separators, rates. Every package
// that words a run — the reports, the diagrams, the checker's narration — writes them through
// it, so that one run reads the same wherever it is shown.
//
// It imports nothing of electsim, so any package may use it.
package human
