//go:build !linux || !(amd64 || arm64)

package sim

// adviseHuge does nothing here: huge pages are asked for on Linux on amd64 and arm64 only.
func adviseHuge(start, size uintptr) {}
