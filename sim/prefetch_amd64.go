//go:build amd64 && !purego

package sim

import "unsafe"

// prefetchLines asks the processor for the cache line of each address, without waiting for
// it (PREFETCHT0; prefetch_amd64.s). An address may be anything: a prefetch never faults. It
// returns 0.
//
//go:noescape
func prefetchLines(addrs []unsafe.Pointer) uintptr
