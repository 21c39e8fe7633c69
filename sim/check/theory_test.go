package check

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"electsim/sim"
)

// The ✓ cells of the theory (docs/properties.md, "The matrix, in theory") hold over random
// schedules of their fault class: rapid draws the schedules through the checker's own generator,
// and would shrink a failing one with its own shrinking.
func TestTheoryHolds(t *testing.T) {
	eachCell(t, Holds, func(t *testing.T, row Row, column Column) {
		c := newCheck(t, Options{Base: base(t, row.Algorithm, 5, row.Params...), Faults: column.Faults,
			Property: row.Property, Runs: 1})
		rapid.Check(t, func(rt *rapid.T) {
			seed := rapid.Uint64().Draw(rt, "seed")
			p := c.generate(rapidSource{rt})
			sum, err := c.play(p, seed, nil)
			if err != nil {
				rt.Fatalf("the schedule does not run: %v", err)
			}
			if sum.Halted != "" {
				rt.Fatalf("the run halted: %s", sum.Halted)
			}
			if v, bad := violation(&sum, c.info, c.property); bad {
				rt.Fatalf("%s broken under %s (seed %d): %v\n%s", row.Property, column.Name, seed, v, lines(c.schedule(p).Actions))
			}
		})
	})
}

// The ✓ cells hold over schedules drawn as electsim check draws them, too: rapid leans towards
// small values, the checker's own generator spreads faults over the whole window.
func TestTheoryHoldsSampled(t *testing.T) {
	eachCell(t, Holds, func(t *testing.T, row Row, column Column) {
		b := base(t, row.Algorithm, 5, row.Params...)
		b.Seed = 1000
		c := newCheck(t, Options{Base: b, Faults: column.Faults, Property: row.Property, Runs: 40, StopAfter: 1})
		if res := c.Run(nil); res.Failed > 0 || res.Halted > 0 {
			t.Errorf("%d runs broke %s, %d halted; first: %v", res.Failed, row.Property, res.Halted, res.Failures)
		}
	})
}

// Every ✗ cell yields a counterexample: the checker has teeth. The first failing run is found,
// shrunk to a schedule no bigger than it was, and the shrunk run — narration included, as a
// scenario file has it — breaks the property again, with the violation the checker reports.
func TestTheoryBreaks(t *testing.T) {
	eachCell(t, Breaks, func(t *testing.T, row Row, column Column) {
		c := newCheck(t, Options{Base: base(t, row.Algorithm, 5, row.Params...), Faults: column.Faults,
			Property: row.Property, Runs: 1000, StopAfter: 1})
		res := c.Run(nil)
		if res.Failed == 0 {
			t.Fatalf("no counterexample in %d runs", res.Runs)
		}
		f := res.Failures[0]
		cx := c.Shrink(f)
		if cx.Original.Size().Less(cx.Schedule.Size()) {
			t.Errorf("shrinking grew the schedule: %v → %v", cx.Original.Size(), cx.Schedule.Size())
		}
		if cx.Narration.Text == "" || cx.Violation.Property != row.Property {
			t.Errorf("counterexample: narration %q, violation %v", cx.Narration.Text, cx.Violation)
		}
		// A presenter's playback stops where it breaks: a break right after the narration.
		i := slices.IndexFunc(cx.Config.Actions, func(a sim.Action) bool { return a.Op == sim.Say })
		if i < 0 || i+1 == len(cx.Config.Actions) || cx.Config.Actions[i+1].Op != sim.Break || cx.Config.Actions[i+1].At != cx.Narration.At {
			t.Errorf("no break right after the narration:\n%s", lines(cx.Config.Actions))
		}
		s, err := sim.New(cx.Config)
		if err != nil {
			t.Fatal(err)
		}
		sum := s.Run()
		if !slices.ContainsFunc(sum.Violations, func(v sim.Violation) bool {
			return v.Property == cx.Expect && v.From == cx.Violation.From && slices.Equal(v.Nodes, cx.Violation.Nodes)
		}) {
			t.Errorf("the counterexample replays to %v, not %v\n%s", sum.Violations, cx.Violation, lines(cx.Config.Actions))
		}
	})
}

// eachCell runs f, in parallel, as a subtest for every cell of the matrix the theory gives
// verdict v.
func eachCell(t *testing.T, v Verdict, f func(t *testing.T, row Row, column Column)) {
	for _, row := range Rows() {
		for col, column := range Columns() {
			if row.Theory[col] != v {
				continue
			}
			t.Run(row.Label()+" × "+column.Name, func(t *testing.T) {
				t.Parallel()
				f(t, row, column)
			})
		}
	}
}

// A cell agrees with the theory when a ✓ held and a ✗ broke; an open cell agrees either way. A
// matrix with one cell that disagrees does not agree.
func TestCellAgrees(t *testing.T) {
	held, broke := Result{Runs: 10}, Result{Runs: 10, Failed: 1}
	for _, c := range []struct {
		theory Verdict
		result Result
		want   bool
	}{
		{Holds, held, true}, {Holds, broke, false},
		{Breaks, broke, true}, {Breaks, held, false},
		{Open, held, true}, {Open, broke, true},
	} {
		cell := Cell{Theory: c.theory, Result: c.result}
		if cell.Agrees() != c.want {
			t.Errorf("theory %s, %d failed: agrees %v", c.theory, c.result.Failed, !c.want)
		}
		m := Matrix{Cells: [][]Cell{{{Theory: Holds, Result: held}}, {{Theory: Breaks, Result: broke}, cell}}}
		if m.Agrees() != c.want {
			t.Errorf("a matrix with the cell (theory %s, %d failed): agrees %v", c.theory, c.result.Failed, !c.want)
		}
	}
}
