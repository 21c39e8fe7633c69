package algo

import (
	"testing"
	"unsafe"
)

// A Ring node's state is 256 bytes — a size Go allocates at the start of a cache line — and
// what an ELECTION passing through touches is in its first line: the engine fetches that line
// ahead of the step among many nodes (sim/prefetch.go).
func TestRingLayout(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("laid out for 64-bit pointers")
	}
	var r Ring
	if size := unsafe.Sizeof(r); size != 256 {
		t.Errorf("Ring is %d bytes, not 256: adjust its padding", size)
	}
	hot := map[string]uintptr{
		"cfg": unsafe.Offsetof(r.cfg), "suspect": unsafe.Offsetof(r.suspect),
		"id": unsafe.Offsetof(r.id), "next": unsafe.Offsetof(r.next),
		"round": unsafe.Offsetof(r.round), "leader": unsafe.Offsetof(r.leader),
		"status": unsafe.Offsetof(r.status), "participant": unsafe.Offsetof(r.participant),
	}
	for name, off := range hot {
		if off >= 64 {
			t.Errorf("Ring.%s, which every ELECTION touches, is at byte %d, past the first cache line", name, off)
		}
	}
}
