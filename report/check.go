package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/scenarios"
	"electsim/sim"
	"electsim/sim/check"
)

// WriteCheckHeading writes what check c checks, before it runs: the algorithm, its nodes, the
// faults and the property, then the runs and how long each is, the network and the parameters.
func WriteCheckHeading(w io.Writer, p Palette, c *check.Check, faults check.Faults, runs int) {
	cfg := c.Base()
	nodes := nodesText(cfg.IDs)
	if cfg.Topology != "" && cfg.Topology != algo.Complete {
		nodes += " · " + cfg.Topology + " topology"
	}
	fmt.Fprintln(w, p.Bold(fmt.Sprintf("electsim check · %s · %s · faults: %s · property: %s",
		cfg.Algorithm.Name, nodes, faults, c.Property())))
	parts := []string{
		fmt.Sprintf("%s from seed %d", human.Plural(runs, "run"), cfg.Seed),
		fmt.Sprintf("each %s: faults in the first %s, then %s to settle",
			human.Seconds(c.RunFor()), human.Seconds(c.Window()), human.Seconds(c.Settle())),
	}
	parts = append(parts, networkParts(cfg.Network)...)
	if faults.Has(check.Drift) {
		parts = append(parts, fmt.Sprintf("clock rates %g..%g", 1-c.DriftBound(), 1+c.DriftBound()))
	}
	parts = append(parts, paramParts(cfg)...)
	parts = append(parts, cfg.Engine.String()+" engine")
	fmt.Fprintln(w, strings.Join(parts, " · "))
	fmt.Fprintln(w)
}

// WriteCheck writes what check c found in res: the verdict, and the first failure before and
// after shrinking (cx, nil when no run broke the property), with the file it was written to
// (written) or else the command that reproduces it (reproduce).
func WriteCheck(w io.Writer, p Palette, c *check.Check, res check.Result, cx *check.Counterexample, reproduce, written string) {
	if res.Halted > 0 {
		h := res.FirstHalted
		fmt.Fprintf(w, "%s %s stopped early and went unjudged; the first is run %d (seed %d): %s\n",
			p.Red("!"), human.Plural(res.Halted, "run"), h.Run, h.Seed, h.Why)
	}
	if cx == nil {
		judged := res.Runs - res.Halted
		all := fmt.Sprintf("all %d runs", judged)
		if judged == 1 {
			all = "the one run"
		}
		fmt.Fprintf(w, "%s %s held in %s.\n", p.Green("✓"), c.Property(), all)
		return
	}
	first := res.Failures[0]
	if res.Runs == 1 {
		fmt.Fprintf(w, "%s %s broke in the one run (seed %d).\n", p.Red("✗"), c.Property(), first.Seed)
	} else {
		fmt.Fprintf(w, "%s %s broke in %d of %d runs; the first is run %d (seed %d).\n",
			p.Red("✗"), c.Property(), res.Failed, res.Runs, first.Run, first.Seed)
	}
	fmt.Fprintln(w)
	writeCounterexample(w, p, cx, first.Violation)
	fmt.Fprintln(w)
	if written != "" {
		fmt.Fprintf(w, "Wrote %s: electsim run %s replays it, electsim tui %s steps through it.\n", written, written, written)
	} else {
		fmt.Fprintf(w, "Reproduce it: %s --out counterexample.scn\n", reproduce)
		fmt.Fprintln(w, "then replay it with electsim run counterexample.scn, or step through it with electsim tui counterexample.scn.")
	}
}

// writeCounterexample writes a failure's schedule as drawn, with its violation (first), then
// as shrunk, with its violation and narration.
func writeCounterexample(w io.Writer, p Palette, cx *check.Counterexample, first sim.Violation) {
	fmt.Fprintln(w, p.Heading("As drawn — "+cx.Original.Size().String()))
	writeSchedule(w, p, cx.Original.Actions)
	fmt.Fprintln(w, "  "+p.Red("→ "+first.String()))
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.Heading(fmt.Sprintf("Shrunk in %s — %s", human.Plural(cx.Runs, "run"), cx.Schedule.Size())))
	if !cx.Schedule.Size().Less(cx.Original.Size()) {
		fmt.Fprintln(w, p.Dim("  (no smaller schedule breaks it)"))
	}
	if len(cx.Schedule.IDs) != len(cx.Original.IDs) {
		fmt.Fprintf(w, "  %s %s\n", p.Dim("nodes"), scenarios.NewMembers(cx.Schedule.IDs))
	}
	writeSchedule(w, p, cx.Schedule.Actions)
	fmt.Fprintln(w, "  "+p.Red("→ "+cx.Violation.String()))
	if cx.Narration.Text != "" {
		fmt.Fprintln(w, "  "+p.Say("“"+cx.Narration.Text+"”"))
	}
}

// writeSchedule writes actions as a scenario writes them: "at 300ms  crash 5".
func writeSchedule(w io.Writer, p Palette, actions []sim.Action) {
	if len(actions) == 0 {
		fmt.Fprintln(w, p.Dim("  (no actions)"))
	}
	for _, a := range actions {
		fmt.Fprintf(w, "  at %-9s %s\n", scenarios.FormatWhen(a), p.Fault(a.String()))
	}
}

// WallClock is the one line of a check's output that depends on the machine, not the seed: how
// long runs runs took, and shrinking, if it was done.
func WallClock(runs int, elapsed, shrinking time.Duration) string {
	s := fmt.Sprintf("wall clock: %s in %s, %s runs/s", human.Plural(runs, "run"), human.Elapsed(elapsed), runsPerSec(runs, elapsed))
	if shrinking > 0 {
		s += fmt.Sprintf(" · shrinking %s", human.Elapsed(shrinking))
	}
	return s
}

func runsPerSec(runs int, elapsed time.Duration) string {
	if elapsed <= 0 {
		return "∞"
	}
	return strconv.FormatFloat(float64(runs)/elapsed.Seconds(), 'f', 0, 64)
}
