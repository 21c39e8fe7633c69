// Package sim is the engine: a virtual clock, an event queue ordered by (virtual time,
// sequence), the nodes of one algorithm run on either engine, the fault actions of a scenario,
// the trace, the property monitors and the metrics of a run.
//
// A run is a pure function of its Config: the same configuration and seed give the same
// trace, step for step, on either engine and at any GOMAXPROCS. Nothing outside sim schedules
// events.
//
// Two engines run the same state machines. The goroutine engine (the default) gives every node
// a goroutine with an unbuffered inbox, started when the node is first handed an input; the
// scheduler hands one input at a time to one node and waits until the node has handled it, so
// exactly one node runs at a time. The inline engine calls the nodes directly from the event
// loop, with no goroutines, for large sweeps.
//
// Drive a run one event at a time with Sim.Step (the TUI does), or to the end with Sim.Run.
// Sim.Clone copies a run between two steps: the copy and the original go on independently,
// each as the run alone would. Always Close a Sim that was not run to the end, to stop its
// goroutines.
//
// Where each concern lives: sim.go is a run (New, Schedule, Run, Close) and config.go what it is
// made from; loop.go the event loop (Step, RunUntil) and what each kind of input does;
// call.go the hand-over of an input to a node — directly on the inline engine, to the node's
// goroutine with the baton on the goroutine engine; env.go the Env a node sees (Send, timers,
// stable storage, notes); faults.go the scenario's actions (action.go defines them, leader.go
// resolves `leader`); node.go the engine's record of a node; queue.go the event queue;
// prefetch.go the fetching of memory ahead of the steps among many nodes; trace.go and record.go
// the trace; monitor.go the properties and metrics, summary.go the summary; memory.go the bound
// on a run's memory; clone.go the copy of a run; picture.go what a picture of the run reads —
// the messages in flight with their send times, pending timers, held inputs — without changing it;
// clock.go each node's own clock (the clock action: Env.Now and a node's timers run on it);
// reach.go what a link lets through now; fingerprint.go the whole run's state written canonically
// (Sim.AppendState) and choose.go the choices an explorer makes — delays, losses, draws — for
// sim/explore; draw.go a node's draws (algo.Draw): pinned (Config.Draws), chosen, or its source's.
package sim
