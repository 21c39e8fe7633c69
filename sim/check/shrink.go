package check

import (
	"fmt"
	"slices"
	"time"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/sim"
)

// Counterexample is a shrunk failure: a run that breaks the property, as small as shrinking
// could make it.
type Counterexample struct {
	Property string
	// Expect is the property the run's own summary shows broken, for a scenario's `expect`:
	// the property itself, or agreement for eventual-leader (judged at the end of the run).
	Expect string
	Seed   uint64

	Original Schedule // as drawn
	Schedule Schedule // shrunk
	// Config is the whole run, the narration included: what a scenario file of it holds.
	Config sim.Config
	// Narration is a say action that explains the violation, at the whole millisecond it
	// begins in. In Config a break follows it, so that a presenter's playback stops there,
	// where the property breaks.
	Narration sim.Action
	// Violation is the first violation of the property in Config's run.
	Violation sim.Violation
	// Runs is how many runs shrinking took.
	Runs int
}

// Shrink makes f's schedule smaller while the property stays broken: fewer actions, then
// earlier and shorter ones, then fewer nodes — with a first try at fewer nodes before the times
// are tightened — over again while any of them helps, within the shrink budget. The same
// failure always shrinks to the same counterexample. A Check may shrink several failures at
// once, from several goroutines.
func (c *Check) Shrink(f Failure) Counterexample {
	sh := &shrinker{c: c, seed: f.Seed, budget: c.budget}
	p := f.plan.clone()
	for sh.tries < sh.budget {
		changed := sh.fewerActions(&p)
		// Nodes go before the times are tightened too, while the timing has slack: a run with
		// fewer nodes draws other delays, and a schedule shrunk to the edge breaks on them.
		changed = sh.fewerNodes(&p) || changed
		changed = sh.earlier(&p) || changed
		changed = sh.fewerNodes(&p) || changed
		if !changed {
			break
		}
	}
	cx := Counterexample{Property: c.property, Expect: judged(c.property), Seed: f.Seed,
		Original: f.Schedule, Schedule: c.schedule(p), Runs: sh.tries}
	sum, err := c.play(p, f.Seed, nil)
	if err != nil {
		panic(fmt.Sprintf("check: a shrunk schedule does not run: %v", err))
	}
	v, ok := violation(&sum, c.info, c.property)
	if !ok { // cannot happen: shrinking keeps only schedules that fail
		panic("check: the shrunk schedule does not break " + c.property)
	}
	// The narration and the break after it are actions like any other: each takes a step, and
	// nothing else changes. The run is judged again with them, so the violation reported is
	// the one a replay shows. They come at the whole millisecond the violation begins in, just
	// before it: playback stops with the class about to see it.
	at := v.From.Truncate(time.Millisecond)
	stop := []sim.Action{
		{At: at, Op: sim.Say, Text: c.explain(v, cx.Original.Size(), cx.Schedule.Size())},
		{At: at, Op: sim.Break},
	}
	sum, err = c.play(p, f.Seed, stop)
	if err != nil {
		panic(fmt.Sprintf("check: the counterexample does not run: %v", err))
	}
	if v2, ok := violation(&sum, c.info, c.property); ok && sameViolation(v, v2) {
		cx.Narration = stop[0]
		cx.Config = c.config(p, f.Seed, stop)
	} else {
		cx.Config = c.config(p, f.Seed, nil)
	}
	cx.Violation = v
	return cx
}

func sameViolation(a, b sim.Violation) bool {
	return a.Property == b.Property && a.From == b.From && a.To == b.To && slices.Equal(a.Nodes, b.Nodes) && a.Detail == b.Detail
}

// explain says in a sentence or two what breaks in the counterexample, for its narration.
func (c *Check) explain(v sim.Violation, from, to Size) string {
	at := human.Seconds(v.From)
	var what string
	switch c.property {
	case sim.AtMostOneLeader:
		what = fmt.Sprintf("At %s %s both believe they lead", at, andIDs(v.Nodes))
		if v.To > v.From {
			what += ", until " + human.Seconds(v.To)
		} else {
			// One becomes a leader and the other stops at the same instant.
			what = fmt.Sprintf("At %s, for an instant, %s both believe they lead", at, andIDs(v.Nodes))
		}
		what += ": at-most-one-leader is broken."
	case sim.OneLeaderPerTerm:
		what = fmt.Sprintf("At %s %s are %s: one-leader-per-term is broken.", at, andIDs(v.Nodes), v.Detail)
	case sim.Agreement, EventualLeader:
		what = fmt.Sprintf("The run ends at %s, %s after the faults end, and no leader is agreed (%s): %s is broken.",
			at, human.Seconds(c.settle), v.Detail, c.property)
	default:
		what = fmt.Sprintf("At %s %s: %s is broken.", at, v.Detail, c.property)
	}
	if from.Actions == to.Actions && from.Nodes == to.Nodes {
		return fmt.Sprintf("%s electsim check found this schedule of %s on %s; shrinking could only make its actions earlier or shorter.",
			what, human.Plural(from.Actions, "action"), human.Plural(from.Nodes, "node"))
	}
	return fmt.Sprintf("%s electsim check found this schedule and shrank it from %s on %s to %s on %s.",
		what, human.Plural(from.Actions, "action"), human.Plural(from.Nodes, "node"), human.Plural(to.Actions, "action"), human.Plural(to.Nodes, "node"))
}

// andIDs writes "nodes 2 and 5", "nodes 1, 2 and 5".
func andIDs(ids []algo.ID) string {
	switch len(ids) {
	case 0:
		return "two nodes"
	case 1:
		return fmt.Sprintf("node %d", ids[0])
	}
	return "nodes " + algo.AndList(ids)
}

// shrinker tries smaller plans of one failing run.
type shrinker struct {
	c      *Check
	seed   uint64
	tries  int
	budget int
}

// fails reports whether plan p still breaks the property; false once the budget is spent.
func (sh *shrinker) fails(p plan) bool {
	if sh.tries >= sh.budget {
		return false
	}
	sh.tries++
	broken, _, err := sh.c.breaks(sh.c.config(p, sh.seed, nil))
	return err == nil && broken
}

// fewerActions removes faults: all of them, then halves, quarters, ... down to one at a time.
func (sh *shrinker) fewerActions(p *plan) bool {
	changed := false
	for chunk := len(p.faults); chunk >= 1; chunk /= 2 {
		for i := 0; i < len(p.faults); {
			q := p.clone()
			q.faults = slices.Delete(q.faults, i, min(i+chunk, len(q.faults)))
			if sh.fails(q) {
				*p, changed = q, true
				continue
			}
			i += chunk
		}
		if chunk > len(p.faults) {
			chunk = len(p.faults) + 1 // a success shortened the list: carry on with halves of it
		}
	}
	return changed
}

// earlier moves each fault as early as it can go without passing the one before it — which
// also shortens the fault it ends — lowers delay spikes, and closes the fault window as soon
// as the last fault allows.
func (sh *shrinker) earlier(p *plan) bool {
	changed := false
	const ms = time.Millisecond
	for i := range p.faults {
		lo := time.Duration(0)
		if i > 0 {
			lo = p.faults[i-1].At
		}
		t := bisect(lo/ms, p.faults[i].At/ms, func(v time.Duration) bool {
			q := p.clone()
			q.faults[i].At = v * ms
			return sh.fails(q)
		}) * ms
		if t != p.faults[i].At {
			p.faults[i].At, changed = t, true
		}
		if a := p.faults[i]; a.Op == sim.SetDelay && a.Delay.Max > sh.c.base.Network.Delay.Max {
			floor := sh.c.base.Network.Delay.Max
			d := bisect(floor/ms, a.Delay.Max/ms, func(v time.Duration) bool {
				q := p.clone()
				q.faults[i].Delay.Max = v * ms
				q.faults[i].Delay.Min = min(a.Delay.Min, v*ms)
				return sh.fails(q)
			}) * ms
			if d != a.Delay.Max {
				p.faults[i].Delay.Max, p.faults[i].Delay.Min, changed = d, min(a.Delay.Min, d), true
			}
		}
	}
	lo := time.Duration(0)
	if n := len(p.faults); n > 0 {
		lo = p.faults[n-1].At
	}
	end := bisect(lo/ms, p.end/ms, func(v time.Duration) bool {
		q := p.clone()
		q.end = v * ms
		return sh.fails(q)
	}) * ms
	if end != p.end {
		p.end, changed = end, true
	}
	return changed
}

// fewerNodes removes nodes, one at a time, with the faults that name them.
func (sh *shrinker) fewerNodes(p *plan) bool {
	changed := false
	for i := 0; i < len(p.ids) && len(p.ids) > 1; {
		if q, ok := p.without(p.ids[i]); ok && sh.fails(q) {
			*p, changed = q, true
			continue
		}
		i++
	}
	return changed
}

// bisect returns the smallest v in [lo, hi] for which ok holds, as a binary search finds it;
// ok(hi) is taken to hold. ok need not be monotone: the result is a v for which it holds.
func bisect(lo, hi time.Duration, ok func(time.Duration) bool) time.Duration {
	if lo >= hi {
		return hi
	}
	if ok(lo) {
		return lo
	}
	lo++
	for lo < hi {
		mid := lo + (hi-lo)/2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return hi
}
