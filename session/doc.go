// Package session is a run being watched: a scenario played step by step, stepped back exactly,
// acted on as it goes, and saved as a scenario file. It knows no user interface — no terminal, no
// page, no keys — and returns data: the steps shown with their trace records, the nodes, the
// messages in flight, the narration, the verdicts at the end. The terminal UI (package tui) is
// built on it, and a browser page can be: each keeps a Session per viewer and draws what it
// returns.
//
// What a Session promises its users:
//
//   - Stepping back is exact. The run is deterministic, so a step back replays it to the step
//     before, with the user's actions at the steps they were taken, and the run is then exactly
//     as it was shown at that step. The steps stepped back over are kept, and going forward
//     again shows them as they were, without running them again with their trace.
//   - A replay starts from the nearest copy of the run kept on the way (a checkpoint; sim's
//     Sim.Clone), not from the start, once a run is long enough for that to be faster; a few
//     copies are kept, within a bound on memory. Which copy a replay starts from never shows:
//     a copy goes on exactly as the run would.
//   - What the user does (Act) happens at the next whole millisecond of virtual time, after
//     every step due before it, as a scenario's `at` line would: a session saved with File
//     replays to the same trace under electsim run. A break on the way stops the run there
//     first. An action is judged where it happens, not where it was asked for: one that would
//     change nothing — or that names `leader` when no node leads then, or a partition that puts
//     every node in one group — is refused with the reason (Refused), and neither kept nor
//     saved. A toggle (Act's toggle) switches named nodes between paused and running: with any
//     other action it is an error (ErrToggle), before anything is done.
//   - What is drawn at an instant is computed here, not by a view: PlayTo plays virtual time on
//     to an instant, every step due shown in order, and Picture gives the picture of the
//     instant — nodes, messages on their way at the fraction of their flight, timers, held
//     inputs, drops, blocked links — as plain data (docs/picture.md).
//   - What a Session keeps is bounded (bound.go): its run, the steps it shows and those stepped
//     back over, and the copies kept for stepping back stay within the run's memory bound, or a
//     smaller one a view sets (SetMemoryBound). Where they would pass it the session shows no
//     new step, and Full says which bound was met; nothing kept is dropped, so stepping back
//     stays exact. A view sends the log a page at a time (StepsFrom).
//   - Nothing changes a Session but its methods that say so (Next, NextBy, PlayTo, Back, Act,
//     Restart, SetMemoryBound); every other method only reads, so a view may call them as often
//     as it draws.
//
// A Session is not safe for concurrent use: a server that shares one between requests guards
// it with a lock of its own.
package session
