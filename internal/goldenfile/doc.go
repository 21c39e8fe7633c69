// Package goldenfile compares a test's output with a file kept under testdata/, which
// `go test -update` rewrites: review every diff it makes before committing it.
//
// It is for tests only. It registers the -update flag unless the test binary has one already
// (charm's x/exp/golden, which the TUI's tests use, registers the same flag).
package goldenfile
