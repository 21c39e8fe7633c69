//go:build unix

package outfile

import (
	"errors"
	"os"
	"syscall"
)

// running reports whether process pid exists (it may be another user's).
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// keepOwner gives f the owner and group of the file it will replace, when this process may
// (root may; anyone else keeps their own).
func keepOwner(f *os.File, old os.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok || os.Geteuid() != 0 {
		return
	}
	f.Chown(int(st.Uid), int(st.Gid))
}
