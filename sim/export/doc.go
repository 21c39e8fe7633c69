// Package export writes a run's trace for other tools: JSON Lines (one object per trace
// record) for scripts, and diagrams for people — SVG space-time diagrams, Mermaid sequence
// diagrams and ShiViz logs (see Options for what they show).
package export
