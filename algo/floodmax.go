package algo

import (
	"fmt"
	"time"
)

// FloodMax is the FloodMax election of N. A. Lynch, Distributed Algorithms, Morgan Kaufmann
// 1996, §4.1.2, on any connected graph in synchronous rounds: the highest id wins, in diam
// rounds, with exactly diam · (the sum of the out-degrees) messages — diam·2|E| on an
// undirected graph.
//
// Every node keeps max-uid, the highest id it has heard of, its own at first. In each round it
// sends max-uid to all its neighbours, and takes the highest of what arrives. After diam rounds
// — diam the graph's diameter, which every node knows, or any upper bound given as rounds —
// max-uid is the highest id everywhere: the node whose own id it is is the leader, every other
// knows it leads.
//
// Lynch's rounds are synchronous: here a timer ends each round, one round period after the
// last, and a round period longer than any delay lets every message of a round arrive before
// it ends. A delay longer than the period, a pause, a crash or a lost message breaks the
// rounds, and nothing mends them (docs/algorithms.md, FloodMax). The rules are those of
// docs/algorithms.md; each method quotes the rule it implements.
type FloodMax struct {
	id     ID
	cfg    *floodMaxConfig
	nbrs   []ID   // the nodes I send to
	maxUID ID     // the highest id I have heard of
	round  uint32 // the round I am in, 1 to cfg.rounds; 0 before Start
	status Status
	leader ID
}

// floodMaxConfig is what every node of a cluster derives alike: the rounds and their period.
type floodMaxConfig struct {
	rounds int
	period time.Duration
}

// KindMaxUID is FloodMax's one message kind: a node's max-uid, in a round.
const KindMaxUID = "MAX-UID"

func floodMaxInfo() *Info {
	return &Info{
		Name:       "floodmax",
		Summary:    "Lynch's FloodMax (§4.1): synchronous rounds, the highest id flooded for diam rounds, diam·2|E| messages",
		PhaseWord:  "round",
		Kinds:      []string{KindMaxUID},
		Topologies: []string{Random + ":3", Complete, BiRing, UniRing},
		Winner:     Highest,
		Params: []Param{
			{Key: "rounds", Kind: CountParam, Default: "the graph's diameter",
				Help: "how many rounds to flood: the diameter, or any upper bound on it"},
			{Key: "round", Kind: DurationParam, Default: "2 × the max delay",
				Help: "the period of a round: longer than any delay, so that a round's messages arrive within it"},
		},
		New:      func(id ID, c *Cluster) Node { return NewFloodMax(id, c) },
		Warnings: floodMaxWarnings,
		Guarantees: []Guarantee{{Property: "at-most-one-leader", Faults: "y------",
			Why: "Lynch's rounds assume no failures: a crash that cuts the graph, a late or lost MAX-UID can leave two nodes each the highest it heard of"}},
		Theory: &Theory{
			Bound:      "diam·2|E| ≤ (n−1)·n(n−1)",
			Messages:   func(n int) float64 { return float64(n-1) * float64(n) * float64(n-1) },
			OnGraph:    func(c *Cluster) int64 { return int64(floodMaxSetup(c).rounds) * c.Topology.Arcs() },
			GraphExact: true,
			GraphBound: "rounds · Σ out-degree = diam·2|E|",
		},
	}
}

// floodMaxSetup returns the cluster's rounds and round period, derived once per cluster.
func floodMaxSetup(c *Cluster) *floodMaxConfig {
	return sharedConfig(c, "floodmax", func(c *Cluster) *floodMaxConfig {
		rounds := c.Params.Count("rounds", 0)
		if rounds == 0 {
			rounds = max(c.Topology.Diameter(), 1)
		}
		period := c.Params.Duration("round", max(2*c.MaxDelay, MinTimer))
		return &floodMaxConfig{rounds: rounds, period: period}
	})
}

// floodMaxWarnings says when the run breaks FloodMax's assumptions: rounds fewer than the
// diameter, or a round no longer than the largest delay.
func floodMaxWarnings(c *Cluster) []string {
	cfg, d := floodMaxSetup(c), c.Topology.Diameter()
	var w []string
	if cfg.rounds < d {
		w = append(w, fmt.Sprintf("rounds=%d is fewer than the graph's diameter (%d): the highest id may not reach every node", cfg.rounds, d))
	}
	if cfg.period <= c.MaxDelay {
		w = append(w, fmt.Sprintf("round=%s is no longer than the largest delay (%s): a round's messages may arrive after it ends",
			FormatDuration(cfg.period), FormatDuration(c.MaxDelay)))
	}
	return w
}

// NewFloodMax returns node id of cluster c, not yet started.
func NewFloodMax(id ID, c *Cluster) *FloodMax {
	return &FloodMax{id: id, cfg: floodMaxSetup(c), nbrs: c.Topology.Neighbours(id), maxUID: id}
}

var _ Node = (*FloodMax)(nil)

// State reports the node's status and the leader it knows of.
func (f *FloodMax) State() State { return State{Status: f.status, Leader: f.leader} }

// Start: "max-uid := my id. Round 1: send max-uid to every neighbour."
func (f *FloodMax) Start(env Env) {
	f.status, f.maxUID, f.round = Candidate, f.id, 1
	f.send(env)
	if env.Tracing() {
		env.Note("booted: round 1 of %d — MAX-UID(%d) to my %d neighbours", f.cfg.rounds, f.id, len(f.nbrs))
	}
}

// send sends max-uid to every neighbour, in this round, and ends the round one period on.
func (f *FloodMax) send(env Env) {
	for _, to := range f.nbrs {
		env.Send(to, Message{Kind: KindMaxUID, Value: f.maxUID, Phase: f.round})
	}
	env.SetTimer("round", f.cfg.period)
}

// Receive: "On MAX-UID(u): max-uid := max(max-uid, u)."
func (f *FloodMax) Receive(env Env, m Message) {
	if m.Kind != KindMaxUID {
		return
	}
	if m.Value > f.maxUID {
		f.maxUID = m.Value
		if env.Tracing() {
			env.Note("MAX-UID(%d) of round %d is higher: max-uid is %d", m.Value, m.Phase, m.Value)
		}
	}
}

// Timer: "At the end of round r < rounds: round r+1 — send max-uid to every neighbour. At the
// end of the last round: if max-uid is my id I am the leader, else max-uid leads."
func (f *FloodMax) Timer(env Env, name string) {
	if name != "round" || f.round == 0 || f.status != Candidate {
		return
	}
	if int(f.round) < f.cfg.rounds {
		f.round++
		f.send(env)
		if env.Tracing() {
			env.Note("round %d of %d — MAX-UID(%d) to my neighbours", f.round, f.cfg.rounds, f.maxUID)
		}
		return
	}
	f.leader = f.maxUID
	if f.maxUID == f.id {
		f.status = Leader
	} else {
		f.status = Follower
	}
	if env.Tracing() {
		env.Note("the last round (%d) is over: max-uid is %d, so %d leads", f.round, f.maxUID, f.maxUID)
	}
}

// Elect does nothing: every node took part from its boot, and FloodMax elects once.
func (f *FloodMax) Elect(env Env) {
	if env.Tracing() {
		env.Note("asked to elect: FloodMax elects once, in the rounds from boot — nothing to do")
	}
}

// Clone returns a copy of the node; its neighbours and configuration are shared, read-only.
func (f *FloodMax) Clone() Node { c := *f; return &c }

// AppendState writes the node's status, leader, max-uid and round.
func (f *FloodMax) AppendState(b []byte, _ time.Duration) []byte {
	b = appendID(b, f.id)
	b = appendNodeState(b, f.State())
	b = appendID(b, f.maxUID)
	return appendUint(b, uint64(f.round))
}
