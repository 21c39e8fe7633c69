// Package diagram draws a run's trace records as pictures for people: SVG space-time diagrams
// for slides and web pages, Mermaid sequence diagrams that GitHub renders, and ShiViz logs with
// vector clocks to explore. Options say what a diagram shows, the same in the three formats; a
// Gatherer keeps, as a run goes, only the records a diagram of a part of it needs.
//
// The command line (electsim run --svg, --mermaid, --shiviz) calls it; the step text and the
// status glyphs it shares with the timeline and the terminal UI come from package report.
package diagram
