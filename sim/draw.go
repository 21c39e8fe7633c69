package sim

import (
	"fmt"
	"slices"

	"electsim/algo"
)

// DrawPoint is a point of a draw's range [0, n) that an explorer tries (ChooseDraws) and a
// counterexample pins (Config.Draws): its low end, its high end, or its middle.
type DrawPoint uint8

// The points of a draw's range.
const (
	DrawLow    DrawPoint = iota // 0
	DrawHigh                    // n−1
	DrawMiddle                  // (n−1)/2
)

// String returns "low", "high" or "middle".
func (p DrawPoint) String() string {
	switch p {
	case DrawLow:
		return "low"
	case DrawHigh:
		return "high"
	case DrawMiddle:
		return "middle"
	}
	return fmt.Sprintf("point(%d)", uint8(p))
}

// ParseDrawPoint reads "low", "high" or "middle".
func ParseDrawPoint(s string) (DrawPoint, error) {
	for p := DrawLow; p <= DrawMiddle; p++ {
		if s == p.String() {
			return p, nil
		}
	}
	return 0, fmt.Errorf("unknown draw %q (choose low, high or middle)", s)
}

// value is the point of the range [0, n).
func (p DrawPoint) value(n int64) int64 {
	switch p {
	case DrawHigh:
		return n - 1
	case DrawMiddle:
		return (n - 1) / 2
	}
	return 0
}

// NodeDraws pins node Node's draws (algo.Draw): its first len(Points) draws take these points
// of their ranges, in order, whatever its random source would draw; the draws after them are
// its source's. A counterexample an explorer found with draws as choices replays so.
type NodeDraws struct {
	Node   algo.ID
	Points []DrawPoint
}

// validateDraws checks that every node pinned is in the cluster, once.
func validateDraws(draws []NodeDraws, known func(algo.ID) bool) error {
	var seen []algo.ID
	for _, d := range draws {
		if !known(d.Node) {
			return fmt.Errorf("draws of node %d: no such node", d.Node)
		}
		if slices.Contains(seen, d.Node) {
			return fmt.Errorf("draws of node %d are given twice", d.Node)
		}
		seen = append(seen, d.Node)
	}
	return nil
}

// pinDraws hands each node its pinned draws.
func (s *Sim) pinDraws() {
	for _, d := range s.cfg.Draws {
		if len(d.Points) > 0 {
			s.sideOf(int32(s.cluster.Index(d.Node))).pinned = d.Points
		}
	}
}

// Draw is algo.Draw for the engine's nodes: a pinned point (Config.Draws), else a choice
// (ChooseDraws), else the node's random source's Int64N(n).
func (e *nodeEnv) Draw(n int64) int64 {
	if n <= 0 {
		panic("invalid argument to Draw")
	}
	s := e.s
	if s.side != nil {
		if side := &s.side[e.n.idx]; len(side.pinned) > 0 {
			p := side.pinned[0]
			side.pinned = side.pinned[1:]
			return p.value(n)
		}
	}
	if c := s.chooser; c != nil && c.points > 0 {
		return s.chooseDraw(e.n, n)
	}
	return e.Rand().Int64N(n)
}

// chooseDraw makes node n's draw from [0, rangeN) a choice among the distinct points of the
// range tried.
func (s *Sim) chooseDraw(n *nodeRec, rangeN int64) int64 {
	c := s.chooser
	arity := min(int64(c.points), rangeN) // low, high, middle: distinct while the range holds them
	opt := c.take(int(arity))
	p := DrawPoint(opt)
	c.made = append(c.made, Choice{Arity: int(arity), Option: opt, Draw: true, Node: s.nodeID(n), Point: p})
	return p.value(rangeN)
}

// appendPinned encodes the draws still pinned for a node.
func appendPinned(b []byte, pinned []DrawPoint) []byte {
	b = append(b, byte(min(len(pinned), 255)))
	for _, p := range pinned {
		b = append(b, byte(p))
	}
	return b
}
