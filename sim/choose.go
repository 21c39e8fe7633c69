package sim

import (
	"fmt"
	"slices"
	"time"

	"electsim/algo"
	"electsim/network"
)

// An explorer (sim/explore) tries every delay a message may take, and every value that
// matters of a node's random draw. With ChooseDelays, the run no longer draws delays: the first
// message a link carries at an instant takes the delay the explorer chose for that link and
// instant, and the link keeps it for the rest of the instant — as if the scenario had said
// `at T delay A->B D` before anything else at T, which is how a counterexample replays it. A
// link whose delay the scenario set to a fixed delay that is not among the options keeps it,
// and chooses nothing from then on; so does a link a fault holds (HoldDelay). With ChooseDraws
// a node's draw (algo.Draw) is a choice too, among the ends of its range (and its middle): a
// counterexample replays it with a `draws` line (Config.Draws).
//
// What is chosen in a step is given by StepChoosing's code, a number in mixed radix: each
// choice, as the step comes to it, takes the option code mod its arity, and the code is divided
// by the arity for the next one. Choices records them.

// LinkDelay is one choice of delay: the link's messages sent at instant At take Delay, the
// option Option of the run's delays.
type LinkDelay struct {
	At     time.Duration
	Link   network.Link
	Option int
	Delay  time.Duration
}

// Choice is one choice a step made: Option of Arity ways — a link's delay; with Loss, whether
// the link loses its messages of the instant (option 1: it does; Delay names the link and the
// instant); with Draw, node Node's draw, taking the point Point of its range.
type Choice struct {
	Arity, Option int
	Loss          bool
	Draw          bool
	Delay         LinkDelay // a delay choice
	Node          algo.ID   // a draw's node
	Point         DrawPoint // a draw's point
}

// chooser is the state of the run's choices.
type chooser struct {
	options []time.Duration // the delays; none: the network draws them
	points  int             // the points of a draw's range tried (2 or 3); 0: the nodes' sources draw
	code    uint32          // what is left of the step's choice code
	at      time.Duration   // the instant memo is of
	memo    []linkChoice    // the links chosen at instant at
	made    []Choice        // the choices made in the current step
	held    []linkChoice    // links whose delay a fault set (HoldDelay): they choose nothing
	// lossLeft is how many links may still lose their messages of the instant (AllowLosses);
	// lost, how many have
	lossLeft, lost int
}

type linkChoice struct {
	from, to int32
	opt      uint8
	lost     bool // the link loses its messages of the instant
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
	s.useChooser().options = slices.Clone(options)
	return nil
}

// ChooseDraws makes every draw a node makes through algo.Draw a choice, made by StepChoosing,
// among points of its range: 2, its two ends (DrawLow, DrawHigh), or 3, its middle
// (DrawMiddle) too. A draw then leaves the node's random source as it was. Call it before the
// first step.
func (s *Sim) ChooseDraws(points int) error {
	if points != 2 && points != 3 {
		return fmt.Errorf("sim: %d points of a draw's range: expected 2 or 3", points)
	}
	s.useChooser().points = points
	return nil
}

func (s *Sim) useChooser() *chooser {
	if s.chooser == nil {
		s.chooser = &chooser{at: -1}
	}
	return s.chooser
}

// StepChoosing is Step, its choices made by code (see above; 0 takes the first option of
// every choice). Choices returns the choices it made: their arities tell an explorer which
// other codes to try.
func (s *Sim) StepChoosing(code uint32) (StepResult, bool) {
	if s.chooser != nil {
		s.chooser.code = code
		s.chooser.made = s.chooser.made[:0]
	}
	return s.Step()
}

// Choices returns the choices the last StepChoosing made, in order; valid until the next
// step.
func (s *Sim) Choices() []Choice {
	if s.chooser == nil {
		return nil
	}
	return s.chooser.made
}

// take makes a choice of arity ways, from what is left of the step's code.
func (c *chooser) take(arity int) int {
	opt := int(c.code % uint32(arity))
	c.code /= uint32(arity)
	return opt
}

// NextCode returns the code of the step that makes the choices after made's in the order an
// explorer tries them — the last choice that has an option left takes its next one, those
// after it their first — and false when made's were the last. With made the choices of code's
// step, it enumerates every combination of choices, even where what a step chooses later
// depends on what it chose before. It panics past 2²⁴ combinations.
func NextCode(made []Choice) (uint32, bool) {
	for j := len(made) - 1; j >= 0; j-- {
		if made[j].Option+1 >= made[j].Arity {
			continue
		}
		code, mult := uint64(0), uint64(1)
		for i := 0; i <= j; i++ {
			opt := made[i].Option
			if i == j {
				opt++
			}
			code += uint64(opt) * mult
			mult *= uint64(made[i].Arity)
			if code >= MaxCode {
				panic(fmt.Sprintf("sim: a step of %d choices: more ways than an explorer counts", len(made)))
			}
		}
		return uint32(code), true
	}
	return 0, false
}

// MaxCode bounds the codes of a step's choices.
const MaxCode = 1 << 24

// choose makes the choices of the link from→to for the message about to be sent on it, if
// the link has not made them at this instant: whether it loses its messages of the instant
// (AllowLosses), and its delay. It reports whether the message is lost.
func (s *Sim) choose(from, to int32) (lost bool) {
	c := s.chooser
	if c.at != s.now {
		c.at, c.memo = s.now, c.memo[:0]
	}
	for _, m := range c.memo {
		if m.from == from && m.to == to {
			return m.lost
		}
	}
	l := network.Link{From: s.idOf(from), To: s.idOf(to)}
	if c.lossLeft > 0 {
		opt := c.take(2)
		c.made = append(c.made, Choice{Arity: 2, Option: opt, Loss: true, Delay: LinkDelay{At: s.now, Link: l}})
		if opt == 1 {
			c.lossLeft--
			c.lost++
			c.memo = append(c.memo, linkChoice{from: from, to: to, lost: true})
			return true
		}
		if len(c.options) == 0 || slices.ContainsFunc(c.held, func(m linkChoice) bool { return m.from == from && m.to == to }) {
			c.memo = append(c.memo, linkChoice{from: from, to: to}) // not lost: not to be asked again
			return false
		}
	}
	if len(c.options) == 0 {
		return false // the network draws delays
	}
	for _, m := range c.held {
		if m.from == from && m.to == to {
			return false
		}
	}
	if cur := s.net.DelayOf(l); cur.Min == cur.Max && !slices.Contains(c.options, cur.Min) {
		// The scenario set this link's delay: it keeps it.
		c.held = append(c.held, linkChoice{from: from, to: to})
		sortLinks(c.held)
		return false
	}
	opt := c.take(len(c.options))
	c.memo = append(c.memo, linkChoice{from: from, to: to, opt: uint8(opt)})
	d := c.options[opt]
	c.made = append(c.made, Choice{Arity: len(c.options), Option: opt,
		Delay: LinkDelay{At: s.now, Link: l, Option: opt, Delay: d}})
	fault{s: s, record: -1}.setDelay(&Action{At: s.now, Op: SetDelay, Link: &l, Delay: network.Delay{Min: d, Max: d}})
	return false
}

// AllowLosses lets the next step lose the messages of at most n links at this instant, each
// a choice (StepChoosing); 0 lets it lose none.
func (s *Sim) AllowLosses(n int) { s.useChooser().lossLeft = n }

// Losses returns how many times a link lost its messages of an instant by choice.
func (s *Sim) Losses() int {
	if s.chooser == nil {
		return 0
	}
	return s.chooser.lost
}

func (c *chooser) clone() *chooser {
	if c == nil {
		return nil
	}
	return &chooser{options: c.options, points: c.points, at: c.at, memo: slices.Clone(c.memo), held: slices.Clone(c.held),
		lossLeft: c.lossLeft, lost: c.lost}
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

// NextInput returns the time of the next input to come — NextAt, less the events of timers
// cancelled or reset since, which Step skips — and false when none is. It is what the run's
// state (AppendState) says comes next, so an explorer that decides by it decides alike in
// states with one fingerprint.
func (s *Sim) NextInput() (time.Duration, bool) {
	next, ok := time.Duration(0), false
	see := func(at time.Duration) {
		if !ok || at < next {
			next, ok = at, true
		}
	}
	s.q.each(func(k qkey) {
		if s.q.event(k.idx).kind != evTimer {
			see(k.at)
		}
	})
	if len(s.mid) > 0 {
		see(s.actions[s.mid[0]].At)
	}
	for i := range s.nodes {
		n := &s.nodes[i]
		if n.down {
			continue
		}
		for slot := range int32(len(s.timerNames)) {
			if ts := s.timer(n, slot); ts.armed {
				see(ts.deadline)
			}
		}
	}
	return next, ok
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

// MaxTerm returns the highest term any node has reported (0 for algorithms without terms).
func (s *Sim) MaxTerm() uint64 {
	var t uint64
	for i := range s.nodes {
		t = max(t, s.nodes[i].last.Term)
	}
	return t
}

// MaxStored returns the highest number any node keeps on stable storage (Env.Store), the ids
// it keeps there (Info.StoredIDs) left out.
func (s *Sim) MaxStored() uint64 {
	var v uint64
	for i := range s.side {
		for k, x := range s.side[i].disk {
			if !slices.Contains(s.cfg.Algorithm.StoredIDs, k) {
				v = max(v, x)
			}
		}
	}
	return v
}

// Partitioned reports whether a partition is in force.
func (s *Sim) Partitioned() bool { return s.net.Partitioned() }
