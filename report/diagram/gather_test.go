package diagram_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"electsim/algo"
	"electsim/network"
	"electsim/report/diagram"
	"electsim/scenarios"
	"electsim/sim"
)

// Over random runs — any algorithm, links that reorder, pauses that hold deliveries, crashes,
// partitions, delays changed midway — and random windows and kinds, the records a Gatherer
// keeps draw every diagram as all the records do.
func TestGathererRandom(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.SampledFrom(algo.Algorithms()).Draw(t, "algo")
		n := rapid.IntRange(4, 6).Draw(t, "nodes")
		ids := make([]algo.ID, n)
		for i := range ids {
			ids[i] = algo.ID(i + 1)
		}
		cfg := sim.Config{Algorithm: a, IDs: ids, Seed: rapid.Uint64().Draw(t, "seed"), RunFor: 1500 * time.Millisecond, Trace: true,
			Network: network.Config{Delay: network.Delay{Min: 2 * time.Millisecond, Max: 40 * time.Millisecond}, FIFO: rapid.Bool().Draw(t, "fifo")}}
		members := scenarios.NewMembers(ids)
		node := func(label string) int { return rapid.IntRange(1, n).Draw(t, label) }
		for i := range rapid.IntRange(0, 8).Draw(t, "actions") {
			at := rapid.IntRange(0, 1400).Draw(t, fmt.Sprint("at", i))
			var text string
			switch rapid.IntRange(0, 5).Draw(t, fmt.Sprint("op", i)) {
			case 0:
				text = fmt.Sprintf("pause %d", node("n"))
			case 1:
				text = fmt.Sprintf("resume %d", node("n"))
			case 2:
				text = fmt.Sprintf("crash %d", node("n"))
			case 3:
				text = fmt.Sprintf("recover %d", node("n"))
			case 4:
				text = fmt.Sprintf("partition %d | %d", 1, n)
			default:
				text = "heal"
			}
			act, err := scenarios.ParseAt(fmt.Sprintf("%dms %s", at, text), members)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Actions = append(cfg.Actions, act)
		}
		s, err := sim.New(cfg)
		if err != nil {
			t.Skip(err)
		}
		defer s.Close()
		var recs []sim.Record
		for {
			r, ok := s.Step()
			if !ok {
				break
			}
			recs = append(recs, r.Records...)
		}
		o := diagram.Options{IDs: ids, Algorithm: a}
		o.From = time.Duration(rapid.IntRange(0, 1500).Draw(t, "from")) * time.Millisecond
		if rapid.Bool().Draw(t, "to?") {
			o.To = o.From + time.Duration(rapid.IntRange(1, 800).Draw(t, "length"))*time.Millisecond
		}
		if rapid.Bool().Draw(t, "all kinds") {
			o.Kinds = a.Kinds
		}
		g := diagram.NewGatherer(o)
		for i := range recs {
			g.Add(&recs[i])
		}
		draw := func(w writer, recs []sim.Record) string {
			var b bytes.Buffer
			if err := w(&b, recs, o); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
		for _, f := range formats {
			if whole, kept := draw(f.write, recs), draw(f.write, g.Records()); whole != kept {
				t.Fatalf("%s %v–%v: %s differs on the %d records kept of %d", a.Name, o.From, o.To, f.ext, g.Len(), len(recs))
			}
		}
	})
}

// A ShiViz log has a budget of vector-clock entries, held and written: over it, ShiViz says so
// rather than fill memory or the disk. A chain of messages through 3,000 nodes makes clocks of
// 1, 2, ..., 3,000 entries: with the 3,001² entries of the clocks themselves, more than the
// budget; the first half of the chain fits.
func TestShiVizBudget(t *testing.T) {
	if err := diagram.ShiVizFits(4471); err != nil {
		t.Error(err)
	}
	if err := diagram.ShiVizFits(4472); err == nil || !strings.Contains(err.Error(), "at most 4471 nodes") {
		t.Errorf("4,472 nodes: %v", err)
	}
	const n = 3000
	ids := make([]algo.ID, n)
	var recs []sim.Record
	for i := range ids {
		ids[i] = algo.ID(i + 1)
		if i > 0 {
			at := time.Duration(i) * time.Millisecond
			m := algo.Message{Kind: "ELECTION", From: ids[i-1], To: ids[i]}
			recs = append(recs, sim.Record{Step: 2 * i, At: at, Type: sim.RecSend, Msg: m, DeliverAt: at + time.Millisecond},
				sim.Record{Step: 2*i + 1, At: at + time.Millisecond, Type: sim.RecDeliver, Msg: m})
		}
	}
	var b bytes.Buffer
	err := diagram.ShiViz(&b, recs, diagram.Options{IDs: ids, Algorithm: algo.Algorithms()[0]})
	if err == nil || !strings.HasPrefix(err.Error(), "the ShiViz log would hold more than 20000000 vector-clock entries") {
		t.Errorf("got %v", err)
	}
	if b.Len() > 250<<20 {
		t.Errorf("wrote %d MB before giving up", b.Len()>>20)
	}
	// Half the chain fits.
	b.Reset()
	if err := diagram.ShiViz(&b, recs[:n], diagram.Options{IDs: ids, Algorithm: algo.Algorithms()[0]}); err != nil {
		t.Error(err)
	}
}

// A Gatherer keeps no timer its diagrams do not draw: in a long quiet run, the leader's
// heartbeat timers, which only send heartbeats (not shown by default), are left out with them.
func TestGathererLeavesOutQuietTimers(t *testing.T) {
	a, _ := algo.Lookup("bully")
	ids := []algo.ID{1, 2, 3, 4, 5}
	s, err := sim.New(sim.Config{Algorithm: a, IDs: ids, Seed: 1, RunFor: 100 * time.Second, Trace: true, Network: network.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	g := diagram.NewGatherer(diagram.Options{IDs: ids, Algorithm: a})
	timers := 0
	for {
		r, ok := s.Step()
		if !ok {
			break
		}
		for i := range r.Records {
			if r.Records[i].Type == sim.RecTimer {
				timers++
			}
			g.Add(&r.Records[i])
		}
	}
	if timers < 2000 || g.Len() > 100 {
		t.Errorf("%d timers fired; kept %d records", timers, g.Len())
	}
}
