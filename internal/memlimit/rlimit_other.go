//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package memlimit

// rlimitMemory returns no limits: there are none to read here.
func rlimitMemory() (space, data int64) { return 0, 0 }
