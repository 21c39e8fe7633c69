//go:build !linux

package sim

// adviseHuge does nothing here: huge pages are asked for on Linux only.
func adviseHuge(start, size uintptr) {}
