// Package bench defines the elections electsim is measured on at scale — one election from
// boot per algorithm and size, as docs/performance.md and `electsim bench` describe them — and the
// theory each is checked against: Bully's exact counts, the exact Chang–Roberts count of the
// instance, and n·H_n.
//
// A workload is a sim.Config like any other run: the engine does the work, and the same seed
// gives the same counts on either engine.
package bench
