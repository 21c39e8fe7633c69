package bench

import (
	"math/rand/v2"
	"testing"

	"electsim/algo"
)

// The Chang–Roberts count agrees with a direct simulation of ids travelling the ring, and with
// the known cases: increasing ids 2n−1, decreasing n(n+1)/2.
func TestChangRoberts(t *testing.T) {
	direct := func(ids []algo.ID) int64 {
		var total int64
		for i, x := range ids {
			hops := 1
			for ; hops < len(ids) && ids[(i+hops)%len(ids)] < x; hops++ {
			}
			total += int64(hops)
		}
		return total
	}
	seq := func(n int, up bool) []algo.ID {
		ids := make([]algo.ID, n)
		for i := range ids {
			ids[i] = algo.ID(i + 1)
			if !up {
				ids[i] = algo.ID(n - i)
			}
		}
		return ids
	}
	for _, n := range []int{1, 2, 3, 8, 100} {
		if got, want := ChangRoberts(seq(n, true)), int64(2*n-1); got != want {
			t.Errorf("increasing, n=%d: %d, want %d", n, got, want)
		}
		if got, want := ChangRoberts(seq(n, false)), int64(n*(n+1)/2); got != want {
			t.Errorf("decreasing, n=%d: %d, want %d", n, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 200 {
		ids := seq(1+rng.IntN(60), true)
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		if got, want := ChangRoberts(ids), direct(ids); got != want {
			t.Fatalf("%v: %d, want %d", ids, got, want)
		}
	}
}

// Misses names every count that differs from its exact theory, and none for a run that did not
// finish.
func TestMisses(t *testing.T) {
	r := Result{Kinds: []string{"ELECTION", "ELECTED"}, Sent: []int64{1310545, 360001}, Steps: 1,
		Theory: []Theory{{Kind: "ELECTION", Exact: 1310545}, {Kind: "ELECTED", Exact: 361000}}}
	if got := r.Misses(); len(got) != 1 || got[0] != "ELECTED 360,001 ≠ 361,000" {
		t.Errorf("misses %q", got)
	}
	r.Sent[1] = 361000
	if got := r.Misses(); len(got) != 0 {
		t.Errorf("misses %q with every count right", got)
	}
	r.Sent[1], r.Stopped = 5, "more than 5 messages"
	if got := r.Misses(); len(got) != 0 {
		t.Errorf("misses %q for a stopped run", got)
	}
}
