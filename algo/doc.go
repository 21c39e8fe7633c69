// Package algo defines the contract between an election algorithm and the engine that runs it,
// the registry of algorithms, and one file per algorithm.
//
// An algorithm is a pure state machine. The engine feeds a Node one input at a time — Start,
// Receive, Timer or Elect — and the node answers only through its Env: it sends messages, sets
// and cancels named timers, draws random numbers from the *rand.Rand it is handed, and leaves a
// Note explaining why it did what it did. A node never starts a goroutine, touches a channel,
// reads the wall clock, uses the global math/rand or does I/O, so a run is a pure function of
// the scenario and the seed.
//
// Package algo imports nothing else of electsim.
package algo
