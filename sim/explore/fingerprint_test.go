package explore

import (
	"slices"
	"testing"

	"electsim/sim"
	"electsim/sim/check"
)

// Two states with one fingerprint must act alike: a breadth-first search in which every state
// reached again by another path is rebuilt by both paths, and the two must have the same
// children — the same fingerprints, breaking the property alike. A fingerprint that leaves out
// something that matters (as it once left out whether a message was lost to a crash since it
// was sent, or only waited for its receiver to recover) fails here.
func TestEqualFingerprintsActAlike(t *testing.T) {
	lease := base(t, "lease", 4)
	lease.Actions = leasePrefix()
	cases := []struct {
		opts  Options
		depth int
	}{
		{Options{Base: base(t, "bully", 3), Faults: check.Crash | check.Recover, Budget: 2}, 10},
		{Options{Base: base(t, "bully", 3), Faults: check.Partition | check.Pause | check.Delay, Budget: 2}, 8},
		{Options{Base: base(t, "raft", 3), Faults: check.Crash | check.Recover, Budget: 2, Property: sim.OneLeaderPerTerm}, 9},
		{Options{Base: lease, Faults: check.Crash | check.Recover, Budget: 2}, 12},
		{Options{Base: base(t, "ring", 3), Faults: check.Crash | check.Recover | check.Partition, Budget: 2}, 8},
		{Options{Base: base(t, "bully", 3), Faults: check.Loss | check.Crash, Budget: 2}, 8},
	}
	for _, c := range cases {
		if lighter {
			c.depth -= 3
		}
		x := newExplorer(t, c.opts)
		w := &worker{x: x}
		seen := map[fingerprint][]uint32{}
		var buf []byte
		seen[x.fingerprint(x.root(), 0, &buf)] = nil
		level := [][]uint32{nil}
		compared := 0
		for range c.depth {
			var next [][]uint32
			for _, p := range level {
				s, used := replay(x, p)
				setPath(w, p)
				for _, k := range w.children(s, used, nil) {
					q := append(slices.Clone(p), k.t)
					other, ok := seen[k.fp]
					if !ok {
						seen[k.fp] = q
						next = append(next, q)
						continue
					}
					if compared < 400 && !slices.Equal(other, q) {
						compared++
						a, b := childrenOf(x, w, q), childrenOf(x, w, other)
						if !slices.Equal(a, b) {
							t.Fatalf("%s: paths %x and %x reach one fingerprint, and their children differ:\n%v\n%v",
								x.info.Name, q, other, a, b)
						}
					}
				}
			}
			level = next
		}
		if compared == 0 {
			t.Errorf("%s: no state was reached twice: nothing compared", x.info.Name)
		}
	}
}

// replay rebuilds the state at the end of path p and the faults it used.
func replay(x *Explorer, p []uint32) (*sim.Sim, int) {
	s := x.root()
	used := 0
	for _, t := range p {
		x.apply(s, t, used)
		used += cost(t)
	}
	return s, used
}

// childrenOf returns the fingerprints of the children of the state at the end of path p, and
// whether each breaks the property, in order.
func childrenOf(x *Explorer, w *worker, p []uint32) []child {
	s, used := replay(x, p)
	setPath(w, p)
	kids := w.children(s, used, nil)
	for i := range kids {
		kids[i].t = 0 // the same children may come by other codes: compare what they are
	}
	slices.SortFunc(kids, func(a, b child) int {
		for i := range a.fp {
			if a.fp[i] != b.fp[i] {
				if a.fp[i] < b.fp[i] {
					return -1
				}
				return 1
			}
		}
		return 0
	})
	return kids
}

// setPath makes p the path w rebuilds, as expand does.
func setPath(w *worker, p []uint32) {
	w.path = slices.Clone(p)
	slices.Reverse(w.path)
}
