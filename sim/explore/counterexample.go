package explore

import (
	"fmt"
	"slices"
	"time"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/network"
	"electsim/scenarios"
	"electsim/sim"
	"electsim/sim/check"
)

// Counterexample is the shortest schedule that breaks the property: no schedule of fewer steps
// within the bounds does (of those as short, the first in the explorer's order).
type Counterexample struct {
	Property  string
	Violation sim.Violation // as the replay shows it
	Steps     int           // the schedule's steps (events), the faults' included
	Faults    []sim.Action  // the faults applied, in order, with their times
	Delays    []sim.LinkDelay
	// Config is the schedule as a run: the delays chosen as `delay` actions on the links (each
	// before anything else at its instant), the faults, and a say and a break where the
	// property breaks. It replays the schedule exactly.
	Config    sim.Config
	Narration sim.Action
}

// counterexample replays the schedule to tree[i], which breaks the property, and writes it as
// a run.
func (x *Explorer) counterexample(tree []link, i int) Counterexample {
	s := x.root()
	cx := Counterexample{Property: x.property}
	var scratch []uint8
	for _, t := range path(tree, i) {
		if a := x.begin(s, t>>faultShift); t>>faultShift != 0 {
			cx.Faults = append(cx.Faults, a)
		}
		if _, ok := s.StepChoosing(x.digits(t&vecMask, scratch)); !ok {
			panic("explore: the counterexample's schedule does not replay")
		}
		cx.Delays = append(cx.Delays, s.Chosen()...)
		cx.Steps++
	}
	v, ok := s.Broken(x.property)
	if !ok {
		panic("explore: the counterexample's schedule does not break " + x.property)
	}
	cx.Config = x.config(cx.Delays, cx.Faults, nil, v.From)
	cx.Narration = sim.Action{At: v.From, Op: sim.Say, Text: x.explain(v, &cx)}
	cx.Config = x.config(cx.Delays, cx.Faults, []sim.Action{cx.Narration, {At: v.From, Op: sim.Break}}, v.From)
	cx.Violation = v
	return cx
}

// config is the run of a schedule: every link's delay the first of the delays, the other
// delays chosen as actions — only where a link's delay changes, each before everything else at
// its instant — then the base's own actions and the
// faults, the narration after whatever is due at its instant; it runs a little past the
// violation at `at`.
func (x *Explorer) config(delays []sim.LinkDelay, faults, narration []sim.Action, at time.Duration) sim.Config {
	cfg := x.base
	cfg.Actions = nil
	// Every link starts with the first delay: only the other choices need an action. (The FIFO
	// order is the same: with one delay on every link no message overtakes another.)
	cfg.Network.Delay = network.Delay{Min: x.delays[0], Max: x.delays[0]}
	current := map[network.Link]network.Delay{}
	for _, d := range delays {
		was, ok := current[d.Link]
		if !ok {
			was = cfg.Network.Delay
		}
		now := network.Delay{Min: d.Delay, Max: d.Delay}
		if was == now {
			continue
		}
		current[d.Link] = now
		l := d.Link
		cfg.Actions = append(cfg.Actions, sim.Action{At: d.At, Op: sim.SetDelay, Link: &l, Delay: now})
	}
	cfg.Actions = append(cfg.Actions, x.base.Actions...)
	cfg.Actions = append(cfg.Actions, faults...)
	cfg.Actions = append(cfg.Actions, narration...)
	slices.SortStableFunc(cfg.Actions, func(a, b sim.Action) int {
		switch {
		case a.At < b.At:
			return -1
		case a.At > b.At:
			return 1
		}
		return 0
	})
	cfg.RunFor = at.Truncate(10*time.Millisecond) + 20*time.Millisecond
	cfg.Engine = sim.Goroutine // what electsim run uses unless told otherwise
	return cfg
}

// explain says in a sentence or two what breaks, for the counterexample's narration.
func (x *Explorer) explain(v sim.Violation, cx *Counterexample) string {
	at := human.Seconds(v.From)
	var what string
	switch x.property {
	case sim.AtMostOneLeader:
		what = fmt.Sprintf("At %s %s both believe they lead: at-most-one-leader is broken.", at, andIDs(v.Nodes))
	case sim.OneLeaderPerTerm:
		what = fmt.Sprintf("At %s %s are %s: one-leader-per-term is broken.", at, andIDs(v.Nodes), v.Detail)
	default:
		what = fmt.Sprintf("At %s %s: %s is broken.", at, v.Detail, x.property)
	}
	return fmt.Sprintf("%s electsim check --exhaustive tried every schedule of fewer steps and none breaks it: this one takes %s and %s.",
		what, human.Plural(cx.Steps, "step"), human.Plural(len(cx.Faults)+x.spikeCount(cx.Delays), "fault"))
}

// spikeCount counts the delay faults among the delays chosen.
func (x *Explorer) spikeCount(delays []sim.LinkDelay) int {
	n := 0
	for _, d := range delays {
		if d.Option == x.spike {
			n++
		}
	}
	return n
}

// FaultCount is how many fault actions the counterexample takes, its delay faults included.
func (cx *Counterexample) FaultCount(b Bounds) int {
	n := len(cx.Faults)
	for _, d := range cx.Delays {
		if b.Spike > 0 && d.Delay == b.Spike {
			n++
		}
	}
	return n
}

// Scenario returns the counterexample as a scenario named name, titled with the command that
// found it, with the expectation that pins the violation. It first checks the scenario,
// written out and read back, replays to the same violation: an error says it does not, which
// is a bug in electsim.
func (cx *Counterexample) Scenario(name, foundBy string) (*scenarios.Scenario, error) {
	c := check.Counterexample{Property: cx.Property, Expect: cx.Property, Seed: cx.Config.Seed,
		Config: cx.Config, Narration: cx.Narration, Violation: cx.Violation}
	return c.Scenario(name, foundBy)
}

func andIDs(ids []algo.ID) string {
	switch len(ids) {
	case 0:
		return "two nodes"
	case 1:
		return fmt.Sprintf("node %d", ids[0])
	}
	return "nodes " + algo.AndList(ids)
}
