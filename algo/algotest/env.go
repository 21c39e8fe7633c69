package algotest

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"time"

	"electsim/algo"
)

// TimerOp is one call of SetTimer or, with Cancel set, of CancelTimer.
type TimerOp struct {
	Name   string
	After  time.Duration // for SetTimer
	Cancel bool
}

func (o TimerOp) String() string {
	if o.Cancel {
		return "cancel " + o.Name
	}
	return fmt.Sprintf("set %s %s", o.Name, algo.FormatDuration(o.After))
}

// Env is an algo.Env for driving one node by hand, without an engine. It records what the node
// does — every send in order (with From and To filled in, as the engine fills them), every timer
// set or cancelled, every note — and keeps what an engine keeps for a node: the timers armed,
// the stable storage and a seeded random source. Clone copies all of it.
type Env struct {
	Self  algo.ID
	Time  time.Duration // what Now returns
	Trace bool          // what Tracing returns

	Sends  []algo.Message
	Timers []TimerOp
	Notes  []string

	Pending map[string]time.Duration // the timers armed: name → when it fires
	Disk    map[string]uint64        // stable storage: a restart keeps it

	pcg rand.PCG
	rng *rand.Rand // draws from pcg
}

var _ algo.Env = (*Env)(nil)

// NewEnv returns an Env for node self at time 0, tracing, with a random source seeded by seed.
func NewEnv(self algo.ID, seed uint64) *Env {
	e := &Env{Self: self, Trace: true, Pending: map[string]time.Duration{}, Disk: map[string]uint64{}}
	e.pcg = *rand.NewPCG(seed, uint64(self))
	e.rng = rand.New(&e.pcg)
	return e
}

// Clone returns a copy of e that shares nothing with it: its random source draws what e's
// would draw next.
func (e *Env) Clone() *Env {
	c := *e
	c.Sends, c.Timers, c.Notes = slices.Clone(e.Sends), slices.Clone(e.Timers), slices.Clone(e.Notes)
	c.Pending, c.Disk = maps.Clone(e.Pending), maps.Clone(e.Disk)
	c.rng = rand.New(&c.pcg)
	return &c
}

// Clear forgets what was recorded — sends, timer operations, notes — so that the next input's
// effects can be seen on their own. The armed timers and the storage stay.
func (e *Env) Clear() { e.Sends, e.Timers, e.Notes = nil, nil, nil }

// Effects writes what was recorded since the last Clear, notes aside, one line each.
func (e *Env) Effects() string {
	s := ""
	for _, m := range e.Sends {
		s += fmt.Sprintf("send %s\n", m)
	}
	for _, o := range e.Timers {
		s += o.String() + "\n"
	}
	return s
}

func (e *Env) Now() time.Duration { return e.Time }

func (e *Env) Send(to algo.ID, m algo.Message) {
	m.From, m.To = e.Self, to
	e.Sends = append(e.Sends, m)
}

func (e *Env) SetTimer(name string, after time.Duration) {
	e.Timers = append(e.Timers, TimerOp{Name: name, After: after})
	e.Pending[name] = e.Time + max(after, 0)
}

func (e *Env) CancelTimer(name string) {
	e.Timers = append(e.Timers, TimerOp{Name: name, Cancel: true})
	delete(e.Pending, name)
}

func (e *Env) Rand() *rand.Rand { return e.rng }

func (e *Env) Tracing() bool { return e.Trace }

func (e *Env) Note(format string, args ...any) {
	e.Notes = append(e.Notes, fmt.Sprintf(format, args...))
}

func (e *Env) Store(key string, v uint64) { e.Disk[key] = v }

func (e *Env) Load(key string) (uint64, bool) {
	v, ok := e.Disk[key]
	return v, ok
}

// next returns the armed timer due first (by name among those due together), and false when
// none is armed.
func (e *Env) next() (string, time.Duration, bool) {
	names := slices.Sorted(maps.Keys(e.Pending))
	if len(names) == 0 {
		return "", 0, false
	}
	first := names[0]
	for _, n := range names[1:] {
		if e.Pending[n] < e.Pending[first] {
			first = n
		}
	}
	return first, e.Pending[first], true
}
