// Package algotest checks that an algorithm keeps the parts of the node contract that no single
// run shows broken: that Node.Clone copies a node deeply and faithfully, and that
// Node.AppendState is a canonical fingerprint — deterministic, the same for a node and its
// copy, different for nodes that act differently, and written relative to now so that equal
// encodings at different times mean the same behaviour.
//
// An algorithm's test calls Conformance. Env, the recording Env it drives nodes through, is
// exported for tests that drive a node by hand.
package algotest
