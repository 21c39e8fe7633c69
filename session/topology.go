package session

import "electsim/algo"

// Topology returns the run's topology, for a picture to draw its edges: a ring's go round in
// ring order, so they show which way a unidirectional ring's messages travel. It is shared:
// do not change it.
func (s *Session) Topology() *algo.Topology { return s.run.Topology() }
