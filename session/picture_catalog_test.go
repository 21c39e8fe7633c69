package session

import (
	"testing"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// A packet's and a held input's message is the message itself, with the phase and hop the ring
// catalog carries: the terminal's list of messages in flight reads PROBE(6, phase 1, hop 1), as
// the event log does, not PROBE(6).
func TestPictureMessagesKeepPhaseAndHop(t *testing.T) {
	info, err := algo.Lookup("hs")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig(info, 8)
	cfg.Topology = algo.BiRing
	cfg.Network.Delay = network.Delay{Min: 10 * ms, Max: 10 * ms}
	cfg.Engine = sim.Inline
	cfg.Actions = []sim.Action{{At: 15 * ms, Op: sim.Pause, Nodes: []algo.ID{2}}}
	s, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	s.PlayTo(25 * ms)
	var p Picture
	s.Picture(&p, 0)
	flying := s.run.AppendFlying(nil)
	if len(flying) != len(p.Packets) {
		t.Fatalf("%d messages in flight, %d packets", len(flying), len(p.Packets))
	}
	phased := 0
	for i := range p.Packets {
		got := p.Packets[i].Message()
		found := false
		for _, f := range flying {
			found = found || f.Msg == got
		}
		if !found {
			t.Errorf("packet %s carries %v, which is not in flight", p.Packets[i].Label, got)
		}
		if got.Phase != 0 || got.Hop != 0 {
			phased++
		}
		if got.Label() != p.Packets[i].Label {
			t.Errorf("packet labelled %s gives back %s", p.Packets[i].Label, got.Label())
		}
	}
	held := 0
	for _, n := range p.Nodes {
		for j := range n.Held {
			if m, ok := n.Held[j].Message(n.ID); ok {
				held++
				if m.Label() != n.Held[j].Label {
					t.Errorf("node %d holds %s, which gives back %s", n.ID, n.Held[j].Label, m.Label())
				}
			}
		}
	}
	if phased == 0 || held == 0 {
		t.Fatalf("at 25ms, %d packets with a phase or hop and %d held messages: the test shows nothing", phased, held)
	}
}
