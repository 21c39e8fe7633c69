package bench

import "electsim/algo"

// Theory is what a message count should be, by the theory (docs/performance.md, "What bench
// measures"; the papers: Garcia-Molina 1982, Chang and Roberts 1979).
type Theory struct {
	Kind  string
	Exact int64   // the exact count for this instance, or -1 when theory gives none
	Mean  float64 // the expected count over random instances, or 0
	Note  string  // the formula, e.g. "n(n−1)/2"
	// Bound is an upper bound every run keeps, or 0 when theory gives none: the ring
	// catalog's O(n log n) bounds (algo.Theory).
	Bound int64 `json:",omitempty"`
}

// Theories returns the theory for the message counts of algorithm name's workload on ids (in
// ring order): Bully's exact counts with the top node down, Chang–Roberts' exact count for the
// ring and its mean n·H_n over random rings; for the others, what the registry gives
// (algo.Info.Theory), if anything.
func Theories(name string, ids []algo.ID) []Theory {
	n := int64(len(ids))
	switch name {
	case "bully":
		return []Theory{
			{Kind: algo.KindElection, Exact: n * (n - 1) / 2, Note: "n(n−1)/2"},
			{Kind: algo.KindOK, Exact: (n - 1) * (n - 2) / 2, Note: "(n−1)(n−2)/2"},
			{Kind: algo.KindCoordinator, Exact: n - 1, Note: "n−1"},
		}
	case "ring":
		return []Theory{
			{Kind: algo.KindElection, Exact: ChangRoberts(ids), Mean: float64(n) * Harmonic(int(n)),
				Note: "each id's hops to the next larger id; n·H_n on average"},
			{Kind: algo.KindElected, Exact: n, Note: "n"},
		}
	}
	if info, err := algo.Lookup(name); err == nil {
		return registryTheories(info, len(ids))
	}
	return nil
}

// ChangRoberts returns the number of ELECTION messages Chang and Roberts' algorithm sends on the
// ring ids when every node initiates and nothing fails: each id travels clockwise until it meets
// a larger one, which swallows it; the largest travels all the way round, n hops.
func ChangRoberts(ids []algo.ID) int64 {
	n := len(ids)
	if n == 0 {
		return 0
	}
	// Scan the ring twice, anticlockwise, keeping the positions of the ids still waiting for
	// a larger one further on: a stack whose ids increase from top to bottom.
	var total int64
	next := make([]int, n) // next[i]: distance clockwise from i to the next larger id, 0 if none
	var stack []int
	for k := 2*n - 1; k >= 0; k-- {
		i := k % n
		for len(stack) > 0 && ids[stack[len(stack)-1]%n] <= ids[i] {
			stack = stack[:len(stack)-1]
		}
		if k < n {
			if len(stack) > 0 {
				next[i] = stack[len(stack)-1] - k
			} else {
				next[i] = n // the largest: all the way round
			}
		}
		stack = append(stack, k)
	}
	for _, d := range next {
		total += int64(d)
	}
	return total
}

// Harmonic returns H_n = 1 + 1/2 + … + 1/n.
func Harmonic(n int) float64 {
	h := 0.0
	for k := n; k >= 1; k-- {
		h += 1 / float64(k)
	}
	return h
}
