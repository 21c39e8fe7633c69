package sim

import (
	"math"
	"strconv"
	"time"

	"electsim/algo"
)

// A node's own clock (docs/model.md, "Clocks that drift"). Every node's clock reads the true
// time until a `clock N rate R` action sets node N's rate: from then on its clock advances R
// seconds for every true second. The engine's virtual time and every trace timestamp stay
// true; what a node sees through Env.Now is its own clock, and a timer it sets runs on its own
// clock — a node that asks for 100ms on a clock at rate 0.5 is woken 200ms of true time later.
// A rate set while a timer is pending moves the timer: it still fires when the node's clock
// reaches the reading it was set for. A clock is hardware: it keeps its rate and its reading
// through a pause, a crash and a recovery.

// clock is one node's clock: at true time t it reads base + rate × (t − since).
type clock struct {
	since time.Duration // the true time the rate was last set
	base  time.Duration // the clock's reading then
	rate  float64       // 0 means 1: a clock never set reads the true time
}

// MinRate and MaxRate bound a clock's rate: a clock that stops, runs backwards or races ahead a
// hundredfold is no longer a drifting clock.
const (
	MinRate = 0.01
	MaxRate = 100.0
)

// read returns the clock's reading at true time t.
func (c clock) read(t time.Duration) time.Duration {
	if c.rate == 0 {
		return t
	}
	return c.base + scale(t-c.since, c.rate)
}

// span returns the true time the clock takes to advance by d.
func (c clock) span(d time.Duration) time.Duration {
	if c.rate == 0 || c.rate == 1 {
		return d
	}
	return time.Duration(math.Ceil(float64(d) / c.rate))
}

// scale returns d × r, rounded down to a nanosecond. The product is converted explicitly, so
// that no architecture fuses it with an addition and rounds differently.
func scale(d time.Duration, r float64) time.Duration {
	return time.Duration(math.Floor(float64(float64(d) * r)))
}

// localNow returns node i's clock reading now.
func (s *Sim) localNow(i int32) time.Duration {
	if s.clocks == nil {
		return s.now
	}
	return s.clocks[i].read(s.now)
}

// localSpan returns the true time node i's clock takes to advance by d.
func (s *Sim) localSpan(i int32, d time.Duration) time.Duration {
	if s.clocks == nil {
		return d
	}
	return s.clocks[i].span(d)
}

// ClockOf returns node id's clock rate (1 for a clock never set) and its reading now: what the
// TUI shows beside a drifting node. A node that is not in the cluster reads the true time.
func (s *Sim) ClockOf(id algo.ID) (rate float64, local time.Duration) {
	i := s.cluster.Index(id)
	if i < 0 || s.clocks == nil || s.clocks[i].rate == 0 {
		return 1, s.now
	}
	return s.clocks[i].rate, s.clocks[i].read(s.now)
}

// setClock sets node n's clock to run at rate from now on, keeping its reading, and moves its
// pending timers so that each fires when the clock reaches the reading it was set for.
func (f fault) setClock(n *nodeRec, rate float64) {
	s := f.s
	if s.clocks == nil {
		s.clocks = make([]clock, len(s.nodes))
	}
	c := &s.clocks[n.idx]
	old := *c
	reading := old.read(s.now)
	*c = clock{since: s.now, base: reading, rate: rate}
	if rate == 1 && reading == s.now {
		*c = clock{} // back in step with true time
	}
	id := s.nodeID(n)
	f.note("node %d's clock reads %s and runs at %s× true time from now on", id, algo.FormatDuration(reading), FormatRate(rate))
	for i := range int32(len(s.timerNames)) {
		ts := s.timer(n, i)
		if !ts.armed || ts.deadline <= s.now {
			continue // not pending, or due already (held while paused): it fires as it is
		}
		left := scale(ts.deadline-s.now, effectiveRate(old)) // on the node's clock
		ts.deadline = s.now + c.span(left)
		if ts.queued && ts.queuedAt <= ts.deadline {
			continue // the queued event comes up first and re-queues itself at the deadline
		}
		ts.gen++
		ts.queued, ts.queuedAt = true, ts.deadline
		s.q.pushOrd(ts.deadline, ts.ord, event{kind: evTimer, node: n.idx, gen: ts.gen, which: i})
	}
}

// effectiveRate is the rate a clock runs at: 1 for one never set.
func effectiveRate(c clock) float64 {
	if c.rate == 0 {
		return 1
	}
	return c.rate
}

// FormatRate writes a clock rate as the scenario language reads it: "0.5", "1.25", "2".
func FormatRate(r float64) string { return strconv.FormatFloat(r, 'f', -1, 64) }
