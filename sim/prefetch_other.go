//go:build !amd64

package sim

import "unsafe"

// prefetchLines reads the first byte of each address, which must point into a live object, and
// returns their sum: the reads of a pass go out side by side. (On amd64 it prefetches instead,
// without waiting for the lines.)
func prefetchLines(addrs []unsafe.Pointer) uintptr {
	var sum uintptr
	for _, a := range addrs {
		sum += uintptr(*(*byte)(a))
	}
	return sum
}
