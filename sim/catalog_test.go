package sim_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
	"electsim/sim/bench"
)

// Every algorithm that runs on a ring — the ring catalog, Chang–Roberts on the ring topology,
// any registered since — elects the winner it declares on random rings of 3 to 1,000 nodes with
// random ids, when nothing fails: the highest id, or for an algorithm that promises no winner
// (Itai–Rodeh) exactly one node that every other names. It keeps the bound on messages its
// theory gives (algo.Theory), and both engines run it alike.
func TestCatalogElects(t *testing.T) {
	for _, info := range algo.Algorithms() {
		for _, top := range info.TopologyList() {
			if top == algo.Complete {
				continue
			}
			t.Run(info.Name+"/"+top, func(t *testing.T) {
				rapid.Check(t, func(t *rapid.T) { catalogElects(t, info, top) })
			})
		}
	}
}

func catalogElects(t *rapid.T, info *algo.Info, top string) {
	most := 1000
	if raceEnabled {
		most = 60 // the race detector makes every step some twenty times slower
	}
	n := rapid.IntRange(3, most).Draw(t, "nodes")
	// Distinct ids with gaps, in a random ring order.
	perm := rapid.Permutation(seq(1, 3*n, 1)).Draw(t, "ids")
	ids := slices.Clone(perm[:n])
	cfg := sim.DefaultConfig(info, n)
	cfg.IDs, cfg.Topology = ids, top
	cfg.Seed = rapid.Uint64().Draw(t, "seed")
	cfg.Network.Delay = network.Delay{Min: time.Millisecond, Max: 20 * time.Millisecond}
	cfg.RunFor = 24 * time.Hour // until nothing is left to happen
	cfg.Engine = sim.Inline
	sum := run(t, cfg)
	if sum.Halted != "" {
		t.Fatalf("halted: %s", sum.Halted)
	}
	var leaders []algo.ID
	for _, v := range sum.Nodes {
		if v.Status == sim.Leader {
			leaders = append(leaders, v.ID)
		}
	}
	switch {
	case len(leaders) != 1:
		t.Fatalf("leaders %v, want exactly one", leaders)
	case sum.Leader != leaders[0]:
		t.Fatalf("node %d leads, but not every node names it: agreed leader %d", leaders[0], sum.Leader)
	case info.Winner == algo.Highest && sum.Leader != slices.Max(ids):
		t.Fatalf("elected %d, want the highest id %d", sum.Leader, slices.Max(ids))
	case info.Winner == algo.Lowest && sum.Leader != slices.Min(ids):
		t.Fatalf("elected %d, want the lowest id %d", sum.Leader, slices.Min(ids))
	}
	var total int64
	for _, s := range sum.Sent {
		total += s
	}
	if th := info.Theory; th != nil && !th.Expected && float64(total) > th.Messages(n) {
		t.Fatalf("%d messages, above the bound %s = %.0f", total, th.Bound, th.Messages(n))
	}
	if info.Name == "ring" {
		// The paper's algorithm on the ring: the exact count of this instance.
		if got, want := sum.Sent[0], bench.ChangRoberts(ids); got != want {
			t.Fatalf("%d ELECTION, want exactly %d", got, want)
		}
	}
	if n <= 300 || rapid.Bool().Draw(t, "goroutine engine too") {
		cfg.Engine = sim.Goroutine
		if other := run(t, cfg); fmt.Sprint(other.Sent, other.Nodes, other.End) != fmt.Sprint(sum.Sent, sum.Nodes, sum.End) {
			t.Fatalf("the goroutine engine ran differently: sent %v end %s, inline %v end %s", other.Sent, other.End, sum.Sent, sum.End)
		}
	}
}
