// Package explore is the exhaustive explorer behind electsim check --exhaustive: it tries
// every schedule of a small cluster's run within bounds, breadth first, and returns the
// shortest one that breaks a safety property, or says that none does.
//
// A schedule is a path of transitions from the run's start. Each transition is one step of the
// run (sim.Sim.StepChoosing), before which a fault may be applied at that boundary between two
// steps — at the current instant, after the inputs of it handled so far (sim.Sim.Interject:
// between two inputs of one instant, or after its last), or, once they are all handled, at the
// next instant before its inputs: the two ends of the quiet stretch between — and during which
// each link that carries a message takes one of the delays asked for (the first message on a
// link at an instant chooses; the link keeps that delay for the rest of the instant). A delay
// fault sets one link's delay to a spike beyond the algorithm's timeouts until another fault
// sets it back to normal; meanwhile the link chooses nothing. With loss among the faults, a
// link may also lose its messages of the instant, which counts against the budget. Each random
// draw a node makes (algo.Draw) takes the low or the high end of its range (Options.Draws), so
// the nodes' random sources leave the state; terms and the numbers on stable storage may be
// bounded (Options.MaxTerm, Options.MaxStored), a state past them judged but not expanded.
// Every state reached is fingerprinted (sim.Sim.AppendState and the faults left, hashed to 128
// bits) and explored once; the first violation found in breadth-first order has the fewest
// steps of all.
//
// The search is stateless between levels: the frontier keeps, for each state, its parent and
// the transition that reached it (8 bytes), and a state is rebuilt by replaying its path from
// the start, then copied (sim.Sim.Clone) for each of its transitions. docs/properties.md says
// why, with the measurements.
//
// Workers expand a level's states in parallel, in batches; the children are taken in the
// order of their parents and transitions, whichever worker made them, so the counts and the
// counterexample do not depend on the number of workers.
package explore
