// Package tui is electsim's terminal user interface, a bubbletea program: a scenario played
// step by step, or at a chosen speed, with the nodes on a ring, the event log with each node's
// own explanation, the narration, and the faults at the user's fingertips.
//
// Stepping back is exact: the run is deterministic, so the model replays it from the start to
// the step before, with the user's own actions where they were taken. What the user does is
// scheduled just after the current time, as a scenario's `at` line would be, so a session
// saved with `s` replays to the same trace under `electsim run`.
package tui
