package session

import (
	"slices"

	"electsim/sim"
)

// checkpoint is a copy of the run kept at a step, for a replay to start from instead of from the
// start of the run.
type checkpoint struct {
	step   int      // the steps it has taken
	run    *sim.Sim // never stepped: a replay steps a copy of it
	traced bool     // it records what its steps do: it serves a replay that wants the trace
	user   []sim.Action
	// user are the user's actions scheduled in it, in order. It serves a session whose actions
	// begin with these, and whose further actions come after its time: they are scheduled in
	// the copy, after these, as they would have been from the start.
}

// checkpoints are the copies of the run a session keeps. A copy costs about what the run holds
// (docs/performance.md, "Copying a run") — for a large cluster far more than a step — and
// restoring one costs about as much as replaying a step for every 4 KB the run holds. So
// copies are kept only on a long run: one each time a replay passes a multiple of the spacing on
// its way to its target, the last such multiple (a step back after it replays from there, at
// most a spacing of steps). The spacing is a step for every bytesPerStep bytes the run holds as
// the engine reckons it (Sim.MemoryUse) when it starts — its nodes — and at least minSpacing
// steps; it stays, so that the copies fall on one grid. At most max copies are kept,
// together within budget bytes as the engine reckons them; past either bound, those farthest
// from where the session is go first.
type checkpoints struct {
	spacing int   // the spacing, in steps; -1: no copies are kept
	max     int   // the most copies kept
	budget  int64 // the most memory the copies hold together, as the engine reckons it
	list    []checkpoint
}

// The bounds of the checkpoints: a copy at least every minSpacing steps, and one more step
// for each bytesPerStep bytes the run holds — replaying fewer takes no longer than restoring a
// copy; at most maxCopies, holding together at most half of the memory a run may hold
// (sim.Config.MaxMemory).
const (
	minSpacing   = 20_000
	bytesPerStep = 4 << 10
	maxCopies    = 4
)

// newCheckpoints returns the checkpoints of run r, which has just started.
func newCheckpoints(r *sim.Sim) checkpoints {
	limit := r.Config().MaxMemory
	if limit <= 0 {
		limit = sim.DefaultMaxMemory
	}
	return checkpoints{spacing: int(max(minSpacing, r.MemoryUse()/bytesPerStep)), max: maxCopies, budget: limit / 2}
}

// due returns the step at which a replay from step from to step to keeps a copy on its way, or
// -1: the last multiple of the spacing after from, up to to. (A copy kept there already that
// serves the replay would have been its origin.)
func (c *checkpoints) due(from, to int) int {
	if c.spacing <= 0 || c.max <= 0 {
		return -1
	}
	at := to / c.spacing * c.spacing
	if at <= from {
		return -1
	}
	return at
}

// add keeps cp, at the session's step cur; past the bounds — or past room, what the session has
// left for copies once its run and its steps are counted — the copies farthest from cur go, cp
// among them, if it is the farthest. A copy at the same step that serves fewer replays (it
// lacks the trace) goes.
func (c *checkpoints) add(cp checkpoint, cur int, room int64) {
	c.list = slices.DeleteFunc(c.list, func(o checkpoint) bool {
		if o.step == cp.step && (cp.traced || !o.traced) {
			o.run.Close()
			return true
		}
		return false
	})
	i, _ := slices.BinarySearchFunc(c.list, cp.step, func(o checkpoint, step int) int { return o.step - step })
	c.list = slices.Insert(c.list, i, cp)
	for len(c.list) > c.max {
		c.dropFarthest(cur)
	}
	c.fit(min(c.budget, room), cur)
}

// fit lets go of the copies farthest from the session's step cur until those kept hold at most
// bytes.
func (c *checkpoints) fit(bytes int64, cur int) {
	for len(c.list) > 0 && c.bytes() > bytes {
		c.dropFarthest(cur)
	}
}

// dropFarthest lets go of the copy farthest from the session's step cur.
func (c *checkpoints) dropFarthest(cur int) {
	far := 0
	for i, o := range c.list {
		if dist(o.step, cur) > dist(c.list[far].step, cur) {
			far = i
		}
	}
	c.list[far].run.Close()
	c.list = slices.Delete(c.list, far, far+1)
}

func dist(a, b int) int { return max(a-b, b-a) }

// bytes is what the copies hold together, as the engine reckons it.
func (c *checkpoints) bytes() int64 {
	var n int64
	for _, o := range c.list {
		n += o.run.MemoryUse()
	}
	return n
}

// best returns the latest copy at or before step n that serves a replay of a session with the
// user's actions user — with the trace if traced — or nil.
func (c *checkpoints) best(n int, traced bool, user []sim.Action) *checkpoint {
	for i := len(c.list) - 1; i >= 0; i-- {
		if o := &c.list[i]; o.step <= n && (o.traced || !traced) && o.serves(user) {
			return o
		}
	}
	return nil
}

// serves reports whether the copy serves a session with the user's actions user: its own are
// where they begin, and the others come after the copy's time, still to be scheduled.
func (cp *checkpoint) serves(user []sim.Action) bool {
	if len(cp.user) > len(user) {
		return false
	}
	for i, a := range cp.user {
		if !sameAction(a, user[i]) {
			return false
		}
	}
	for _, a := range user[len(cp.user):] {
		if a.At <= cp.run.Now() {
			return false
		}
	}
	return true
}

// sameAction reports whether two of the user's actions are one: the same words at the same time.
func sameAction(a, b sim.Action) bool { return a.At == b.At && a.String() == b.String() }

// prune lets go of the copies that no longer serve a session with the user's actions user.
func (c *checkpoints) prune(user []sim.Action) {
	c.list = slices.DeleteFunc(c.list, func(o checkpoint) bool {
		if o.serves(user) {
			return false
		}
		o.run.Close()
		return true
	})
}

// clear lets go of every copy.
func (c *checkpoints) clear() {
	for _, o := range c.list {
		o.run.Close()
	}
	c.list = nil
}
