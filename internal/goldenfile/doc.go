// Package goldenfile compares a test's output with a file kept under testdata/, which
// `go test -update` rewrites: review every diff it makes before committing it.
//
// It is for tests only. It registers the -update flag, as charm's x/exp/golden (the TUI's
// tests) does: a test binary uses one or the other, never both.
package goldenfile
