package check

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/network"
	"electsim/sim"
)

// Schedule is the fault schedule of one run: its nodes, and every action of the run in time
// order — the faults (and the base's own actions), then, at End, the actions that undo the
// faults still in force.
type Schedule struct {
	IDs     []algo.ID
	Actions []sim.Action
	End     time.Duration // the end of the fault window, where the closing actions are
	RunFor  time.Duration // End and the settle time
}

// Size is how big a schedule is: what shrinking makes smaller.
type Size struct {
	Actions, Nodes int
	RunFor         time.Duration
}

// Size returns the schedule's size.
func (s *Schedule) Size() Size { return Size{len(s.Actions), len(s.IDs), s.RunFor} }

// String writes "2 actions, 5 nodes, run 3.1s".
func (z Size) String() string {
	return fmt.Sprintf("%s, %s, run %s", human.Plural(z.Actions, "action"), human.Plural(z.Nodes, "node"), human.Seconds(z.RunFor))
}

// Less orders sizes: fewer actions, then fewer nodes, then a shorter run.
func (z Size) Less(o Size) bool {
	if z.Actions != o.Actions {
		return z.Actions < o.Actions
	}
	if z.Nodes != o.Nodes {
		return z.Nodes < o.Nodes
	}
	return z.RunFor < o.RunFor
}

// plan is a schedule being drawn or shrunk: the faults alone, before the closing actions are
// worked out.
type plan struct {
	ids    []algo.ID
	fixed  []sim.Action  // the base's own actions: in every run, never shrunk
	faults []sim.Action  // in time order
	end    time.Duration // the end of the fault window
}

func (p plan) clone() plan {
	p.ids = slices.Clone(p.ids)
	p.faults = slices.Clone(p.faults)
	return p
}

// source is where a schedule's random choices come from: a PCG stream seeded by the run, or
// rapid's generators in tests, whose shrinking then works on the same choices.
type source interface {
	intn(n int, label string) int // uniform in [0, n); n > 0
}

type pcgSource struct{ r *rand.Rand }

func (s pcgSource) intn(n int, _ string) int { return s.r.IntN(n) }

// streamSchedule is the PCG stream a run's schedule draws from; the engine's streams differ.
const streamSchedule = 0x7363686564756c65

// maxEpisodes is the most faults a drawn schedule starts; each may end with a second action.
const maxEpisodes = 4

// generate draws the faults of one run from src.
func (c *Check) generate(src source) plan {
	p := plan{ids: slices.Clone(c.base.IDs), fixed: c.base.Actions, end: c.window}
	var classes []Faults
	for _, f := range []Faults{Crash, Partition, Delay, Pause, Loss, Drift} {
		if c.faults.Has(f) && (len(p.ids) > 1 || f == Crash || f == Pause) {
			classes = append(classes, f)
		}
	}
	if len(classes) == 0 {
		return p
	}
	d := drawer{c: c, src: src, ids: p.ids}
	var faults []sim.Action
	add := func(a sim.Action) {
		if a.At < c.window {
			faults = append(faults, a)
		}
	}
	for range 1 + src.intn(maxEpisodes, "episodes") {
		class := classes[src.intn(len(classes), "class")]
		start := d.at()
		stop := start + d.lasting()
		d.episode(class, start, stop, add)
	}
	slices.SortStableFunc(faults, func(a, b sim.Action) int { return cmpTime(a.At, b.At) })
	p.faults = faults
	return p
}

// drawer draws the parts of one fault episode from src, in the order a schedule's draws are
// made: the order is part of what a seed means, so it must not change.
type drawer struct {
	c   *Check
	src source
	ids []algo.ID
}

// ms is d in whole milliseconds, at least 1.
func (drawer) ms(d time.Duration) int { return max(1, int(d/time.Millisecond)) }

// at draws an instant within the window, in whole milliseconds.
func (d drawer) at() time.Duration {
	return time.Duration(d.src.intn(d.ms(d.c.window), "at")) * time.Millisecond
}

// lasting draws how long a fault lasts: from a quarter of the timescale to five times it.
func (d drawer) lasting() time.Duration {
	scale := d.c.scale
	return scale/4 + time.Duration(d.src.intn(d.ms(5*scale-scale/4)+1, "duration"))*time.Millisecond
}

func (d drawer) node() algo.ID { return d.ids[d.src.intn(len(d.ids), "node")] }

func (d drawer) link() *network.Link {
	from := d.src.intn(len(d.ids), "from")
	to := (from + 1 + d.src.intn(len(d.ids)-1, "to")) % len(d.ids)
	return &network.Link{From: d.ids[from], To: d.ids[to]}
}

// maybeLink draws one link half the time, else nil: every link.
func (d drawer) maybeLink() *network.Link {
	if d.src.intn(2, "one link") == 0 {
		return d.link()
	}
	return nil
}

// episode draws one fault of class, from start to stop, passing its actions to add.
func (d drawer) episode(class Faults, start, stop time.Duration, add func(sim.Action)) {
	c, src, base := d.c, d.src, d.c.base.Network
	switch class {
	case Crash:
		n := d.node()
		add(sim.Action{At: start, Op: sim.Crash, Nodes: []algo.ID{n}})
		if c.faults.Has(Recover) && src.intn(4, "recovers") > 0 {
			add(sim.Action{At: stop, Op: sim.Recover, Nodes: []algo.ID{n}})
		}
	case Partition:
		if src.intn(5, "cut") == 0 {
			l := d.link()
			add(sim.Action{At: start, Op: sim.Cut, Link: l})
			add(sim.Action{At: stop, Op: sim.Heal, Link: l})
			return
		}
		add(sim.Action{At: start, Op: sim.Partition, Groups: d.groups()})
		add(sim.Action{At: stop, Op: sim.Heal})
	case Delay:
		// A spike up to three times the timescale: well beyond the algorithm's timeouts.
		lo := base.Delay.Max + time.Millisecond
		hi := lo + time.Duration(src.intn(d.ms(max(3*c.scale-lo, time.Millisecond)), "spike"))*time.Millisecond
		spike := network.Delay{Min: hi, Max: hi}
		if src.intn(2, "range") == 0 {
			spike.Min = base.Delay.Min
		}
		l := d.maybeLink()
		add(sim.Action{At: start, Op: sim.SetDelay, Link: l, Delay: spike})
		add(sim.Action{At: stop, Op: sim.SetDelay, Link: l, Delay: base.Delay})
	case Pause:
		n := d.node()
		add(sim.Action{At: start, Op: sim.Pause, Nodes: []algo.ID{n}})
		add(sim.Action{At: stop, Op: sim.Resume, Nodes: []algo.ID{n}})
	case Drift:
		// A rate within the bound — half the time at one of its ends, where drift does the
		// most harm; else in steps of a thousandth of it — for a while; then true again.
		n := d.node()
		var steps int
		if src.intn(2, "extreme") == 0 {
			steps = 2000 * src.intn(2, "faster") // 0 or 2000: 1 − bound or 1 + bound
		} else {
			steps = src.intn(2001, "rate")
		}
		rate := 1 + c.drift*float64(steps-1000)/1000
		add(sim.Action{At: start, Op: sim.Clock, Nodes: []algo.ID{n}, Rate: rate})
		add(sim.Action{At: stop, Op: sim.Clock, Nodes: []algo.ID{n}, Rate: 1})
	case Loss:
		pct := float64(20 * (1 + src.intn(5, "loss")))
		l := d.maybeLink()
		add(sim.Action{At: start, Op: sim.SetDrop, Link: l, Drop: pct})
		add(sim.Action{At: stop, Op: sim.SetDrop, Link: l, Drop: base.Drop * 100})
	}
}

// groups draws a partition: the nodes shuffled and split in two groups, or three; the last
// group is left unnamed, as the language allows.
func (d drawer) groups() [][]algo.ID {
	perm := slices.Clone(d.ids)
	for i := len(perm) - 1; i > 0; i-- {
		j := d.src.intn(i+1, "shuffle")
		perm[i], perm[j] = perm[j], perm[i]
	}
	cut := 1 + d.src.intn(len(perm)-1, "split")
	groups := [][]algo.ID{perm[:cut]}
	if rest := perm[cut:]; len(rest) > 1 && d.src.intn(4, "three") == 0 {
		cut2 := 1 + d.src.intn(len(rest)-1, "split2")
		groups = append(groups, rest[:cut2])
	}
	for _, g := range groups {
		slices.Sort(g)
	}
	return groups
}

func cmpTime(a, b time.Duration) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// schedule works out p's closing actions and returns the whole schedule.
func (c *Check) schedule(p plan) Schedule {
	all := make([]sim.Action, 0, len(p.fixed)+len(p.faults)+4)
	all = append(all, p.fixed...)
	all = append(all, p.faults...)
	slices.SortStableFunc(all, func(a, b sim.Action) int { return cmpTime(a.At, b.At) })
	closing := c.closing(p.ids, all, p.end)
	i, _ := slices.BinarySearchFunc(all, p.end+1, func(a sim.Action, t time.Duration) int { return cmpTime(a.At, t) })
	all = slices.Insert(all, i, closing...)
	return Schedule{IDs: p.ids, Actions: all, End: p.end, RunFor: p.end + c.settle}
}

// closing returns the actions that, at end, undo every fault the actions up to then leave in
// force: heal the network, put delays and losses back to the run's own, set drifting clocks
// back to the true rate, resume the paused nodes and — when the check includes recoveries — recover the crashed ones.
func (c *Check) closing(ids []algo.ID, actions []sim.Action, end time.Duration) []sim.Action {
	base := c.base.Network
	crashed, paused := map[algo.ID]bool{}, map[algo.ID]bool{}
	partitioned, cuts := false, map[network.Link]bool{}
	delay, delays := base.Delay, map[network.Link]network.Delay{}
	drop, drops := base.Drop*100, map[network.Link]float64{}
	rates := map[algo.ID]float64{}
	for _, a := range actions {
		if a.At > end {
			break
		}
		switch a.Op {
		case sim.Crash:
			for _, n := range a.Nodes {
				crashed[n], paused[n] = true, false
			}
		case sim.Recover:
			for _, n := range a.Nodes {
				crashed[n] = false
			}
		case sim.Pause:
			for _, n := range a.Nodes {
				paused[n] = !crashed[n]
			}
		case sim.Resume:
			for _, n := range a.Nodes {
				paused[n] = false
			}
		case sim.Partition:
			partitioned = len(a.Groups) > 0
		case sim.Cut:
			cuts[*a.Link] = true
		case sim.Heal:
			if a.Link == nil {
				partitioned = false
				clear(cuts)
			} else {
				delete(cuts, *a.Link)
			}
		case sim.SetDelay:
			if a.Link == nil {
				delay = a.Delay
			} else {
				delays[*a.Link] = a.Delay
			}
		case sim.SetDrop:
			if a.Link == nil {
				drop = a.Drop
			} else {
				drops[*a.Link] = a.Drop
			}
		case sim.Clock:
			for _, n := range a.Nodes {
				rates[n] = a.Rate
			}
		}
	}
	var out []sim.Action
	if partitioned || len(cuts) > 0 {
		out = append(out, sim.Action{At: end, Op: sim.Heal})
	}
	if delay != base.Delay {
		out = append(out, sim.Action{At: end, Op: sim.SetDelay, Delay: base.Delay})
	}
	for _, l := range sortedLinks(delays) {
		if delays[l] != base.Delay {
			out = append(out, sim.Action{At: end, Op: sim.SetDelay, Link: &l, Delay: base.Delay})
		}
	}
	if drop != base.Drop*100 {
		out = append(out, sim.Action{At: end, Op: sim.SetDrop, Drop: base.Drop * 100})
	}
	for _, l := range sortedLinks(drops) {
		if drops[l] != base.Drop*100 {
			out = append(out, sim.Action{At: end, Op: sim.SetDrop, Link: &l, Drop: base.Drop * 100})
		}
	}
	for _, id := range ids {
		if r, ok := rates[id]; ok && r != 1 {
			out = append(out, sim.Action{At: end, Op: sim.Clock, Nodes: []algo.ID{id}, Rate: 1})
		}
	}
	var resume, recover []algo.ID
	for _, id := range ids {
		if paused[id] {
			resume = append(resume, id)
		}
		if crashed[id] && c.faults.Has(Recover) {
			recover = append(recover, id)
		}
	}
	if len(resume) > 0 {
		out = append(out, sim.Action{At: end, Op: sim.Resume, Nodes: resume})
	}
	if len(recover) > 0 {
		out = append(out, sim.Action{At: end, Op: sim.Recover, Nodes: recover})
	}
	return out
}

func sortedLinks[V any](m map[network.Link]V) []network.Link {
	out := make([]network.Link, 0, len(m))
	for l := range m {
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b network.Link) int {
		if a.From != b.From {
			return int(a.From - b.From)
		}
		return int(a.To - b.To)
	})
	return out
}

// without returns p with node id removed: from the nodes, and from every fault — a fault that
// named only id goes, and so does a partition left with every node in one group, which splits
// nothing (and a scenario refuses). It returns false when one of the base's own actions names id.
func (p plan) without(id algo.ID) (plan, bool) {
	for _, a := range p.fixed {
		if names(a, id) {
			return p, false
		}
	}
	q := p.clone()
	q.ids = slices.DeleteFunc(q.ids, func(x algo.ID) bool { return x == id })
	q.faults = q.faults[:0]
	for _, a := range p.faults {
		if !names(a, id) {
			if len(a.Groups) != 1 || len(a.Groups[0]) != len(q.ids) {
				q.faults = append(q.faults, a)
			} // else every node left is in its one group: it splits nothing now
			continue
		}
		switch {
		case a.Link != nil:
			continue // a link to or from id
		case len(a.Nodes) > 0:
			a.Nodes = slices.DeleteFunc(slices.Clone(a.Nodes), func(x algo.ID) bool { return x == id })
			if len(a.Nodes) == 0 {
				continue
			}
		case len(a.Groups) > 0:
			var groups [][]algo.ID
			for _, g := range a.Groups {
				if g = slices.DeleteFunc(slices.Clone(g), func(x algo.ID) bool { return x == id }); len(g) > 0 {
					groups = append(groups, g)
				}
			}
			if len(groups) == 0 || len(groups) == 1 && len(groups[0]) == len(q.ids) {
				continue // every node left in one group: the partition splits nothing now
			}
			a.Groups = groups
		}
		q.faults = append(q.faults, a)
	}
	return q, true
}

// names reports whether action a names node id.
func names(a sim.Action, id algo.ID) bool { return slices.Contains(a.NodeIDs(), id) }
