//go:build linux && (amd64 || arm64)

package sim

import (
	"os"
	"syscall"
)

// madvHugepage is Linux's MADV_HUGEPAGE.
const madvHugepage = 14

// adviseHuge asks Linux for huge pages for the whole huge pages within [start, start+size).
// Advice only: an error changes nothing. The caller keeps the memory alive (the address is
// only a number here). Huge pages are hugePage bytes where the base page is 4 KB, as on
// amd64 and on most arm64 kernels; elsewhere nothing is asked.
func adviseHuge(start, size uintptr) {
	if os.Getpagesize() != 4<<10 {
		return
	}
	if from, to := hugeSpan(start, size); to > from {
		syscall.Syscall(syscall.SYS_MADVISE, from, to-from, madvHugepage)
	}
}
