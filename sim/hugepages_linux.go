package sim

import "syscall"

// madvHugepage is Linux's MADV_HUGEPAGE.
const madvHugepage = 14

// adviseHuge asks Linux for huge pages for the whole huge pages within [start, start+size),
// memory the caller has not written yet. Advice only: an error changes nothing.
func adviseHuge(start, size uintptr) {
	if from, to := hugeSpan(start, size); to > from {
		syscall.Syscall(syscall.SYS_MADVISE, from, to-from, madvHugepage)
	}
}
