// Package tui is electsim's terminal user interface, a bubbletea program: a scenario played
// step by step, or in continuous virtual time at a chosen rate, drawn as a picture — the nodes
// on a ring, the messages travelling the lines between them, their timers running down, what
// paused nodes hold, the links faults block — with the event log with each node's
// own explanation (the selected row in full under it), the narration of the latest instant and
// its history, the selected node's state and messages, the verdicts at the end of the run, and
// the faults at the user's fingertips.
//
// The run being watched is a session (package session): it steps, steps back exactly, takes the
// user's actions where they happen and refuses those that would change nothing, and saves what
// was done as a scenario that electsim run replays to the same trace. The TUI draws what the
// session returns and turns keys into its calls; back keys that arrive together step back once.
// Nothing the user did is forgotten without a question: restarting, or acting after stepping
// back before actions taken later, asks y or n first; so does saving over a file, and quitting
// (q or ctrl+c) with actions not saved, as an editor asks before it closes a changed file —
// the quit key again, or y, quits. A session is saved only to a regular file: a named pipe,
// whose open would wait for a reader and hold the TUI with it, is refused at once.
//
// Update changes the model; View only draws it. What a frame shows — the log's rows, the
// selected row kept in view, the narration's history — is brought up to date in Update, so
// drawing a frame, or drawing it again, changes nothing.
//
// No key is lost: keys that arrive together — a paste, a slow link — come as one message holding
// several, and each is handled as its own key, in order; once one opens the input line, the rest
// are its text, and a paste into the open line is always text.
//
// Text from a file — a scenario's title and narration, its expectations — and names the user
// gave reach the screen through safetext.Escape: a shared scenario cannot retitle or clear the
// terminal, nor reorder a line with bidirectional controls.
//
// Playback never starves the keys: one tick is in flight at a time, 30 a second, and a tick
// plays its share of virtual time for at most a few milliseconds of wall time, whatever the
// rate — never skipping a step: past its budget the next tick goes on from the last step shown.
// What is drawn at an instant is the session's Picture (session.Picture; docs/picture.md), so a
// web page draws the same; the TUI only places it on a grid of cells (canvas.go). A frame draws
// only the rows of the log that show, from an index of its rows kept up to date step by step.
// The mouse selects a node or a log row, and its wheel scrolls the log.
//
// The files follow what is drawn: header.go (title, status, banners), nodes.go (the node panel:
// the canvas or the list, the legend, the selected node, the messages in flight), canvas.go (the
// picture on a grid of cells), eventlog.go (the log, a sub-model of its
// own), detail.go (the selected row in full, the verdicts at the end), overlays.go (help, the
// narration's history), footer.go (narration, input line, help bar); keys.go and styles.go
// hold every key and style, keyactions.go what the keys do.
package tui
