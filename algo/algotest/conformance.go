package algotest

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"electsim/algo"
)

// Conformance checks the Clone and AppendState of algorithm info's nodes, with the parameters
// params (nil: the defaults): rapid draws walks of inputs through nodes of small clusters and
// Check judges each, and shrinks a walk that fails to a short one. An algorithm's test calls it.
func Conformance(t *testing.T, info *algo.Info, params algo.Params) {
	t.Helper()
	rapid.Check(t, func(rt *rapid.T) {
		pick := func(n int) int { return rapid.IntRange(0, n-1).Draw(rt, "pick") }
		if err := Check(info, params, pick); err != nil {
			rt.Fatal(err)
		}
	})
}

// Check drives one node of algorithm info through a walk of inputs — messages of its kinds
// from the cluster's nodes, its timers as they come due, elections, restarts — that pick
// chooses (pick(n) returns a number in [0, n)), and returns the first way the node breaks the
// contract of Clone and AppendState, or nil. Along the walk it checks that:
//
//   - AppendState is deterministic, and appends to what it is given;
//   - a copy made by Clone, handed every input the node is handed, acts alike and encodes
//     alike (Clone is faithful);
//   - copies put aside do not change as the node goes on, and the node does not change when a
//     copy of it is handed inputs (Clone is deep);
//   - nodes that report different states encode differently;
//   - two moments of the walk with equal encodings, even at different times, act alike when
//     copies of both are handed the same inputs after the same delays, with the same storage
//     and random draws (AppendState leaves out nothing that matters, and writes times
//     relative to now).
func Check(info *algo.Info, params algo.Params, pick func(n int) int) error {
	w, err := newWalk(info, params, pick)
	if err != nil {
		return err
	}
	return w.run()
}

// The bounds of a walk.
const (
	maxNodes  = 6
	maxSnaps  = 8  // copies put aside
	maxProbes = 64 // pairs of equal encodings tried
	maxDelay  = 10 * time.Millisecond
)

// delays are the times that pass before an input: around the algorithms' timeouts.
var delays = []time.Duration{0, 1 * time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond,
	60 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond}

type walk struct {
	info    *algo.Info
	cluster *algo.Cluster
	self    algo.ID
	pick    func(int) int
	probe   *rand.Rand // draws the inputs of probes and of copies driven on their own
	log     []string   // the inputs so far, for messages

	node    algo.Node
	env     *Env
	twin    algo.Node // a copy handed every input node is: it must act alike
	twinEnv *Env
	sent    []algo.Message // the node's recent sends: answers to them make likely inputs

	snaps  []snapshot          // copies put aside, never handed an input
	seen   map[string]snapshot // the first copy with each encoding
	probes int
	timers []string // every timer name the node has set, sorted
}

// snapshot is a copy of the node put aside at a moment of the walk.
type snapshot struct {
	node algo.Node
	now  time.Duration
	enc  string
	st   algo.State
	at   int // how many inputs the node had been handed
}

func newWalk(info *algo.Info, params algo.Params, pick func(int) int) (*walk, error) {
	// The smallest cluster the algorithm takes, from 2 nodes.
	lo := 2
	for ; lo < maxNodes; lo++ {
		if info.Validate == nil {
			break
		}
		c, err := algo.NewClusterOn(ids(lo), info.TopologyList()[0], maxDelay, params)
		if err != nil {
			return nil, err
		}
		if info.Validate(c) == nil {
			break
		}
	}
	n := lo + pick(maxNodes-lo+1)
	ring := ids(n)
	for i := len(ring) - 1; i > 0; i-- {
		j := pick(i + 1)
		ring[i], ring[j] = ring[j], ring[i]
	}
	c, err := algo.NewClusterOn(ring, info.TopologyList()[0], maxDelay, params)
	if err != nil {
		return nil, err
	}
	if info.Validate != nil {
		if err := info.Validate(c); err != nil {
			return nil, err
		}
	}
	w := &walk{info: info, cluster: c, self: ring[pick(n)], pick: pick, seen: map[string]snapshot{}}
	w.env = NewEnv(w.self, uint64(pick(1<<20)))
	w.probe = rand.New(rand.NewPCG(uint64(pick(1<<20)), 0x9e3779b97f4a7c15))
	w.node = info.New(w.self, c)
	return w, nil
}

// ids returns 1..n.
func ids(n int) []algo.ID {
	out := make([]algo.ID, n)
	for i := range out {
		out[i] = algo.ID(i + 1)
	}
	return out
}

func (w *walk) run() error {
	// A copy made before the node starts must start alike.
	w.twin, w.twinEnv = w.node.Clone(), w.env.Clone()
	if err := w.hand(input{op: opStart}); err != nil {
		return err
	}
	for range 10 + w.pick(70) {
		if err := w.step(); err != nil {
			return err
		}
	}
	return nil
}

// step lets time pass and hands the node one input; the timers that come due meanwhile fire
// first, in order, as an engine fires them.
func (w *walk) step() error {
	in, after := w.choose(w.pick, w.env)
	target := w.env.Time + after
	for {
		name, at, ok := w.env.next()
		if !ok || at > target {
			break
		}
		w.setTime(max(at, w.env.Time))
		if err := w.hand(input{op: opTimer, timer: name}); err != nil {
			return err
		}
	}
	w.setTime(target)
	if in.op == opNone {
		return nil
	}
	return w.hand(in)
}

func (w *walk) setTime(t time.Duration) { w.env.Time, w.twinEnv.Time = t, t }

// choose picks the next input and the time that passes before it, with r (pick, or the probe's
// source). opNone is time passing to the next timer armed in env (nil: any timer).
func (w *walk) choose(r func(int) int, env *Env) (input, time.Duration) {
	after := delays[r(len(delays))]
	switch r(12) {
	case 0:
		return input{op: opElect}, after
	case 1:
		return input{op: opRestart}, after
	case 2, 3, 4:
		if env == nil {
			return input{op: opNone}, after // a probe: any timer, after any delay
		}
		if _, at, ok := env.next(); ok {
			return input{op: opNone}, max(at-env.Time, 0)
		}
	}
	return input{op: opReceive, msg: w.message(r)}, after
}

// message makes a message for the node: often an answer to something it sent lately — a
// message from that node, carrying the value and term it was sent — else anything of the
// algorithm's kinds, from any node of the cluster.
func (w *walk) message(r func(int) int) algo.Message {
	kinds := w.info.Kinds
	m := algo.Message{Kind: kinds[r(len(kinds))], To: w.self}
	if len(w.sent) > 0 && r(2) == 0 {
		s := w.sent[r(len(w.sent))]
		m.From, m.Value, m.Term, m.Flag = s.To, s.Value, s.Term, r(2) == 0
		if r(2) == 0 {
			m.Term = w.node.State().Term // a lease's GRANT carries the token, not the request's
		}
		return m
	}
	ring := w.cluster.Ring
	m.From = ring[r(len(ring))]
	if v := r(len(ring) + 1); v < len(ring) {
		m.Value = ring[v]
	}
	term := w.node.State().Term
	m.Term = []uint64{0, term, term + 1, term + 2, max(term, 1) - 1}[r(5)]
	m.Flag = r(2) == 0
	return m
}

// An input handed to a node.
type op uint8

const (
	opNone op = iota
	opStart
	opReceive
	opTimer
	opElect
	opRestart // a crash and a recovery: a new node, with the old one's stable storage
)

type input struct {
	op    op
	msg   algo.Message
	timer string
}

func (in input) String() string {
	switch in.op {
	case opStart:
		return "Start"
	case opReceive:
		return fmt.Sprintf("Receive %s", in.msg)
	case opTimer:
		return "Timer " + in.timer
	case opElect:
		return "Elect"
	case opRestart:
		return "a restart"
	}
	return "nothing"
}

// apply hands in to n, through env; a panic comes back as an error.
func (in input) apply(n algo.Node, env *Env) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the node panicked: %v", p)
		}
	}()
	switch in.op {
	case opStart:
		n.Start(env)
	case opReceive:
		n.Receive(env, in.msg)
	case opTimer:
		delete(env.Pending, in.timer) // the engine disarms a timer as it fires it
		n.Timer(env, in.timer)
	case opElect:
		n.Elect(env)
	}
	return nil
}

// hand hands in to the node and its twin, with the checks around it.
func (w *walk) hand(in input) error {
	now := w.env.Time
	w.log = append(w.log, fmt.Sprintf("%s at %s", in, algo.FormatDuration(now)))
	if in.op != opStart && in.op != opRestart {
		before, err := w.encode(w.node, now)
		if err != nil {
			return err
		}
		if len(w.snaps) < maxSnaps && w.pick(4) == 0 {
			w.snaps = append(w.snaps, snapshot{node: w.node.Clone(), now: now, enc: before, st: w.node.State(), at: len(w.log)})
		}
		if w.pick(6) == 0 {
			if err := w.driveCopy(before); err != nil {
				return err
			}
		}
	}
	if in.op == opRestart {
		// What a crash loses — the node, its timers — goes; its storage stays.
		w.node = w.info.New(w.self, w.cluster)
		w.twin = w.node.Clone()
		clear(w.env.Pending)
		clear(w.twinEnv.Pending)
		in.op = opStart
	}
	w.env.Clear()
	w.twinEnv.Clear()
	if err := in.apply(w.node, w.env); err != nil {
		return w.fail("%v", err)
	}
	if err := in.apply(w.twin, w.twinEnv); err != nil {
		return w.fail("the copy: %v", err)
	}
	w.remember()
	return w.afterInput(now)
}

// remember keeps the node's recent sends and the names of its timers.
func (w *walk) remember() {
	w.sent = append(w.sent, w.env.Sends...)
	if len(w.sent) > 8 {
		w.sent = w.sent[len(w.sent)-8:]
	}
	for _, o := range w.env.Timers {
		if i, found := slices.BinarySearch(w.timers, o.Name); !found {
			w.timers = slices.Insert(w.timers, i, o.Name)
		}
	}
}

// afterInput checks the node after an input at time now.
func (w *walk) afterInput(now time.Duration) error {
	enc, err := w.encode(w.node, now)
	if err != nil {
		return err
	}
	st := w.node.State()
	// The twin, a copy handed the same inputs, acts and encodes alike.
	if !sameEffects(w.twinEnv, w.env) {
		return w.fail("a copy made by Clone, handed the same inputs, did\n%swhere the node did\n%s(Clone does not copy everything)",
			indent(w.twinEnv.Effects()), indent(w.env.Effects()))
	}
	if !slices.Equal(w.twinEnv.Notes, w.env.Notes) {
		return w.fail("a copy made by Clone, handed the same inputs, noted %q where the node noted %q", w.twinEnv.Notes, w.env.Notes)
	}
	if w.twin.State() != st {
		return w.fail("a copy made by Clone, handed the same inputs, reports %+v where the node reports %+v", w.twin.State(), st)
	}
	if twin, err := w.encode(w.twin, now); err != nil {
		return err
	} else if twin != enc {
		if _, err := w.encodeTries(w.node, now, 16); err != nil {
			return err
		}
		return w.fail("a node and its copy, handed the same inputs, encode differently:\n  node %x\n  copy %x", enc, twin)
	}
	// The copies put aside have not changed.
	for _, s := range w.snaps {
		got := string(s.node.AppendState(nil, s.now))
		if got != s.enc || s.node.State() != s.st {
			if _, err := w.encodeTries(s.node, s.now, 16); err != nil {
				return err
			}
			return w.fail("a copy made by Clone after input %d changed when the node was handed inputs since (Clone is not deep): it encoded %x, now %x", s.at, s.enc, got)
		}
		if s.st != st && s.enc == enc {
			return w.fail("the node reports %+v, and a copy from input %d reported %+v, but they encode alike: %x (AppendState leaves out something that matters)", st, s.at, s.st, enc)
		}
	}
	// Another moment with this encoding acts alike.
	prev, ok := w.seen[enc]
	if !ok {
		w.seen[enc] = snapshot{node: w.node.Clone(), now: now, enc: enc, st: st, at: len(w.log)}
		return nil
	}
	if prev.st != st {
		return w.fail("the node reports %+v, and after input %d it reported %+v, but both encode as %x (AppendState leaves out something that matters)", st, prev.at, prev.st, enc)
	}
	if w.probes < maxProbes {
		w.probes++
		return w.compare(prev, now)
	}
	return nil
}

// compare hands copies of prev and of the node now — equal encodings — the same inputs after
// the same delays, with the same storage and random source: they must act alike throughout.
// The inputs are each timer the node has set and an election, at a few delays; a message of
// each kind from each node; and a few random chains of inputs.
func (w *walk) compare(prev snapshot, now time.Duration) error {
	for _, chain := range w.probeChains() {
		if err := w.compareOn(prev, now, chain); err != nil {
			return err
		}
	}
	return nil
}

// timed is an input handed after a delay.
type timed struct {
	in    input
	after time.Duration
}

// probeChains returns the chains of inputs compare tries.
func (w *walk) probeChains() [][]timed {
	r := func(n int) int { return w.probe.IntN(n) }
	var chains [][]timed
	for _, after := range []time.Duration{0, 20 * time.Millisecond, 150 * time.Millisecond} {
		for _, name := range w.timers {
			chains = append(chains, []timed{{input{op: opTimer, timer: name}, after}})
		}
		chains = append(chains, []timed{{input{op: opElect}, after}})
	}
	for _, kind := range w.info.Kinds {
		for _, from := range w.cluster.Ring {
			m := w.message(r)
			m.Kind, m.From = kind, from
			chains = append(chains, []timed{{input{op: opReceive, msg: m}, delays[r(len(delays))]}})
		}
	}
	for range 3 {
		var chain []timed
		for range 4 {
			in, after := w.probeInput(r, nil)
			chain = append(chain, timed{in, after})
		}
		chains = append(chains, chain)
	}
	return chains
}

// compareOn is compare with one chain of inputs.
func (w *walk) compareOn(prev snapshot, now time.Duration, chain []timed) error {
	a, b := prev.node.Clone(), w.node.Clone()
	seed := w.probe.Uint64()
	ea, eb := NewEnv(w.self, seed), NewEnv(w.self, seed)
	ea.Time, eb.Time = prev.now, now
	ea.Trace, eb.Trace = false, false // notes may quote times, which differ here
	ea.Disk, eb.Disk = maps.Clone(w.env.Disk), maps.Clone(w.env.Disk)
	for i, t := range chain {
		ea.Time += t.after
		eb.Time += t.after
		ea.Clear()
		eb.Clear()
		errA, errB := t.in.apply(a, ea), t.in.apply(b, eb)
		if errA != nil || errB != nil {
			return w.fail("probing: %v %v", errA, errB)
		}
		encA, encB := string(a.AppendState(nil, ea.Time)), string(b.AppendState(nil, eb.Time))
		if !sameEffects(ea, eb) || a.State() != b.State() || encA != encB {
			// An encoding that changes from one call to the next says so first.
			if _, err := w.encodeTries(a, ea.Time, 16); err != nil {
				return err
			}
			if _, err := w.encodeTries(b, eb.Time, 16); err != nil {
				return err
			}
			var given []string
			for _, t := range chain[:i+1] {
				given = append(given, fmt.Sprintf("%s %s later", t.in, algo.FormatDuration(t.after)))
			}
			return w.fail("the node encoded alike after input %d (at %s) and now (at %s), but copies of the two handed the same inputs act differently (AppendState leaves out something that matters, or keeps a time that is not relative to now):\n  inputs: %s\n  the first did\n%s  and reports %+v, encoding %x\n  the second did\n%s  and reports %+v, encoding %x",
				prev.at, algo.FormatDuration(prev.now), algo.FormatDuration(now), strings.Join(given, "; "),
				indent(ea.Effects()), a.State(), encA, indent(eb.Effects()), b.State(), encB)
		}
	}
	return nil
}

// probeInput picks an input for a probe or a copy driven on its own: any of the node's timer
// names, a message, an election; not a restart.
func (w *walk) probeInput(r func(int) int, env *Env) (input, time.Duration) {
	in, after := w.choose(r, env)
	switch {
	case in.op == opRestart || in.op == opNone && len(w.timers) == 0:
		in = input{op: opElect}
	case in.op == opNone:
		in = input{op: opTimer, timer: w.timers[r(len(w.timers))]}
	}
	return in, after
}

// driveCopy hands a copy of the node inputs of its own: the node, whose encoding now is before,
// must not change.
func (w *walk) driveCopy(before string) error {
	c, env := w.node.Clone(), w.env.Clone()
	st := w.node.State()
	r := func(n int) int { return w.probe.IntN(n) }
	var given []string
	for range 3 {
		in, after := w.probeInput(r, env)
		env.Time += after
		given = append(given, in.String())
		if err := in.apply(c, env); err != nil {
			return w.fail("a copy: %v", err)
		}
	}
	now := w.env.Time
	after, err := w.encode(w.node, now)
	if err != nil {
		return err
	}
	if after != before || w.node.State() != st {
		if _, err := w.encodeTries(w.node, now, 16); err != nil {
			return err
		}
		return w.fail("the node changed when a copy of it made by Clone was handed %s (Clone is not deep): it encoded %x, now %x",
			strings.Join(given, ", "), before, after)
	}
	return nil
}

// encode returns n's encoding at now, checking that AppendState appends and gives the same
// bytes every time.
func (w *walk) encode(n algo.Node, now time.Duration) (string, error) {
	return w.encodeTries(n, now, 3)
}

// encodeTries is encode, encoding again tries times.
func (w *walk) encodeTries(n algo.Node, now time.Duration, tries int) (string, error) {
	enc := string(n.AppendState(nil, now))
	const prefix = "prefix"
	for range tries {
		again := n.AppendState([]byte(prefix), now)
		if !strings.HasPrefix(string(again), prefix) {
			return "", w.fail("AppendState changed the bytes it was handed: %q became %q", prefix, again)
		}
		if string(again[len(prefix):]) != enc {
			return "", w.fail("AppendState is not deterministic: the same node at the same time encoded as %x, then %x", enc, again[len(prefix):])
		}
	}
	return enc, nil
}

// fail describes a broken contract, with the walk that led there.
func (w *walk) fail(format string, args ...any) error {
	log := w.log
	if len(log) > 30 {
		log = append([]string{"…"}, log[len(log)-30:]...)
	}
	return fmt.Errorf("%s node %d of %v: %s\ninputs (%d):\n  %s", w.info.Name, w.self, w.cluster.Ring,
		fmt.Sprintf(format, args...), len(w.log), strings.Join(log, "\n  "))
}

// sameEffects reports whether a and b recorded the same sends and timer operations. Messages
// are compared by their canonical encoding (Message.AppendTo): a log part is compared by what
// it holds, not by where it lives — a copy of a node makes log parts of its own.
func sameEffects(a, b *Env) bool {
	return slices.EqualFunc(a.Sends, b.Sends, func(x, y algo.Message) bool {
		return string(x.AppendTo(nil)) == string(y.AppendTo(nil))
	}) && slices.Equal(a.Timers, b.Timers)
}

func indent(s string) string {
	if s == "" {
		return "    nothing\n"
	}
	return "    " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n    ") + "\n"
}
