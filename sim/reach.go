package sim

import (
	"electsim/algo"
	"electsim/network"
)

// Reachable reports whether a message sent now from node from to node to would get through the
// partitions and cut links in force (its delay and loss aside): what electsim sweep asks of a
// leader and a node that suspects it.
func (s *Sim) Reachable(from, to algo.ID) bool {
	return !s.net.Blocking() || s.net.Blocked(from, to) == network.Delivered
}
