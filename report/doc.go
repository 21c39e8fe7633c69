// Package report renders runs for people, in one place, so that the command line, the terminal
// UI and a web page word them alike:
//
//   - a step described in one line (Describe, StepText), which the timeline and the terminal
//     UI's event log share, and the timeline of a run (Timeline), routine steps folded;
//   - the run's setup (Setup, WriteRunHeading) and its summary (WriteSummary);
//   - the verdicts on a run, as data (Judge, Verdicts) and as text: the summary's rows, the
//     expectations (Verdicts.WriteExpectations), and a few short lines for a box beside other
//     things (Verdicts.Lines, the terminal UI's end of a run);
//   - a check, its counterexample and the property matrix (WriteCheck, WriteMatrix), and a
//     bench's tables (WriteBenchTable);
//   - the JSON objects of electsim run, check and bench (RunJSON, CheckJSON, MatrixJSON,
//     BenchJSON), and the trace as JSON Lines (JSONL);
//   - progress lines on a terminal (Progress) and why a run stopped early (Halted);
//   - the lists of bundled scenarios and algorithms.
//
// Styling is injected: the parts of a step take a Styler, whole reports a Palette. The command
// line colours with ANSI (or nothing, Plain); the terminal UI adapts its own lipgloss styles.
// Diagrams of a run — SVG, Mermaid, ShiViz — and the plot of bench's counts are drawn by the
// sub-package diagram; durations, counts and plurals are written by internal/human, which the
// engine's and the checker's own sentences share.
//
// The command line (cmd/electsim) and the terminal UI (tui) call it; it calls neither.
package report
