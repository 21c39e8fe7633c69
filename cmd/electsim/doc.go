// Command electsim is an educational simulator of classical leader-election algorithms.
//
//	electsim                       the default demo (headless when stdout is not a terminal)
//	electsim run [flags]           run an election headless: a timeline and a summary
//	electsim run --json            the summary as one JSON object
//	electsim run --trace FILE      every trace record as JSON Lines
//
// Run `electsim -h` or `electsim run -h` for the full list. This package parses flags and
// wires the packages together: it holds no simulation logic (sim, scenarios, sim/check,
// sim/bench) and renders nothing itself (report, report/diagram).
package main
