package check

import (
	"time"

	"electsim/algo"
	"electsim/sim"
)

// DefaultWindow is how long faults may fall in a run unless the run length says otherwise.
const DefaultWindow = 2 * time.Second

// minWindow is the shortest fault window a check accepts.
const minWindow = 100 * time.Millisecond

// timescale is the algorithm's longest timing parameter on this cluster: its largest duration
// or range bound (as set, or its default), and at least one trip round the ring, 2(n+1) × the
// largest delay — Ring's computed election timeout. Fault durations and delay spikes are drawn
// in multiples of it, so they reach beyond every timeout the algorithm has.
func timescale(cfg *sim.Config) time.Duration {
	maxDelay := max(cfg.Network.Delay.Max, time.Millisecond)
	t := time.Duration(2*(len(cfg.IDs)+1)) * maxDelay
	for _, p := range cfg.Algorithm.Params {
		if p.Kind == algo.SwitchParam {
			continue
		}
		if v, ok := cfg.Params[p.Key]; ok {
			t = max(t, v.Max)
		} else if _, hi, err := algo.ParseRange(p.Default); err == nil {
			t = max(t, hi) // a default given as a formula ("(2n+2) × the max delay") is counted above
		}
	}
	return t
}

// Settle is the time a check gives the algorithm after the last fault to agree on a leader:
// six times its longest timing parameter (the longest delay spike is three of them, so what is
// still in flight has arrived with three to spare for the election after it) and ten network
// delays, rounded up to 100ms.
func Settle(cfg *sim.Config) time.Duration {
	d := 6*timescale(cfg) + 10*cfg.Network.Delay.Max
	const round = 100 * time.Millisecond
	return (d + round - 1) / round * round
}
