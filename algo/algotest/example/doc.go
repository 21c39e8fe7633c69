// Package example is the algorithm docs/writing-an-algorithm.md walks through: Le Lann's
// election on a unidirectional ring, in one file, registered with algo.Register. It is not
// one of electsim's algorithms: a test registers it to show that every tool picks up an
// algorithm added the documented way, with no other edit.
package example
