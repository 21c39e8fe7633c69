package sim

import "unsafe"

// Among 100,000 nodes a step touches memory at random in a few tables of tens of megabytes —
// the nodes' records, the events in flight — and with 4 KB pages nearly every such touch
// misses the processor's cache of address translations too: each of the fetches the engine
// makes ahead (prefetch.go) then waits for a walk of the page tables, a dear one in a virtual
// machine. Each new page is also a page fault when first written: the 19 MB of records of
// 100,000 nodes are 4,700 of them. So the engine asks Linux for huge pages (2 MB) for its big
// tables as it makes them — before it writes them, when the memory is fresh from the system, as
// a big table's usually is: ten translations and ten faults cover 20 MB. It is advice: where
// Linux keeps huge pages for those who ask (transparent_hugepage set to madvise, most
// distributions' default, or always) it is taken; elsewhere, and on other systems, nothing
// changes. It never changes a run, only its speed. The advice stays with the address range
// after the table is freed: what the garbage collector later places there may get huge pages
// too, and hold memory in 2 MB pieces.

// hugeMin is the smallest table worth huge pages: a smaller one holds one whole huge page or
// none (advice stops at the table's edges; see hugeSpan), and its small pages are few anyway.
const hugeMin = 4 << 20

// hugePage is the size of a huge page on the systems adviseHuge asks for them on.
const hugePage = 2 << 20

// makeBig is make([]T, n), with huge pages asked for when the slice is big (see hugeMin).
func makeBig[T any](n int) []T {
	s := make([]T, n)
	if size := uintptr(n) * unsafe.Sizeof(*new(T)); size >= hugeMin {
		adviseHuge(uintptr(unsafe.Pointer(unsafe.SliceData(s))), size)
	}
	return s
}

// hugeSpan returns the whole huge pages within [start, start+size): where advice can apply.
func hugeSpan(start, size uintptr) (from, to uintptr) {
	from = (start + hugePage - 1) &^ (hugePage - 1)
	to = (start + size) &^ (hugePage - 1)
	return from, max(from, to)
}
