// Package tui is electsim's terminal user interface, a bubbletea program: a scenario played
// step by step, or at a chosen speed, with the nodes on a ring, the event log with each node's
// own explanation (the selected row in full under it), the narration of the latest instant and
// its history, the selected node's state and messages, the verdicts at the end of the run, and
// the faults at the user's fingertips.
//
// Stepping back is exact: the run is deterministic, so the model replays it from the start to
// the step before, with the user's own actions where they were taken — without recording, on
// the inline engine, which takes the same steps several times faster; going forward again shows
// the steps stepped back over as they were recorded, and only going further, or acting, replays
// once more with recording. Back keys that arrive together replay once. What the user does is
// scheduled just after the current time, as a scenario's `at` line would be — the run stops
// first at a break on the way — so a session saved with `s` replays to the same trace under
// `electsim run`. Nothing the user did is forgotten without a question: restarting, or acting
// after stepping back before actions taken later, asks y or n first; so does saving over a
// file. An action that would change nothing is refused, not recorded.
//
// No key is lost: keys that arrive together — a paste, a slow link — come as one message holding
// several, and each is handled as its own key, in order; once one opens the input line, the rest
// are its text, and a paste into the open line is always text.
//
// Text from a file — a scenario's title and narration, its expectations — and names the user
// gave reach the screen through safetext.Escape: a shared scenario cannot retitle or clear the
// terminal, nor reorder a line with bidirectional controls.
//
// Playback never starves the keys: one tick is in flight at a time, and a tick steps for at
// most a few milliseconds of wall time, whatever the speed; a frame draws only the rows that
// show, from an index of the log's rows kept up to date step by step.
package tui
