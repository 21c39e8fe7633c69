package bench

import (
	"fmt"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/sim"
)

// The theories an algorithm gives in the registry (algo.Info.Theory), beside the exact oracles
// of Bully and Chang–Roberts (oracle.go): a bound on the messages of one election, or for a
// randomised algorithm their expected number, and its expected phases (rounds).

// The pseudo-kinds of a registry theory: every message sent, and the highest phase one carried.
const (
	AllKinds = "messages"
	Phases   = "phases"
)

// registryTheories returns the theory algorithm info gives for a run among n nodes, if any.
func registryTheories(info *algo.Info, n int) []Theory {
	th := info.Theory
	if th == nil || th.Messages == nil {
		return nil
	}
	t := Theory{Kind: AllKinds, Exact: -1, Note: th.Bound}
	if th.Expected {
		t.Mean = th.Messages(n)
	} else {
		t.Bound = int64(th.Messages(n))
	}
	out := []Theory{t}
	if th.Rounds != nil {
		out = append(out, Theory{Kind: Phases, Exact: -1, Mean: th.Rounds(n), Note: th.RoundsBound})
	}
	return out
}

// theoriesOf returns the theory of the run cfg: the registry's on the run's own graph when
// the algorithm gives one (algo.Theory.OnGraph) — an exact count of its one kind of message,
// or a bound on them all — else Theories.
func theoriesOf(cfg *sim.Config) []Theory {
	th := cfg.Algorithm.Theory
	if th == nil || th.OnGraph == nil {
		return Theories(cfg.Algorithm.Name, cfg.IDs)
	}
	cl, err := cfg.Cluster()
	if err != nil {
		return nil
	}
	count := th.OnGraph(cl)
	if th.GraphExact && len(cfg.Algorithm.Kinds) == 1 {
		return []Theory{{Kind: cfg.Algorithm.Kinds[0], Exact: count, Note: th.GraphBound}}
	}
	return []Theory{{Kind: AllKinds, Exact: -1, Bound: count, Note: th.GraphBound}}
}

// Samples is how many seeds a randomised algorithm's bench averages over among n nodes: many
// among few nodes, fewer among many: three among 100,000.
func Samples(n int) int { return max(1, min(200, 300_000/max(n, 1))) }

// sampleMore runs the workload of cfg again with the seeds after cfg's, for Samples(n) runs in
// all, and sets r's means — messages sent and phases — and its fewest and most messages, over
// every run, r's own included; a run above its own bound is noted in r.OverBound.
func sampleMore(r *Result, cfg sim.Config, worst bool) error {
	runs := Samples(len(cfg.IDs))
	total, phases := float64(sumOf(r.Sent)), float64(r.Phases)
	r.MinSent, r.MaxSent = sumOf(r.Sent), sumOf(r.Sent)
	for k := 1; k < runs; k++ {
		c, err := WorkloadOf(r.Algorithm, len(cfg.IDs), r.Seed+uint64(k), sim.Inline, worst)
		if err != nil {
			return err
		}
		c.MaxSent, c.MaxScheduled = cfg.MaxSent, cfg.MaxScheduled
		s, err := sim.New(c)
		if err != nil {
			return err
		}
		sum := s.Run()
		if sum.Leader == 0 {
			return fmt.Errorf("%s among %s nodes, seed %d: no leader was agreed (%s)", r.Algorithm,
				human.Thousands(int64(len(cfg.IDs))), c.Seed, sum.Halted)
		}
		sent := sumOf(sum.Sent)
		total += float64(sent)
		phases += float64(sum.Phases)
		r.MinSent, r.MaxSent = min(r.MinSent, sent), max(r.MaxSent, sent)
		for _, th := range theoriesOf(&c) {
			if th.Kind == AllKinds && th.Bound > 0 && sent > th.Bound {
				r.OverBound = append(r.OverBound, c.Seed)
			}
		}
	}
	r.Runs = runs
	r.MeanSent, r.MeanPhases = total/float64(runs), phases/float64(runs)
	return nil
}

func sumOf(xs []int64) int64 {
	var t int64
	for _, x := range xs {
		t += x
	}
	return t
}
