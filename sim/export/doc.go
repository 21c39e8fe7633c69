// Package export writes a run's trace for other tools: JSON Lines (one object per trace
// record) for scripts, and the diagrams of later issues.
package export
