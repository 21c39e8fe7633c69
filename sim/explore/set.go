package explore

// set is a hash set of fingerprints: open addressing with linear probing over a power-of-two
// table of 16-byte slots, at most three quarters full — 10,000,000 states hold 256 MB (512 MB
// for the moment it grows). A fingerprint is already a hash; its first word picks the slot.
// The all-zero fingerprint marks an empty slot: one that hashes to it is stored as another.
type set struct {
	slots []fingerprint
	n     int
	shift uint // 64 - log2(len(slots))
}

func newSet() *set { return &set{slots: make([]fingerprint, 1<<12), shift: 64 - 12} }

// home is f's first slot: the top bits of its first word, mixed (Fibonacci hashing), so that
// the slot does not rest on the low bits alone.
func (s *set) home(f fingerprint) uint64 { return (f[0] * 0x9e3779b97f4a7c15) >> s.shift }

// add adds f and reports whether it was new.
func (s *set) add(f fingerprint) bool {
	if f == (fingerprint{}) {
		f[0] = 1
	}
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := s.home(f); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case f:
			return false
		case fingerprint{}:
			s.slots[i] = f
			s.n++
			return true
		}
	}
}

func (s *set) grow() {
	old := s.slots
	s.slots = make([]fingerprint, 2*len(old))
	s.shift--
	mask := uint64(len(s.slots) - 1)
	for _, f := range old {
		if f == (fingerprint{}) {
			continue
		}
		i := s.home(f)
		for s.slots[i] != (fingerprint{}) {
			i = (i + 1) & mask
		}
		s.slots[i] = f
	}
}

// bytes returns the memory the set holds.
func (s *set) bytes() int64 { return int64(len(s.slots)) * 16 }
