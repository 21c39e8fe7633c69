package algo

import "slices"

// idSet is a set of node ids: the few a node remembers of one election round. The first four
// need no allocation; the rest are kept in a sorted slice, made when a fifth id comes.
type idSet struct {
	few  [4]ID
	n    int   // how many of few are in use
	more *[]ID // the rest, ascending; nil until few is full
}

// has reports whether x is in the set.
func (s *idSet) has(x ID) bool {
	for _, y := range s.few[:s.n] {
		if y == x {
			return true
		}
	}
	if s.more == nil {
		return false
	}
	_, found := slices.BinarySearch(*s.more, x)
	return found
}

// add puts x in the set.
func (s *idSet) add(x ID) {
	if s.has(x) {
		return
	}
	if s.n < len(s.few) {
		s.few[s.n] = x
		s.n++
		return
	}
	if s.more == nil {
		s.more = new([]ID)
	}
	i, _ := slices.BinarySearch(*s.more, x)
	*s.more = slices.Insert(*s.more, i, x)
}

// clear empties the set.
func (s *idSet) clear() {
	s.n = 0
	if s.more != nil {
		*s.more = (*s.more)[:0]
	}
}

// empty reports whether the set has no ids.
func (s *idSet) empty() bool { return s.n == 0 }
