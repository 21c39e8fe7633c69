package diagram

import (
	"slices"
	"time"

	"electsim/network"
	"electsim/sim"
)

// Gatherer keeps, of a run's records as they come, those a diagram drawn with its options
// needs, and no more, so that a diagram of a part of a long run does not hold the whole run:
//
//   - a message's send when it is shown (its kind shown, sent within [From, To]), and its
//     arrival only when its send was kept;
//   - before From, only state changes, partitions and heals: where the nodes and the network
//     stand at From;
//   - within the window, every other record — but a timer only when the diagrams show it:
//     when it carries a note, or its step changes a state or sends a message shown; after To,
//     nothing else.
//
// The diagram drawn from Records is the one drawn from every record of the run, with the same
// Options (which must set IDs: otherwise the nodes are those the records name). Arrivals are
// paired with sends as the diagrams pair them, so the Gatherer remembers the sends of shown
// kinds still on their way, kept or not — no more than the run itself has in flight.
type Gatherer struct {
	o       Options
	recs    []sim.Record
	pending map[msgKey][]gathered
	// timer is a timer record without a note, held until its step shows whether the
	// diagrams show it; timerAt is where it goes among recs then.
	timer   *sim.Record
	timerAt int
}

// gathered is a send on its way: when it is due, and whether it was kept.
type gathered struct {
	due  time.Duration
	kept bool
}

// NewGatherer returns a Gatherer for diagrams drawn with o.
func NewGatherer(o Options) *Gatherer {
	return &Gatherer{o: o, pending: map[msgKey][]gathered{}}
}

// Add gathers r (a copy of it: a step's records are valid only until the next step) if the
// diagrams need it, and reports whether they did.
func (g *Gatherer) Add(r *sim.Record) bool {
	o := &g.o
	if g.timer != nil && g.timer.Step != r.Step {
		g.timer = nil // its step showed nothing: neither is it shown
	}
	keep := false
	switch r.Type {
	case sim.RecSend:
		if !o.ShowsKind(r.Msg.Kind) {
			return false
		}
		keep = o.inWindow(r.At)
		if r.Reason == network.Delivered {
			k := keyOf(r.Msg)
			g.pending[k] = append(g.pending[k], gathered{r.DeliverAt, keep})
		}
	case sim.RecDeliver, sim.RecDrop:
		if !o.ShowsKind(r.Msg.Kind) {
			return false
		}
		k := keyOf(r.Msg)
		q := g.pending[k]
		j := pickSend(len(q), func(j int) time.Duration { return q[j].due }, r.At)
		if j < 0 {
			return false
		}
		keep = q[j].kept
		if q = slices.Delete(q, j, j+1); len(q) == 0 {
			delete(g.pending, k)
		} else {
			g.pending[k] = q
		}
	case sim.RecTimer:
		if o.inWindow(r.At) && r.Note == "" {
			t := *r
			g.timer, g.timerAt = &t, len(g.recs)
			return false
		}
		keep = o.inWindow(r.At)
	default:
		switch {
		case r.At < o.From:
			keep = r.Type == sim.RecState ||
				r.Type == sim.RecFault && (r.Action.Op == sim.Partition || r.Action.Op == sim.Heal && r.Action.Link == nil)
		default:
			keep = o.inWindow(r.At)
		}
	}
	if keep {
		if g.timer != nil && (r.Type == sim.RecState || r.Type == sim.RecSend) {
			g.recs = slices.Insert(g.recs, g.timerAt, *g.timer) // its step is shown: so is it
			g.timer = nil
		}
		g.recs = append(g.recs, *r)
	}
	return keep
}

// Records returns the records kept, in the order they came.
func (g *Gatherer) Records() []sim.Record { return g.recs }

// Len is how many records are kept.
func (g *Gatherer) Len() int { return len(g.recs) }

// MaxRecords bounds the records kept for a run's diagrams: far more than a diagram anyone can
// read (a few thousand arrows), while drawing them stays within a few hundred megabytes
// (docs/teaching.md).
const MaxRecords = 200_000

// Full reports whether more than MaxRecords records are kept: the run should stop there.
func (g *Gatherer) Full() bool { return len(g.recs) > MaxRecords }
