package sim_test

import (
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// hopNode sends one HOP at boot to the node skip places round the ring, carrying a phase and a
// hop count; a node that receives one passes it to its successor with the hop count up by one.
type hopNode struct {
	id, to, next algo.ID
}

func hopInfo(skip int, topologies ...string) *algo.Info {
	return &algo.Info{
		Name: "hop", Summary: "sends HOP skip places round the ring", Kinds: []string{"HOP"},
		Topologies: topologies,
		New: func(id algo.ID, c *algo.Cluster) algo.Node {
			p := c.RingPos(id)
			return &hopNode{id: id, to: c.Ring[(p+skip)%len(c.Ring)], next: c.Succ(id)}
		},
	}
}

func (n *hopNode) Start(env algo.Env) {
	if n.id == 1 {
		env.Send(n.to, algo.Message{Kind: "HOP", Value: n.id, Phase: 2, Hop: 1})
	}
}

func (n *hopNode) Receive(env algo.Env, m algo.Message) {
	if m.Hop < 3 {
		env.Send(n.next, algo.Message{Kind: "HOP", Value: m.Value, Phase: m.Phase, Hop: m.Hop + 1})
	}
}

func (n *hopNode) Timer(algo.Env, string)                       {}
func (n *hopNode) Elect(algo.Env)                               {}
func (n *hopNode) State() algo.State                            { return algo.State{} }
func (n *hopNode) Clone() algo.Node                             { c := *n; return &c }
func (n *hopNode) AppendState(b []byte, _ time.Duration) []byte { return b }

// A message carries its phase and hop count from sender to receiver, on either engine, and
// the trace shows them.
func TestPhaseAndHopTravel(t *testing.T) {
	for _, e := range engines {
		cfg := sim.DefaultConfig(hopInfo(1, algo.UniRing), 4)
		cfg.Topology, cfg.Engine = algo.UniRing, e
		recs, sum := runTrace(t, cfg)
		if sum.Halted != "" {
			t.Fatalf("%s: halted: %s", e, sum.Halted)
		}
		var got []string
		for _, r := range recs {
			if r.Type == sim.RecDeliver {
				got = append(got, r.Msg.String())
			}
		}
		want := "HOP(1, phase 2, hop 1) 1→2|HOP(1, phase 2, hop 2) 2→3|HOP(1, phase 2, hop 3) 3→4"
		if strings.Join(got, "|") != want {
			t.Errorf("%s: delivered %q, want %q", e, strings.Join(got, "|"), want)
		}
		if sum.Topology != algo.UniRing || len(sum.Edges) != 4 || sum.Edges[3] != [2]algo.ID{4, 1} {
			t.Errorf("%s: summary's topology %q edges %v", e, sum.Topology, sum.Edges)
		}
	}
}

// A send along no edge of the topology stops the run, naming the node, the message and the
// missing edge; the message goes nowhere. On the complete graph the same send is delivered.
func TestSendOffTheTopologyStopsTheRun(t *testing.T) {
	for _, e := range engines {
		cfg := sim.DefaultConfig(hopInfo(2, algo.UniRing, algo.BiRing, algo.Complete), 4)
		cfg.Topology, cfg.Engine = algo.BiRing, e
		_, sum := runTrace(t, cfg)
		want := "node 1 sent HOP(1, phase 2, hop 1) to node 3, but the bi-ring topology has no edge 1→3"
		if !strings.HasPrefix(sum.Halted, want) {
			t.Errorf("%s: halted %q, want it to begin %q", e, sum.Halted, want)
		}
		if sum.Delivered[0] != 0 || sum.End != 0 {
			t.Errorf("%s: %d delivered, ended at %s; want none, at 0", e, sum.Delivered[0], sum.End)
		}
		cfg.Topology = algo.Complete
		if _, sum := runTrace(t, cfg); sum.Halted != "" || sum.Delivered[0] != 3 {
			t.Errorf("%s on the complete graph: halted %q, %d delivered; want 3", e, sum.Halted, sum.Delivered[0])
		}
	}
}

// A run on a topology the algorithm does not declare is refused, naming what it takes; an
// algorithm that declares none runs on the complete graph only.
func TestTopologyTheAlgorithmDoesNotTake(t *testing.T) {
	cfg := sim.DefaultConfig(hopInfo(1, algo.BiRing), 4)
	cfg.Topology = algo.UniRing
	if _, err := sim.New(cfg); err == nil || err.Error() != "hop does not run on the ring topology: it runs on bi-ring" {
		t.Errorf("hop on ring: %v", err)
	}
	cfg = sim.DefaultConfig(hopInfo(1), 4)
	if cfg.Topology != "" {
		t.Errorf("default topology of an algorithm that names none: %q, want the complete graph", cfg.Topology)
	}
	cfg.Topology = algo.BiRing
	if _, err := sim.New(cfg); err == nil || !strings.Contains(err.Error(), "it runs on complete") {
		t.Errorf("hop (no topologies) on bi-ring: %v", err)
	}
	cfg.Topology = "torus"
	if _, err := sim.New(cfg); err == nil || !strings.Contains(err.Error(), `unknown topology "torus"`) {
		t.Errorf("torus: %v", err)
	}
	if got := sim.DefaultConfig(hopInfo(1, algo.BiRing, algo.UniRing), 3).Topology; got != algo.BiRing {
		t.Errorf("default topology of a bi-ring algorithm: %q", got)
	}
}

// A send to an id that is not in the cluster — the algorithm's bug — stops the run, naming the
// algorithm, the node, the message and the id; the message goes nowhere and nothing panics.
func TestSendToAnIDNotInTheClusterStopsTheRun(t *testing.T) {
	info := &algo.Info{
		Name: "stray", Kinds: []string{"HOP"},
		New: func(id algo.ID, c *algo.Cluster) algo.Node {
			return &hopNode{id: id, to: 99, next: c.Succ(id)}
		},
	}
	for _, e := range engines {
		cfg := sim.DefaultConfig(info, 4)
		cfg.Engine = e
		_, sum := runTrace(t, cfg)
		want := "node 1 sent HOP(1, phase 2, hop 1) to node 99, but no node of the cluster has id 99: stray sends only to the ids in Cluster.Ring"
		if sum.Halted != want {
			t.Errorf("%s: halted %q, want %q", e, sum.Halted, want)
		}
		if sum.Delivered[0] != 0 || sum.End != 0 {
			t.Errorf("%s: %d delivered, ended at %s; want none, at 0", e, sum.Delivered[0], sum.End)
		}
	}
}
