package sim

import (
	"testing"
	"unsafe"
)

// A node's record is a whole number of cache lines, so that the fields a step touches, which
// come first, share as few lines as they can.
func TestNodeRecordLayout(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the layout is laid out for 64-bit pointers")
	}
	var n nodeRec
	if size := unsafe.Sizeof(n); size%64 != 0 {
		t.Errorf("nodeRec is %d bytes, not a multiple of 64: adjust its padding", size)
	}
	if off := unsafe.Offsetof(n.paused); off >= 64 {
		t.Errorf("nodeRec.paused, which every step reads, is at byte %d, past the first cache line", off)
	}
	if off := unsafe.Offsetof(n.timers); off != 64 {
		t.Errorf("the timers of nodeRec start at byte %d, not at the second cache line", off)
	}
	if size := unsafe.Sizeof(n); size > 192 {
		t.Errorf("nodeRec is %d bytes: what few steps touch belongs in nodeExt", size)
	}
}
