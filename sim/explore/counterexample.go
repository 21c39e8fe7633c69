package explore

import (
	"cmp"
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
	Draws     []sim.NodeDraws // the nodes' draws, by node in ascending order; nil with DrawsSeed
	Losses    []sim.LinkDelay // the links that lost their messages of an instant (At, Link)
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
	for _, t := range path(tree, i) {
		if a := x.begin(s, t>>faultShift); t>>faultShift != 0 {
			cx.Faults = append(cx.Faults, a)
		}
		x.allow(s, len(cx.Faults))
		if _, ok := s.StepChoosing(t & vecMask); !ok {
			panic("explore: the counterexample's schedule does not replay")
		}
		for _, c := range s.Choices() {
			switch {
			case c.Draw:
				cx.Draws = addDraw(cx.Draws, c.Node, c.Point)
			case c.Loss:
				if c.Option == 1 {
					cx.Losses = append(cx.Losses, c.Delay)
				}
			default:
				d := c.Delay
				if x.delayFaultAt(cx.Faults, d) {
					// A fault set the link back at this instant, after inputs of it: the
					// choice comes after them too, just before the input that sends.
					d.After = s.InputsNow() - 1
				}
				cx.Delays = append(cx.Delays, d)
			}
		}
		cx.Steps++
	}
	v, ok := s.Broken(x.property)
	if !ok {
		panic("explore: the counterexample's schedule does not break " + x.property)
	}
	cx.Config = x.config(cx.Delays, cx.Losses, cx.Faults, nil, v.From)
	cx.Config.Draws = cx.Draws
	// The narration and the break come as the property breaks: after the inputs of its
	// instant that break it.
	after := 0
	if v.From == s.Now() {
		after = s.InputsNow()
	}
	cx.Narration = sim.Action{At: v.From, After: after, Op: sim.Say, Text: x.explain(v, &cx)}
	cx.Config = x.config(cx.Delays, cx.Losses, cx.Faults, []sim.Action{cx.Narration, {At: v.From, After: after, Op: sim.Break}}, v.From)
	cx.Config.Draws = cx.Draws
	cx.Violation = v
	return cx
}

// delayFaultAt reports whether one of faults set the delay of d's link at d's instant after
// some of its inputs.
func (x *Explorer) delayFaultAt(faults []sim.Action, d sim.LinkDelay) bool {
	return slices.ContainsFunc(faults, func(a sim.Action) bool {
		return a.Op == sim.SetDelay && a.At == d.At && a.After > 0 && *a.Link == d.Link
	})
}

// addDraw appends point p to node id's draws, keeping the nodes in ascending order.
func addDraw(draws []sim.NodeDraws, id algo.ID, p sim.DrawPoint) []sim.NodeDraws {
	i, found := slices.BinarySearchFunc(draws, id, func(d sim.NodeDraws, id algo.ID) int { return int(d.Node - id) })
	if !found {
		draws = slices.Insert(draws, i, sim.NodeDraws{Node: id})
	}
	draws[i].Points = append(draws[i].Points, p)
	return draws
}

// config is the run of a schedule: every link's delay the first of the delays, and at each
// instant, before its first input and then after each input that a fault follows (Action.After),
// in this order: the delay faults (a link delayed, or set back), the other delays chosen — as
// actions, only where a link's delay changes — the base's own actions, the other faults, the
// narration. (At an instant the explorer applies a fault first, and a link then chooses on its
// first message, so this order replays the schedule.) It runs a little past the violation at
// at.
func (x *Explorer) config(delays, losses []sim.LinkDelay, faults, narration []sim.Action, at time.Duration) sim.Config {
	cfg := x.base
	// Every link starts with the first delay: only the other choices need an action. (The FIFO
	// order is the same: with one delay on every link no message overtakes another.)
	cfg.Network.Delay = network.Delay{Min: x.delays[0], Max: x.delays[0]}
	type ranked struct {
		a    sim.Action
		rank int
	}
	var all []ranked
	for _, d := range delays {
		l := d.Link
		all = append(all, ranked{sim.Action{At: d.At, After: d.After, Op: sim.SetDelay, Link: &l, Delay: network.Delay{Min: d.Delay, Max: d.Delay}}, 1})
	}
	for _, a := range x.base.Actions {
		all = append(all, ranked{a, 2})
	}
	for _, a := range faults {
		r := 3
		if a.Op == sim.SetDelay {
			r = 0
		}
		all = append(all, ranked{a, r})
	}
	for _, a := range narration {
		all = append(all, ranked{a, 4})
	}
	// A link loses its messages of an instant as a drop of 100% at the instant, set back 1µs
	// later, before anything else then. Each counts as a fault.
	for _, l := range losses {
		link := l.Link
		all = append(all, ranked{sim.Action{At: l.At, Op: sim.SetDrop, Link: &link, Drop: 100}, 0},
			ranked{sim.Action{At: l.At + lossSpan, Op: sim.SetDrop, Link: &link, Drop: x.base.Network.Drop * 100}, 0})
	}
	slices.SortStableFunc(all, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(a.a.At, b.a.At), cmp.Compare(a.a.After, b.a.After), a.rank-b.rank)
	})
	current := map[network.Link]network.Delay{}
	cfg.Actions = nil
	for _, r := range all {
		if r.a.Op == sim.SetDelay && r.a.Link != nil {
			was, ok := current[*r.a.Link]
			if !ok {
				was = cfg.Network.Delay
			}
			current[*r.a.Link] = r.a.Delay
			if r.rank == 1 && was == r.a.Delay {
				continue // a choice that changes nothing
			}
		}
		cfg.Actions = append(cfg.Actions, r.a)
	}
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
		what, human.Plural(cx.Steps, "step"), human.Plural(cx.FaultCount(), "fault"))
}

// FaultCount is how many faults the counterexample takes: fault actions and links that lost
// their messages of an instant.
func (cx *Counterexample) FaultCount() int { return len(cx.Faults) + len(cx.Losses) }

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
