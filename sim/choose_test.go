package sim_test

import (
	"fmt"
	"slices"
	"testing"

	"electsim/sim"
)

// NextCode enumerates every combination of a step's choices once, even when what the step
// chooses later depends on what it chose before: here a first choice of 2, then, after option
// 0, a choice of 3, and after option 1, two choices of 2.
func TestNextCodeEnumeratesDependentChoices(t *testing.T) {
	step := func(code uint32) []sim.Choice {
		take := func(arity int) sim.Choice {
			c := sim.Choice{Arity: arity, Option: int(code % uint32(arity))}
			code /= uint32(arity)
			return c
		}
		first := take(2)
		made := []sim.Choice{first}
		if first.Option == 0 {
			return append(made, take(3))
		}
		return append(made, take(2), take(2))
	}
	var seen []string
	code, more := uint32(0), true
	for more {
		made := step(code)
		var opts []int
		for _, c := range made {
			opts = append(opts, c.Option)
		}
		seen = append(seen, fmt.Sprint(opts))
		code, more = sim.NextCode(made)
	}
	want := []string{"[0 0]", "[0 1]", "[0 2]", "[1 0 0]", "[1 0 1]", "[1 1 0]", "[1 1 1]"}
	slices.Sort(seen)
	if !slices.Equal(seen, want) {
		t.Errorf("enumerated %v, want %v", seen, want)
	}
}
