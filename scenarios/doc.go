// Package scenarios is the scenario language (docs/scenarios.md): it parses text into the actions
// of a run, with errors that point at the line and column and say what was expected, and formats
// actions back into canonical text.
//
// The same action words — crash 5, partition 1 2 | 3 4 5, delay 1->2 300ms, ... — are the
// TUI's command line, the `--at` flag of the command line, and what saved sessions and the
// checker's counterexamples write.
package scenarios
