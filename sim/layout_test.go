package sim

import (
	"reflect"
	"testing"
	"time"
	"unsafe"

	"electsim/algo"
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
		t.Errorf("nodeRec is %d bytes: what few steps touch belongs in nodeSide", size)
	}
}

// A Ring node's state is 177 to 192 bytes: Go allocates it from its 192-byte size class, whose
// objects each start a cache line, and what an ELECTION passing through touches is in its first
// line, which the engine fetches ahead of the step among many nodes (prefetch.go). The
// Chang–Roberts figures of docs/performance.md are measured with it so.
func TestRingStateLayout(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("laid out for 64-bit pointers")
	}
	typ := reflect.TypeFor[algo.Ring]()
	if size := typ.Size(); size > 192 || size <= 176 {
		t.Errorf("algo.Ring is %d bytes, not 177 to 192: above, 100,000 of them are 6 MB more to fetch for each 64 bytes over; at 176 or below, in a size class whose objects do not start a cache line", size)
	}
	for _, name := range []string{"cfg", "suspect", "id", "next", "round", "leader", "status", "participant"} {
		f, ok := typ.FieldByName(name)
		if !ok {
			t.Errorf("algo.Ring has no field %s: update this test to what an ELECTION touches", name)
		} else if f.Offset >= 64 {
			t.Errorf("algo.Ring.%s, which every ELECTION touches, is at byte %d, past the first cache line", name, f.Offset)
		}
	}
}

// On the inline engine the side records (nodeSide, 112 bytes a node: 11 MB among 100,000) are
// made only when a run needs one: crashes, recoveries, a pause and a resume with nothing held
// make none; an input held while paused does.
func TestSideRecordsMadeOnlyWhenNeeded(t *testing.T) {
	info, err := algo.Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		actions []Action
		want    bool
	}{
		{[]Action{{At: 0, Op: Pause, Nodes: []algo.ID{5}}, {At: 0, Op: Resume, Nodes: []algo.ID{5}},
			{At: 200 * time.Millisecond, Op: Crash, Nodes: []algo.ID{5}},
			{At: 400 * time.Millisecond, Op: Recover, Nodes: []algo.ID{5}}}, false},
		{[]Action{{At: 0, Op: Pause, Nodes: []algo.ID{5}}, {At: 300 * time.Millisecond, Op: Resume, Nodes: []algo.ID{5}}}, true},
	} {
		cfg := DefaultConfig(info, 5)
		cfg.Engine, cfg.Actions, cfg.RunFor = Inline, c.actions, time.Second
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.Run()
		if made := s.side != nil; made != c.want {
			t.Errorf("%v: side records made: %v, want %v", c.actions, made, c.want)
		}
	}
}
