// Package check is the property checker (docs/properties.md): it runs an algorithm under thousands
// of random fault schedules, judges each run by one property, and shrinks the first schedule that
// breaks it to a small one that still does.
//
// A schedule is drawn from one seed. Its faults — crashes, recoveries, partitions and one-way
// cuts, delay spikes (some beyond the algorithm's timeouts), pauses, message loss, of the
// classes asked for — fall at random times in the fault window; at the end of the window every
// fault still in force is undone (heal, resume, recover when recoveries are asked for, delays
// and losses back to the run's own), and the algorithm gets its settle time before the run
// ends. Run k of a check with seed S has seed S+k: its schedule and its network draw from that
// seed alone, so `--seed S+k --runs 1` reproduces it, shrinking included.
//
// Shrinking is greedy and deterministic: fewer actions, then earlier and shorter ones (an action
// moves as early as it can, so the fault it ends ends sooner; delay spikes get smaller; the
// window closes as soon as it can), then fewer nodes, for as long as any of them helps. A
// candidate counts only if it breaks the same property; a run judged by a safety property
// stops at the first look (every 100ms of virtual time) that finds it broken. The result is a
// Counterexample: plain data — a sim.Config and the narration that explains the violation.
// Counterexample.Scenario makes it a scenario, once it has checked that the scenario replays
// to the same violation; the command line writes it with scenarios.Format.
//
// Matrix runs every algorithm × fault class (docs/properties.md), with a row for Lease's own
// property, and compares what it measures with what the theory says.
//
// Runs use the inline engine unless the base configuration says otherwise, spread over
// GOMAXPROCS workers; results never depend on how many workers ran them.
package check
