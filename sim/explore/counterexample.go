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
	s, cx, ran := x.replay(path(tree, i))
	v, ok := s.Broken(x.property)
	if !ok {
		panic("explore: the counterexample's schedule does not break " + x.property)
	}
	// The narration and the break come as the property breaks: after the inputs of its
	// instant that break it. The base's actions still to come follow.
	after := 0
	if v.From == s.Now() {
		after = s.InputsNow()
	}
	cx.Narration = sim.Action{At: v.From, After: after, Op: sim.Say}
	cx.Config = x.config(ran, v.From) // for explain, which reads the schedule
	cx.Config.Draws = cx.Draws
	cx.Narration.Text = x.explain(v, &cx)
	ran = append(ran, planned{a: cx.Narration}, planned{a: sim.Action{At: v.From, After: after, Op: sim.Break}})
	ran = x.rest(s, ran)
	cx.Config = x.config(ran, v.From)
	cx.Config.Draws = cx.Draws
	cx.Violation = v
	return cx
}

// replay takes the transitions of path from the start and returns the run at their end, the
// schedule's faults, delays, losses, draws and steps, and every action of the run in the order
// it came — the delays chosen and the losses just before the step that chose them, the faults
// and the base's actions as they happened — each after the inputs of its instant that came
// before it: written in that order, a scenario replays the schedule exactly.
func (x *Explorer) replay(path []uint32) (*sim.Sim, Counterexample, []planned) {
	s := x.root()
	cx := Counterexample{Property: x.property}
	var ran []planned
	for _, t := range path {
		if a := x.begin(s, t>>faultShift); t>>faultShift != 0 {
			cx.Faults = append(cx.Faults, a)
		}
		x.allow(s, len(cx.Faults))
		r, ok := s.StepChoosing(t & vecMask)
		if !ok {
			panic("explore: the counterexample's schedule does not replay")
		}
		for _, c := range s.Choices() {
			l := c.Delay.Link
			switch {
			case c.Draw:
				cx.Draws = addDraw(cx.Draws, c.Node, c.Point)
			case c.Loss:
				if c.Option == 1 {
					// A loss of the instant's messages is a drop of 100% set back just after.
					cx.Losses = append(cx.Losses, c.Delay)
					ran = append(ran, planned{a: sim.Action{At: r.At, After: r.After, Op: sim.SetDrop, Link: &l, Drop: 100}},
						planned{a: sim.Action{At: r.At + lossSpan, Op: sim.SetDrop, Link: &l, Drop: x.base.Network.Drop * 100}})
				}
			default:
				cx.Delays = append(cx.Delays, c.Delay)
				ran = append(ran, planned{choice: true, a: sim.Action{At: r.At, After: r.After, Op: sim.SetDelay, Link: &l,
					Delay: network.Delay{Min: c.Delay.Delay, Max: c.Delay.Delay}}})
			}
		}
		if r.Action >= 0 {
			p := planned{a: s.Actions()[r.Action]}
			p.a.After = r.After
			if r.Action < len(x.base.Actions) {
				p.base = r.Action + 1
			}
			ran = append(ran, p)
		}
		cx.Steps++
	}
	return s, cx, ran
}

// rest appends to ran the base's actions that s has not taken yet, in order of time.
func (x *Explorer) rest(s *sim.Sim, ran []planned) []planned {
	base := len(x.base.Actions) // the run's first actions are the base's, in order of time
	for j, a := range s.Actions()[:base] {
		if !slices.ContainsFunc(ran, func(p planned) bool { return p.base == j+1 }) {
			ran = append(ran, planned{a: a, base: j + 1})
		}
	}
	return ran
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

// planned is an action of a counterexample's run; choice marks a delay chosen, which need not
// be written where it changes nothing; base is, for one of the base's actions, one more than its
// index among the run's actions, and 0 for the others.
type planned struct {
	a      sim.Action
	choice bool
	base   int
}

// config is the run of a schedule whose actions, in the order they come, are ran: every
// link's delay the first of the delays, and the delays chosen written as actions only where a
// link's delay changes. It runs a little past the violation at at.
func (x *Explorer) config(ran []planned, at time.Duration) sim.Config {
	cfg := x.base
	// Every link starts with the first delay, set before anything else: only the other choices
	// need an action. (The FIFO order is the same: with one delay on every link no message
	// overtakes another.) The network keeps its own delay, what an algorithm's parameters may
	// be worked out from — Chang–Roberts's election timeout is (2n+2) × the largest delay.
	first := network.Delay{Min: x.delays[0], Max: x.delays[0]}
	cfg.Actions = nil
	if cfg.Network.Delay != first {
		cfg.Actions = append(cfg.Actions, sim.Action{Op: sim.SetDelay, Delay: first})
	}
	// The delays the written run's links have of their own; the others have the network's.
	own := map[network.Link]network.Delay{}
	for _, p := range ran {
		if a := p.a; a.Op == sim.SetDelay && a.Link == nil {
			first = a.Delay
		} else if a.Op == sim.SetDelay {
			was, ok := own[*a.Link]
			if !ok {
				was = first
			}
			if p.choice && was == a.Delay {
				continue // a choice that changes nothing
			}
			own[*a.Link] = a.Delay
		}
		cfg.Actions = append(cfg.Actions, p.a)
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
