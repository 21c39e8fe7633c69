package explore

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"

	"electsim/sim"
)

// Bound names the bound an exploration stopped at.
type Bound string

// The bounds an exploration may stop at; "" when the space was exhausted or a violation found.
const (
	BoundDepth  Bound = "depth"
	BoundStates Bound = "max-states"
)

// Result is what an exploration found.
type Result struct {
	// Generated counts the states reached, each time one was reached (the start included);
	// Distinct, the different ones among them.
	Generated, Distinct int64
	// Depth is the deepest level reached: the most steps of any schedule tried.
	Depth int
	// Covered is the depth every schedule was tried to: each of at most Covered steps was.
	Covered int
	// Exhausted: every schedule within the bounds was tried — no state was left with a step
	// to take but the depth or the states bound.
	Exhausted bool
	// Cut counts the distinct states beyond the term or the storage bound (Options.MaxTerm,
	// Options.MaxStored), not expanded: when it is not 0 an exhausted space is exhausted
	// within those bounds.
	Cut int64
	// Bound is the bound that stopped the exploration, if one did.
	Bound Bound
	// Counterexample is the shortest schedule that breaks the property, if one does.
	Counterexample *Counterexample
}

// Progress is how far an exploration has gone, for a progress line.
type Progress struct {
	Generated, Distinct int64
	Depth               int
}

// link is one state of the search tree: its parent's index and the transition from it.
type link struct {
	parent uint32
	t      uint32
}

// child is a state one transition from a state being expanded.
type child struct {
	fp  fingerprint
	t   uint32
	bad bool
	cut bool // beyond the term bound: not expanded
}

// batchSize is how many states the workers expand before their children are taken in order.
const batchSize = 2048

// Run explores, calling progress (if not nil) between batches from the goroutine that called
// Run. A panic in a node — a bug — is raised again naming the schedule.
func (x *Explorer) Run(progress func(Progress)) Result {
	var res Result
	seen := newSet()
	root := x.root()
	var buf []byte
	seen.add(x.fingerprint(root, 0, &buf))
	res.Generated, res.Distinct = 1, 1
	tree := []link{{parent: ^uint32(0)}}
	lo, hi := 0, 1
	kids := make([][]child, batchSize)
	for depth := 0; ; depth++ {
		res.Depth = depth
		res.Covered = depth
		if lo == hi {
			res.Depth = max(depth-1, 0)
			res.Covered = x.depth
			res.Exhausted = true
			return res
		}
		if depth == x.depth {
			res.Bound = BoundDepth
			return res
		}
		for b := lo; b < hi; b += batchSize {
			e := min(b+batchSize, hi)
			x.expandBatch(tree, b, e, kids)
			for p := b; p < e; p++ {
				for _, c := range kids[p-b] {
					res.Generated++
					if !seen.add(c.fp) {
						continue
					}
					res.Distinct++
					if c.cut && !c.bad {
						res.Cut++
						continue // counted, not expanded
					}
					tree = append(tree, link{uint32(p), c.t})
					if c.bad {
						res.Depth = depth + 1
						cx := x.counterexample(tree, len(tree)-1)
						res.Counterexample = &cx
						return res
					}
					if res.Distinct >= x.maxStates {
						res.Depth = depth + 1
						res.Bound = BoundStates
						return res
					}
				}
			}
			if progress != nil {
				progress(Progress{Generated: res.Generated, Distinct: res.Distinct, Depth: depth + 1})
			}
		}
		lo, hi = hi, len(tree)
	}
}

// expandBatch expands the states tree[b:e] on the workers, the children of tree[p] into
// kids[p-b].
func (x *Explorer) expandBatch(tree []link, b, e int, kids [][]child) {
	var next atomic.Int64
	next.Store(int64(b))
	var wg sync.WaitGroup
	var failed atomic.Pointer[string]
	for range min(x.workers, e-b) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := worker{x: x}
			for {
				p := int(next.Add(1) - 1)
				if p >= e {
					return
				}
				func() {
					defer func() {
						if r := recover(); r != nil {
							msg := fmt.Sprintf("explore: %s, along schedule %v: %v", x.info.Name, path(tree, p), r)
							failed.CompareAndSwap(nil, &msg)
						}
					}()
					kids[p-b] = w.expand(tree, p, kids[p-b][:0])
				}()
			}
		}()
	}
	wg.Wait()
	if msg := failed.Load(); msg != nil {
		panic(*msg)
	}
}

// path returns the transitions from the start to tree[i].
func path(tree []link, i int) []uint32 {
	var p []uint32
	for ; i > 0; i = int(tree[i].parent) {
		p = append(p, tree[i].t)
	}
	for l, r := 0, len(p)-1; l < r; l, r = l+1, r-1 {
		p[l], p[r] = p[r], p[l]
	}
	return p
}

// worker is one goroutine's scratch space.
type worker struct {
	x      *Explorer
	buf    []byte
	path   []uint32 // the path of the state being expanded, last transition first
	faults []uint32 // the faults that apply to it
	made   []sim.Choice
}

// expand rebuilds state tree[p] by replaying its path from the start and appends its
// children to out.
func (w *worker) expand(tree []link, p int, out []child) []child {
	used := 0
	w.path = w.path[:0]
	for i := p; i > 0; i = int(tree[i].parent) {
		w.path = append(w.path, tree[i].t)
	}
	for _, t := range w.path {
		used += cost(t)
	}
	return w.children(w.rebuild(), used, out)
}

// rebuild replays w.path (last transition first) from the start.
func (w *worker) rebuild() *sim.Sim {
	x := w.x
	s := x.root()
	faults := 0
	for i := len(w.path) - 1; i >= 0; i-- {
		if !x.apply(s, w.path[i], faults) {
			panic("a step of the path does not happen on replay")
		}
		faults += cost(w.path[i])
	}
	return s
}

// children appends the states one transition from s, which has used faults of the budget. It
// consumes s: the last state made is s itself, stepped on.
func (w *worker) children(s *sim.Sim, used int, out []child) []child {
	x := w.x
	if s.Done() {
		return out
	}
	w.faults = w.faults[:0]
	if used+s.Losses() < x.budget && len(x.faults) > 0 {
		late := lateToo(s)
		for i := range x.faults {
			if x.applies(s, &x.faults[i]) {
				w.faults = append(w.faults, uint32(i+1))
				if late {
					w.faults = append(w.faults, uint32(i+1)|lateBit)
				}
			}
		}
	}
	out = w.transition(s, used, 0, out, len(w.faults) == 0)
	for i, f := range w.faults {
		out = w.transition(s, used+1, f, out, i == len(w.faults)-1)
	}
	return out
}

// transition appends the states that fault f (0: none), then one step, lead to from s: one
// for each way of making the choices the step makes (the delays of the links it sends on, the
// nodes' draws), in the order sim.NextCode gives. With last, s is not needed afterwards: it is
// stepped itself for the last of them, and rebuilt (w.rebuild) when the step has choices.
func (w *worker) transition(s *sim.Sim, used int, f uint32, out []child, last bool) []child {
	x := w.x
	first := s
	if !last {
		first = s.Clone()
	}
	x.begin(first, f)
	x.allow(first, used)
	if _, ok := first.StepChoosing(0); !ok {
		return out
	}
	out = append(out, x.child(first, used, f, 0, &w.buf))
	code, more := sim.NextCode(first.Choices())
	if !more {
		return out
	}
	if last {
		s = w.rebuild()
	}
	for more {
		// The step after this one, if its choices are as this one's were: with none, this is
		// the last, and s itself can be stepped.
		w.made = append(w.made[:0], first.Choices()...)
		final := last && !hasNext(w.made, code)
		c := s
		if !final {
			c = s.Clone()
		}
		x.begin(c, f)
		x.allow(c, used)
		c.StepChoosing(code)
		out = append(out, x.child(c, used, f, code, &w.buf))
		first = c
		next, ok := sim.NextCode(c.Choices())
		if ok && c == s {
			s = w.rebuild() // what this step chose changed what the next would
		}
		code, more = next, ok
	}
	return out
}

// hasNext reports whether, were the choices of code's step those of prev with code's options,
// a step would come after it.
func hasNext(prev []sim.Choice, code uint32) bool {
	for i := range prev {
		a := uint32(prev[i].Arity)
		prev[i].Option = int(code % a)
		code /= a
	}
	_, ok := sim.NextCode(prev)
	return ok
}

// child is the state c reached by fault f and the step of choice code, which has used faults
// of the budget.
func (x *Explorer) child(c *sim.Sim, used int, f, code uint32, buf *[]byte) child {
	_, bad := c.Broken(x.property)
	cut := x.maxTerm > 0 && c.MaxTerm() > x.maxTerm || x.maxStored > 0 && c.MaxStored() > x.maxStored
	return child{fp: x.fingerprint(c, used, buf), t: f<<faultShift | code, bad: bad, cut: cut}
}

// fingerprint is a state's hash: 128 bits of SHA-256 of its encoding.
type fingerprint [2]uint64

// fingerprint hashes the state of s with the faults it has used.
func (x *Explorer) fingerprint(s *sim.Sim, used int, buf *[]byte) fingerprint {
	b := s.AppendState((*buf)[:0])
	b = binary.AppendUvarint(b, uint64(x.budget-used-s.Losses()))
	*buf = b
	sum := sha256.Sum256(b)
	return fingerprint{binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16])}
}
