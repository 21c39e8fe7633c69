//go:build !unix

package outfile

import "os"

// running reports whether process pid may still be running: here, where it cannot be told, it
// always may, and no temporary file is taken for stale.
func running(pid int) bool { return true }

// keepOwner does nothing where owners are not Unix's.
func keepOwner(f *os.File, old os.FileInfo) {}
