package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/scenarios"
	"electsim/sim"
	"electsim/sim/explore"
)

// Exhaustive is what `electsim check --exhaustive` found, for its summary and its JSON.
type Exhaustive struct {
	Explorer  *explore.Explorer
	Result    explore.Result
	Elapsed   time.Duration // wall clock
	Reproduce string        // the command that finds the counterexample again
	Written   string        // the file the counterexample was written to, or ""
}

// WriteExhaustiveHeading writes what an exploration covers, before it runs: the algorithm, its
// nodes, the faults and their budget, the property, then the bounds, the network and the
// parameters.
func WriteExhaustiveHeading(w io.Writer, p Palette, x *explore.Explorer) {
	cfg, b := x.Base(), x.Bounds()
	fmt.Fprintln(w, p.Bold(fmt.Sprintf("electsim check --exhaustive · %s · %s · faults: %s · property: %s",
		cfg.Algorithm.Name, nodesText(cfg.IDs), faultsText(b), x.Property())))
	parts := []string{"every schedule of at most " + human.Plural(b.Depth, "step"),
		"each message's delay " + delaysText(b)}
	if b.Spike > 0 {
		parts = append(parts, "a delay fault: "+algo.FormatDuration(b.Spike))
	}
	parts = append(parts, fmt.Sprintf("at most %s states", human.Thousands(b.MaxStates)), drawsText(b))
	if b.MaxTerm > 0 || b.MaxStored > 0 {
		parts = append(parts, cutText(b))
	}
	parts = append(parts, paramParts(cfg)...)
	fmt.Fprintln(w, strings.Join(parts, " · "))
	fmt.Fprintln(w)
}

// drawsText says how the nodes' random draws are taken.
func drawsText(b explore.Bounds) string {
	switch b.Draws {
	case explore.DrawsSeed:
		return fmt.Sprintf("the nodes' random draws of seed %d", b.Seed)
	case explore.DrawsMiddle:
		return "each random draw the low end, the middle or the high end of its range"
	}
	return "each random draw the low or the high end of its range"
}

// faultsText writes "partition (at most 1)", or "none".
func faultsText(b explore.Bounds) string {
	if b.Faults == 0 || b.Budget == 0 {
		return "none"
	}
	return fmt.Sprintf("%s (at most %d)", b.Faults, b.Budget)
}

// delaysText writes "5ms or 15ms", "5ms, 10ms or 15ms".
func delaysText(b explore.Bounds) string {
	var parts []string
	for _, d := range b.Delays {
		parts = append(parts, algo.FormatDuration(d))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// WriteExhaustive writes the exploration's counts, its verdict and what the verdict covers,
// and the shortest counterexample when there is one, with the file it was written to or the
// command that finds it again.
func WriteExhaustive(w io.Writer, p Palette, e *Exhaustive) {
	x, res, b := e.Explorer, &e.Result, e.Explorer.Bounds()
	fmt.Fprintf(w, "%s states generated, %s distinct; %s deep\n", human.Thousands(res.Generated),
		human.Thousands(res.Distinct), human.Plural(res.Depth, "step"))
	if cx := res.Counterexample; cx != nil {
		fmt.Fprintf(w, "%s %s breaks. The shortest schedule that breaks it takes %s and %s; none of fewer steps does.\n\n",
			p.Red("✗"), x.Property(), human.Plural(cx.Steps, "step"), human.Plural(cx.FaultCount(), "fault"))
		fmt.Fprintf(w, "  %s\n", brokenText(cx.Violation))
		fmt.Fprintln(w, p.Dim("  its schedule (every link's delay "+algo.FormatDuration(b.Delays[0])+" unless an action says otherwise):"))
		for i, a := range cx.Config.Actions {
			if i == 0 && a.At == 0 && a.Op == sim.SetDelay && a.Link == nil {
				continue // every link's first delay, which the line above says
			}
			fmt.Fprintln(w, "    "+scenarios.FormatAt(a))
		}
		fmt.Fprintln(w)
		if e.Written != "" {
			fmt.Fprintf(w, "Written to %s: electsim run %s replays it, electsim tui %s steps through it.\n", e.Written, e.Written, e.Written)
		} else {
			fmt.Fprintf(w, "Find it again: %s --out counterexample.scn\n", e.Reproduce)
		}
		return
	}
	switch {
	case res.Bound == "" && res.Cut > 0:
		fmt.Fprintf(w, "%s %s holds in every schedule within %s: the space is exhausted within that bound — no schedule within the bounds goes past %s; %s past it were judged and not explored further.\n",
			p.Green("✓"), x.Property(), cutText(b), human.Plural(res.Depth, "step"), statesText(res.Cut))
	case res.Bound == "":
		fmt.Fprintf(w, "%s %s holds in every schedule: the space is exhausted — no schedule within the bounds goes past %s.\n",
			p.Green("✓"), x.Property(), human.Plural(res.Depth, "step"))
	case res.Bound == explore.BoundDepth:
		fmt.Fprintf(w, "%s %s holds in every schedule of at most %s. The depth bound was reached: schedules go on past it, untried (raise --depth).\n",
			p.Green("✓"), x.Property(), human.Plural(res.Covered, "step"))
	case res.Bound == explore.BoundStates:
		fmt.Fprintf(w, "%s %s holds in every schedule of at most %s. The states bound (%s) was reached at depth %d: deeper schedules were not all tried (raise --max-states).\n",
			p.Bold("~"), x.Property(), human.Plural(res.Covered, "step"), human.Thousands(b.MaxStates), res.Depth)
	}
	fmt.Fprintf(w, "  within: each message's delay %s; at most %s of %s", delaysText(b), human.Plural(b.Budget, "fault action"), b.Faults)
	if b.Spike > 0 {
		fmt.Fprintf(w, " (a delay fault sets a link's delay to %s until another sets it back)", algo.FormatDuration(b.Spike))
	}
	fmt.Fprintf(w, "; %s", drawsText(b))
	if b.MaxTerm > 0 || b.MaxStored > 0 {
		fmt.Fprintf(w, "; %s", cutText(b))
	}
	fmt.Fprintln(w, ".")
}

// cutText writes the term and storage bounds: "terms at most 4", "numbers on stable storage at
// most 8", or both.
func cutText(b explore.Bounds) string {
	var parts []string
	if b.MaxTerm > 0 {
		parts = append(parts, fmt.Sprintf("terms at most %d", b.MaxTerm))
	}
	if b.MaxStored > 0 {
		parts = append(parts, fmt.Sprintf("numbers on stable storage at most %d", b.MaxStored))
	}
	return strings.Join(parts, " and ")
}

// statesText writes "1 state", "5,786 states".
func statesText(n int64) string {
	if n == 1 {
		return "1 state"
	}
	return human.Thousands(n) + " states"
}

// ExhaustiveWallClock is the dim line of wall-clock figures after an exploration.
func ExhaustiveWallClock(e *Exhaustive) string {
	return fmt.Sprintf("wall clock: %s, %s states a second", human.Seconds(e.Elapsed.Round(time.Millisecond)),
		human.Thousands(int64(statesPerSec(e))))
}

func statesPerSec(e *Exhaustive) float64 {
	if e.Elapsed <= 0 {
		return 0
	}
	return float64(e.Result.Generated) / e.Elapsed.Seconds()
}

// ExhaustiveJSON is the object `electsim check --exhaustive --json` prints: the checker's own
// fields (algorithm, ids, faults, property, seed, reproduce, out, wall) beside the
// exploration's (docs/properties.md, "Exhaustive exploration").
type ExhaustiveJSON struct {
	Exhaustive bool            `json:"exhaustive"`
	Algorithm  string          `json:"algorithm"`
	IDs        []algo.ID       `json:"ids"`
	Faults     string          `json:"faults"`
	Property   string          `json:"property"`
	Seed       uint64          `json:"seed"`
	Exhausted  bool            `json:"exhausted"`
	Bound      *string         `json:"bound"`
	States     statesJSON      `json:"states"`
	Depth      int             `json:"depth"`
	Covered    int             `json:"covered_depth"`
	StatesPerS float64         `json:"states_per_s"`
	Bounds     boundsJSON      `json:"bounds"`
	Violation  *violationXJSON `json:"violation"`
	Reproduce  *string         `json:"reproduce"`
	Out        *string         `json:"out"`
	Wall       wallXJSON       `json:"wall"`
}

type statesJSON struct {
	Generated int64 `json:"generated"`
	Distinct  int64 `json:"distinct"`
	PastBound int64 `json:"past_bound"` // distinct states past the term or the storage bound, not expanded
}

type boundsJSON struct {
	Delays    []string `json:"delays"`
	Spike     *string  `json:"spike"`
	Budget    int      `json:"budget"`
	Depth     int      `json:"depth"`
	MaxStates int64    `json:"max_states"`
	Choices   string   `json:"choices"` // how draws are taken: ends, ends,middle or seed
	MaxTerm   *uint64  `json:"max_term"`
	MaxStored *uint64  `json:"max_stored"`
}

type violationXJSON struct {
	Steps     int           `json:"steps"`
	Faults    int           `json:"faults"`
	Actions   []string      `json:"actions"`
	Violation ViolationJSON `json:"violation"`
	Say       string        `json:"say"`
}

type wallXJSON struct {
	Seconds float64 `json:"seconds"`
}

// ExhaustiveJSONOf returns the JSON of an exploration.
func ExhaustiveJSONOf(e *Exhaustive) ExhaustiveJSON {
	x, res, b := e.Explorer, &e.Result, e.Explorer.Bounds()
	cfg := x.Base()
	out := ExhaustiveJSON{Exhaustive: true, Algorithm: cfg.Algorithm.Name, IDs: cfg.IDs, Faults: b.Faults.String(),
		Property: x.Property(), Seed: b.Seed, Exhausted: res.Exhausted,
		States: statesJSON{res.Generated, res.Distinct, res.Cut}, Depth: res.Depth, Covered: res.Covered,
		StatesPerS: statesPerSec(e), Wall: wallXJSON{e.Elapsed.Seconds()},
		Bounds: boundsJSON{Budget: b.Budget, Depth: b.Depth, MaxStates: b.MaxStates, Delays: []string{}, Choices: b.Draws.String()}}
	if b.MaxTerm > 0 {
		t := b.MaxTerm
		out.Bounds.MaxTerm = &t
	}
	if b.MaxStored > 0 {
		v := b.MaxStored
		out.Bounds.MaxStored = &v
	}
	for _, d := range b.Delays {
		out.Bounds.Delays = append(out.Bounds.Delays, algo.FormatDuration(d))
	}
	if b.Spike > 0 {
		s := algo.FormatDuration(b.Spike)
		out.Bounds.Spike = &s
	}
	if res.Bound != "" {
		s := string(res.Bound)
		out.Bound = &s
	}
	if cx := res.Counterexample; cx != nil {
		v := &violationXJSON{Steps: cx.Steps, Faults: cx.FaultCount(), Actions: []string{},
			Violation: violationJSONOf(cx.Violation), Say: cx.Narration.Text}
		for _, a := range cx.Config.Actions {
			v.Actions = append(v.Actions, scenarios.FormatAt(a))
		}
		out.Violation = v
		out.Reproduce = &e.Reproduce
	}
	if e.Written != "" {
		out.Out = &e.Written
	}
	return out
}

// ExhaustiveProgressText is the progress line of an exploration.
func ExhaustiveProgressText(pr explore.Progress) string {
	return fmt.Sprintf("exploring: %s states, %s distinct, depth %d", human.Thousands(pr.Generated),
		human.Thousands(pr.Distinct), pr.Depth)
}

// brokenText writes where a violation begins: "at-most-one-leader broken at 50ms: nodes 2 3".
// (Where it ends is the replay's to show.)
func brokenText(v sim.Violation) string {
	s := fmt.Sprintf("%s broken at %s", v.Property, human.Millis(v.From))
	if len(v.Nodes) > 0 {
		var ids []string
		for _, id := range v.Nodes {
			ids = append(ids, fmt.Sprint(id))
		}
		word := "node"
		if len(ids) > 1 {
			word = "nodes"
		}
		s += ": " + word + " " + strings.Join(ids, " ")
	}
	if v.Detail != "" {
		s += " (" + v.Detail + ")"
	}
	return s
}
