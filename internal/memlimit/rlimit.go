//go:build linux || darwin || freebsd || netbsd || openbsd

package memlimit

import "syscall"

// rlimitMemory returns this process's limits on address space and on data (ulimit -v, ulimit
// -d); 0 for one that is not set.
func rlimitMemory() (space, data int64) {
	get := func(which int) int64 {
		var r syscall.Rlimit
		if syscall.Getrlimit(which, &r) != nil || r.Cur > 1<<62 { // unlimited: RLIM_INFINITY
			return 0
		}
		return int64(r.Cur)
	}
	return get(syscall.RLIMIT_AS), get(syscall.RLIMIT_DATA)
}
