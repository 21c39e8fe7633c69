package sim_test

import (
	"testing"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// Every step of a fault-free election by an algorithm of the catalog says why it did what it
// did — even one that did nothing: the timeline's why column, and the TUI's, is never blank
// on a message a node received (HS's second probe back round the other way, say).
func TestCatalogExplainsEveryDelivery(t *testing.T) {
	for _, info := range algo.Algorithms() {
		top := info.TopologyList()[0]
		if top != algo.UniRing && top != algo.BiRing {
			continue
		}
		t.Run(info.Name, func(t *testing.T) {
			cfg := sim.DefaultConfig(info, 16)
			cfg.IDs = []algo.ID{3, 7, 1, 9, 4, 8, 2, 6, 16, 11, 5, 14, 10, 13, 12, 15}
			cfg.Topology, cfg.Trace, cfg.Engine = top, true, sim.Inline
			cfg.Network.Delay = network.Delay{Min: time.Millisecond, Max: 20 * time.Millisecond}
			cfg.RunFor = time.Hour
			s, err := sim.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for {
				st, ok := s.Step()
				if !ok {
					break
				}
				var deliver *sim.Record
				noted := false
				for i := range st.Records {
					r := &st.Records[i]
					if r.Type == sim.RecDeliver {
						deliver = r
					}
					noted = noted || r.Note != ""
				}
				if deliver != nil && !noted {
					t.Errorf("step %d at %s: node %d received %s and says nothing of why", st.Step, st.At, deliver.Msg.To, deliver.Msg)
				}
			}
		})
	}
}
