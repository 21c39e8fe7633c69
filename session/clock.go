package session

import (
	"time"

	"electsim/algo"
)

// NodeClock is a node's own clock as a picture shows it beside the node (docs/model.md,
// "Clocks that drift"): the rate it runs at — 1 for a clock that keeps true time — and what it
// reads now. The run's own time, Session.Now, stays true.
type NodeClock struct {
	ID    algo.ID
	Rate  float64
	Local time.Duration
}

// Drifts reports whether the clock runs at another rate than true time, or reads another time:
// whether a picture should show it.
func (c NodeClock) Drifts(now time.Duration) bool { return c.Rate != 1 || c.Local != now }

// Clock returns node id's clock at the session's instant.
func (s *Session) Clock(id algo.ID) NodeClock {
	rate, local := s.run.ClockOf(id)
	return NodeClock{ID: id, Rate: rate, Local: local}
}

// Clocks returns every node's clock, ascending by id.
func (s *Session) Clocks() []NodeClock {
	var out []NodeClock
	for _, n := range s.run.Nodes() {
		out = append(out, s.Clock(n.ID))
	}
	return out
}
