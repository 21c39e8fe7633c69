// Package sweep measures how an algorithm's behaviour changes with one of its parameters: for
// each value, many seeded runs under the same network and faults, and per value the false
// suspicions, the time to recover from a leader crash, the time without a leader and with two,
// and the messages per second by kind (docs/teaching.md, "Tuning the failure detector"). The
// command line (electsim sweep) parses the flags; report renders the result.
package sweep
