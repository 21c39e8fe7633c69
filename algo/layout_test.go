package algo

import (
	"testing"
	"unsafe"
)

// A Ring node's state is 177 to 192 bytes: Go allocates it from its 192-byte size class, whose
// objects each start a cache line and take three (the classes below, 176 and 160 and 144, do not
// start one), and what an ELECTION passing through touches is in its first line: the engine
// fetches that line ahead of the step among many nodes (sim/prefetch.go).
func TestRingLayout(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("laid out for 64-bit pointers")
	}
	var r Ring
	if size := unsafe.Sizeof(r); size > 192 {
		t.Errorf("Ring is %d bytes, more than 192: 100,000 of them are 6 MB more memory to fault in and fetch for each 64 bytes over", size)
	}
	if size := unsafe.Sizeof(r); size <= 176 {
		t.Errorf("Ring is %d bytes, in a size class whose objects do not start a cache line: pad it to 192", size)
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
