package check

import (
	"time"

	"electsim/sim"
)

// Timescale is the algorithm's longest timing parameter on the cluster cfg describes, and at
// least one trip round the ring: what the checker's delay spikes and fault durations are drawn
// in multiples of. The exhaustive explorer's delay fault is measured in it too.
func Timescale(cfg *sim.Config) time.Duration { return timescale(cfg) }
