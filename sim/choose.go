package sim

import (
	"fmt"
	"slices"
	"time"

	"electsim/algo"
	"electsim/network"
)

// An explorer (sim/explore) tries every delay a message may take. With ChooseDelays, the run
// no longer draws delays: the first message a link carries at an instant takes the delay the
// explorer chose for that link and instant, and the link keeps it for the rest of the instant
// — as if the scenario had said `at T delay A->B D` before anything else at T, which is how a
// counterexample replays it. What is chosen in a step is given by StepChoosing. A link whose
// delay the scenario set to a fixed delay that is not among the options keeps it, and chooses
// nothing from then on; so does a link a fault holds (HoldDelay).

// LinkDelay is one choice of delay: the link's messages sent at instant At take Delay, the
// option Option of the run's delays.
type LinkDelay struct {
	At     time.Duration
	Link   network.Link
	Option int
	Delay  time.Duration
}

// chooser is the state of the run's delay choices.
type chooser struct {
	options []time.Duration
	vec     []uint8       // the options for the step's choices, in order; past its end, option 0
	at      time.Duration // the instant memo is of
	memo    []linkChoice  // the links chosen at instant at
	made    []LinkDelay   // the choices made in the current step
	held    []linkChoice  // links whose delay a fault set (HoldDelay): they choose nothing
}

type linkChoice struct {
	from, to int32
	opt      uint8
}

// maxDelayOptions bounds the delays a message may be given a choice of.
const maxDelayOptions = 16

// ChooseDelays makes every link's delay a choice among options (at most 16 distinct
// non-negative durations), made by StepChoosing. Call it before the first step.
func (s *Sim) ChooseDelays(options []time.Duration) error {
	if len(options) == 0 || len(options) > maxDelayOptions {
		return fmt.Errorf("sim: %d delay options: expected 1 to %d", len(options), maxDelayOptions)
	}
	for _, d := range options {
		if d < 0 || d > algo.MaxDuration {
			return fmt.Errorf("sim: delay option %s: expected a non-negative duration", algo.FormatDuration(d))
		}
	}
	s.chooser = &chooser{options: slices.Clone(options), at: -1}
	return nil
}

// StepChoosing is Step, giving the links that choose a delay in this step options vec[0],
// vec[1], … in the order they first carry a message (option 0 past the end of vec). Chosen
// returns the choices it made: how many there were tells an explorer how many vectors to try.
func (s *Sim) StepChoosing(vec []uint8) (StepResult, bool) {
	if s.chooser != nil {
		s.chooser.vec = vec
		s.chooser.made = s.chooser.made[:0]
	}
	return s.Step()
}

// Chosen returns the delay choices the last StepChoosing made, in order; valid until the
// next step.
func (s *Sim) Chosen() []LinkDelay {
	if s.chooser == nil {
		return nil
	}
	return s.chooser.made
}

// choose sets the delay of the link from→to for the message about to be sent on it, if the
// link has not been given one at this instant.
func (s *Sim) choose(from, to int32) {
	c := s.chooser
	if c.at != s.now {
		c.at, c.memo = s.now, c.memo[:0]
	}
	for _, m := range c.memo {
		if m.from == from && m.to == to {
			return
		}
	}
	for _, m := range c.held {
		if m.from == from && m.to == to {
			return
		}
	}
	l := network.Link{From: s.idOf(from), To: s.idOf(to)}
	if cur := s.net.DelayOf(l); cur.Min == cur.Max && !slices.Contains(c.options, cur.Min) {
		// The scenario set this link's delay: it keeps it.
		c.held = append(c.held, linkChoice{from: from, to: to})
		sortLinks(c.held)
		return
	}
	opt := uint8(0)
	if k := len(c.made); k < len(c.vec) {
		opt = c.vec[k]
	}
	if int(opt) >= len(c.options) {
		panic(fmt.Sprintf("sim: delay option %d of %d", opt, len(c.options)))
	}
	c.memo = append(c.memo, linkChoice{from, to, opt})
	d := c.options[opt]
	c.made = append(c.made, LinkDelay{At: s.now, Link: l, Option: int(opt), Delay: d})
	fault{s: s, record: -1}.setDelay(&Action{At: s.now, Op: SetDelay, Link: &l, Delay: network.Delay{Min: d, Max: d}})
}

func (c *chooser) clone() *chooser {
	if c == nil {
		return nil
	}
	return &chooser{options: c.options, at: c.at, memo: slices.Clone(c.memo), held: slices.Clone(c.held)}
}

// HoldDelay, with hold, stops link l from choosing a delay: a fault sets it (a `delay` action
// the explorer schedules), and it keeps that delay until released — HoldDelay without hold —
// when it chooses again. It does nothing without ChooseDelays.
func (s *Sim) HoldDelay(l network.Link, hold bool) {
	c := s.chooser
	if c == nil {
		return
	}
	from, to := int32(s.cluster.Index(l.From)), int32(s.cluster.Index(l.To))
	c.held = slices.DeleteFunc(c.held, func(m linkChoice) bool { return m.from == from && m.to == to })
	if hold {
		c.held = append(c.held, linkChoice{from: from, to: to})
		sortLinks(c.held)
	}
}

func sortLinks(ls []linkChoice) {
	slices.SortFunc(ls, func(a, b linkChoice) int {
		if a.from != b.from {
			return int(a.from - b.from)
		}
		return int(a.to - b.to)
	})
}

// DelayHeld reports whether link l's delay is held by a fault (HoldDelay).
func (s *Sim) DelayHeld(l network.Link) bool {
	if s.chooser == nil {
		return false
	}
	from, to := int32(s.cluster.Index(l.From)), int32(s.cluster.Index(l.To))
	return slices.ContainsFunc(s.chooser.held, func(m linkChoice) bool { return m.from == from && m.to == to })
}

// NextAt returns the time of the next event queued, and false when none is. (It may be a
// timer that was cancelled or reset since: Step skips those.)
func (s *Sim) NextAt() (time.Duration, bool) {
	if s.q.len() == 0 {
		return 0, false
	}
	at, _ := s.q.top()
	return at, true
}

// Broken returns the first violation of property so far — for at-most-one-leader, a split
// brain still going on counts, from its start to now — and whether there is one.
func (s *Sim) Broken(property string) (Violation, bool) {
	for _, v := range s.monitor.violations {
		if v.Property == property {
			return v, true
		}
	}
	if property == AtMostOneLeader && s.monitor.split != nil {
		v := *s.monitor.split
		v.To = s.now
		v.Nodes = slices.Clone(v.Nodes)
		return v, true
	}
	return Violation{}, false
}

// StatusOf returns node id's status as the run sees it (crashed and paused laid over the
// node's own); id must be in the cluster.
func (s *Sim) StatusOf(id algo.ID) Status { return s.node(id).status() }

// Partitioned reports whether a partition is in force.
func (s *Sim) Partitioned() bool { return s.net.Partitioned() }
