//go:build !amd64 || purego

package sim

import "unsafe"

// prefetchLines reads the first byte of each address, which must point into a live object, and
// returns their sum: the reads of a pass go out side by side. (On amd64 it prefetches instead,
// without waiting for the lines — unless built with -tags purego, as CI does once so that
// every address fetched is one that can be read.)
func prefetchLines(addrs []unsafe.Pointer) uintptr {
	var sum uintptr
	for _, a := range addrs {
		if a != nil { // a node's state before it boots: nothing to fetch
			sum += uintptr(*(*byte)(a))
		}
	}
	return sum
}
