package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// Algorithms returns the algorithms a bench can run, in the order they are listed: every
// registered one.
func Algorithms() []string { return algo.Names() }

// DefaultSizes returns the node counts electsim bench measures algorithm name's election
// among when it is not told: as large as the election goes in seconds. Bully and Lowest-ID cost
// n² messages; Raft's election among thousands of nodes splits the vote again and again.
func DefaultSizes(name string) []int {
	switch name {
	case "bully":
		return []int{100, 1000, 2000}
	case "ring":
		return []int{1000, 10000, 100000}
	}
	return []int{100, 1000}
}

// Workload returns the run that measures one election of algorithm name among n nodes, from
// boot to the first agreed leader, on engine e:
//
//   - bully: nodes 1..n, every message takes exactly 10ms, and the top node is down from time 0:
//     every other node boots into an election (the exact counts of docs/performance.md).
//   - ring: the ids 1..n in a random ring order drawn from seed, every node initiating at boot,
//     without ACKs — the paper's algorithm (ELECTION: the exact count of the instance, n·H_n on
//     average).
//   - lowest-id and raft: nodes 1..n with the default network, to the first agreed leader.
//
// Heartbeats and follower timeouts are stretched far beyond the election, so that the leader's
// heartbeats to every node do not swamp the election being measured: among 100,000 nodes a
// ring's ELECTED takes minutes of virtual time to go round, and a leader would otherwise send
// 100,000 heartbeats every 50ms of it. The trace is off.
func Workload(name string, n int, seed uint64, e sim.Engine) (sim.Config, error) {
	return WorkloadOf(name, n, seed, e, false)
}

// WorkloadOf is Workload, with the ids in the ring order the algorithm's theory says costs the
// most (algo.Theory.WorstIDs) when worst is set. Every other algorithm — the ring catalog, and
// any registered since — is measured the same way: ids 1..n in a random ring order drawn from
// seed, on its usual topology, every message taking exactly 10ms, from boot to the first agreed
// leader.
func WorkloadOf(name string, n int, seed uint64, e sim.Engine, worst bool) (sim.Config, error) {
	info, err := algo.Lookup(name)
	if err != nil {
		return sim.Config{}, err
	}
	if n < 2 {
		return sim.Config{}, fmt.Errorf("a bench needs at least 2 nodes, got %d", n)
	}
	cfg := sim.DefaultConfig(info, n)
	cfg.Seed = seed
	cfg.Engine = e
	cfg.UntilLeader = true
	cfg.RunFor = 24 * time.Hour
	cfg.MaxScheduled = 1 << 30 // the budget is the caller's: see Estimate
	cfg.StallSteps = math.MaxInt
	fixed := network.Delay{Min: 10 * time.Millisecond, Max: 10 * time.Millisecond}
	set := func(kv ...string) {
		cfg.Params = algo.Params{}
		for i := 0; i+1 < len(kv); i += 2 {
			v, err := info.ParseParam(kv[i], kv[i+1])
			if err != nil {
				panic(fmt.Sprintf("bench: %s: %v", name, err))
			}
			cfg.Params[kv[i]] = v
		}
	}
	switch name {
	case "bully":
		cfg.Network.Delay = fixed
		cfg.Actions = []sim.Action{{At: 0, Op: sim.Crash, Nodes: []algo.ID{algo.ID(n)}}}
		set("heartbeat", "1h", "timeout", "2h")
	case "ring":
		rng := rand.New(rand.NewPCG(seed, 0x72696e67))
		rng.Shuffle(len(cfg.IDs), func(i, j int) { cfg.IDs[i], cfg.IDs[j] = cfg.IDs[j], cfg.IDs[i] })
		cfg.Network.Delay = fixed
		// The election takes up to 2n hops (the highest id round the ring, then ELECTED): the
		// leader's first heartbeat must come after it, or it ends the election early.
		hb := max(time.Hour, 2*time.Duration(2*n+2)*fixed.Max).Round(time.Second)
		set("heartbeat", fmt.Sprintf("%ds", hb/time.Second), "timeout", fmt.Sprintf("%ds", 2*hb/time.Second), "ack", "off")
	case "lowest-id":
		// Its heartbeats are the election: keep them.
	case "raft":
		set("heartbeat", "1h")
	default:
		rng := rand.New(rand.NewPCG(seed, 0x72696e67))
		rng.Shuffle(len(cfg.IDs), func(i, j int) { cfg.IDs[i], cfg.IDs[j] = cfg.IDs[j], cfg.IDs[i] })
		cfg.Network.Delay = fixed
	}
	if worst {
		th := info.Theory
		if th == nil || th.WorstIDs == nil {
			return sim.Config{}, fmt.Errorf("%s has no worst-case arrangement of ids", name)
		}
		cfg.IDs = th.WorstIDs(n)
	}
	return cfg, nil
}
