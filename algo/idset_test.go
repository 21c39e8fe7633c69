package algo

import (
	"math/rand/v2"
	"testing"
)

// idSet agrees with a map over random adds, lookups and clears.
func TestIDSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s idSet
	want := map[ID]bool{}
	for i := range 20000 {
		x := ID(rng.IntN(64) + 1)
		switch rng.IntN(10) {
		case 0:
			if i%7 == 0 {
				s.clear()
				clear(want)
			}
		case 1, 2, 3, 4:
			s.add(x)
			want[x] = true
		default:
			if s.has(x) != want[x] {
				t.Fatalf("step %d: has(%d) = %v, want %v", i, x, s.has(x), want[x])
			}
		}
		if s.empty() != (len(want) == 0) {
			t.Fatalf("step %d: empty() = %v with %d ids", i, s.empty(), len(want))
		}
	}
}
