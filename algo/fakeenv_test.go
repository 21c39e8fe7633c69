package algo

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// timerOp is one call of SetTimer ("set") or CancelTimer ("cancel"), in the order it was made.
type timerOp struct {
	Op    string // "set" or "cancel"
	Name  string
	After time.Duration // for "set"
}

func (o timerOp) String() string {
	if o.Op == "set" {
		return fmt.Sprintf("set %s %s", o.Name, FormatDuration(o.After))
	}
	return "cancel " + o.Name
}

// fakeEnv is a recording Env for driving one node by hand, without an engine. It records every
// send in order (with From and To filled as the engine would), every timer set or cancelled,
// and every note. Pending holds the timers that are armed: SetTimer adds or replaces,
// CancelTimer removes. With Tracing false, a call of Note fails the test.
type fakeEnv struct {
	t       testing.TB
	self    ID
	now     time.Duration
	tracing bool
	rng     *rand.Rand

	sends   []Message
	ops     []timerOp
	notes   []string
	Pending map[string]time.Duration // armed timers: name → the duration they were set with
	Disk    map[string]uint64        // stable storage: a test keeps it across a "crash"
}

var _ Env = (*fakeEnv)(nil)

// newFakeEnv returns a fake Env for node self, with tracing on or off and a fixed seed.
func newFakeEnv(t testing.TB, self ID, tracing bool) *fakeEnv {
	return &fakeEnv{
		t:       t,
		self:    self,
		tracing: tracing,
		rng:     rand.New(rand.NewPCG(uint64(self), 0x5eed)),
		Pending: map[string]time.Duration{},
		Disk:    map[string]uint64{},
	}
}

func (e *fakeEnv) Store(key string, v uint64) { e.Disk[key] = v }

func (e *fakeEnv) Load(key string) (uint64, bool) {
	v, ok := e.Disk[key]
	return v, ok
}

func (e *fakeEnv) Now() time.Duration { return e.now }

func (e *fakeEnv) Send(to ID, m Message) {
	m.From, m.To = e.self, to
	e.sends = append(e.sends, m)
}

func (e *fakeEnv) SetTimer(name string, after time.Duration) {
	e.ops = append(e.ops, timerOp{Op: "set", Name: name, After: after})
	e.Pending[name] = after
}

func (e *fakeEnv) CancelTimer(name string) {
	e.ops = append(e.ops, timerOp{Op: "cancel", Name: name})
	delete(e.Pending, name)
}

func (e *fakeEnv) Rand() *rand.Rand { return e.rng }

func (e *fakeEnv) Tracing() bool { return e.tracing }

func (e *fakeEnv) Note(format string, args ...any) {
	e.t.Helper()
	if !e.tracing {
		e.t.Errorf("node %d: Note(%q) called while Tracing() is false", e.self, format)
	}
	e.notes = append(e.notes, fmt.Sprintf(format, args...))
}

// Clear forgets what was recorded (sends, timer operations, notes) but keeps the pending
// timers, so that the next step's effects can be checked on their own.
func (e *fakeEnv) Clear() {
	e.sends, e.ops, e.notes = nil, nil, nil
}

// Sent returns the recorded sends as "KIND→to" strings, in order.
func (e *fakeEnv) Sent() []string {
	out := make([]string, len(e.sends))
	for i, m := range e.sends {
		out[i] = fmt.Sprintf("%s→%d", m.Kind, m.To)
	}
	return out
}

// SentKind returns, in order, the receivers of the recorded sends of that kind.
func (e *fakeEnv) SentKind(kind string) []ID {
	var to []ID
	for _, m := range e.sends {
		if m.Kind == kind {
			to = append(to, m.To)
		}
	}
	return to
}

// Sets returns the recorded SetTimer calls for name, in order.
func (e *fakeEnv) Sets(name string) []time.Duration {
	var ds []time.Duration
	for _, o := range e.ops {
		if o.Op == "set" && o.Name == name {
			ds = append(ds, o.After)
		}
	}
	return ds
}

// Cancelled reports whether CancelTimer(name) was recorded.
func (e *fakeEnv) Cancelled(name string) bool {
	return slices.Contains(e.ops, timerOp{Op: "cancel", Name: name})
}

// Ops returns the recorded timer operations as strings, in order.
func (e *fakeEnv) Ops() []string {
	out := make([]string, len(e.ops))
	for i, o := range e.ops {
		out[i] = o.String()
	}
	return out
}

// Notes returns the recorded notes joined for messages.
func (e *fakeEnv) Notes() string { return strings.Join(e.notes, " | ") }

// TestFakeEnv checks the fake itself: sends are recorded in order with From and To, timers are
// tracked by name, the random source is seeded, and a Note with tracing off fails the test.
func TestFakeEnv(t *testing.T) {
	e := newFakeEnv(t, 3, true)
	e.now = 42 * time.Millisecond
	if e.Now() != 42*time.Millisecond {
		t.Errorf("Now() = %v, want 42ms", e.Now())
	}
	e.Send(5, Message{Kind: "A"})
	e.Send(4, Message{Kind: "B"})
	if got, want := e.Sent(), []string{"A→5", "B→4"}; !slices.Equal(got, want) {
		t.Errorf("Sent() = %v, want %v", got, want)
	}
	if e.sends[0].From != 3 || e.sends[0].To != 5 {
		t.Errorf("send recorded as %v, want From 3 To 5", e.sends[0])
	}
	e.SetTimer("x", time.Second)
	e.SetTimer("x", 2*time.Second)
	e.SetTimer("y", time.Millisecond)
	e.CancelTimer("y")
	if got, want := e.Ops(), []string{"set x 1s", "set x 2s", "set y 1ms", "cancel y"}; !slices.Equal(got, want) {
		t.Errorf("Ops() = %v, want %v", got, want)
	}
	if len(e.Pending) != 1 || e.Pending["x"] != 2*time.Second {
		t.Errorf("Pending = %v, want map[x:2s]", e.Pending)
	}
	e.Note("hello %d", 7)
	if e.Notes() != "hello 7" {
		t.Errorf("Notes() = %q, want %q", e.Notes(), "hello 7")
	}
	e.Clear()
	if len(e.sends)+len(e.ops)+len(e.notes) != 0 || len(e.Pending) != 1 {
		t.Errorf("Clear() left sends %v ops %v notes %v pending %v", e.sends, e.ops, e.notes, e.Pending)
	}
	a, b := newFakeEnv(t, 2, false).Rand().Uint64(), newFakeEnv(t, 2, false).Rand().Uint64()
	if a != b {
		t.Errorf("Rand() is not seeded deterministically: %d != %d", a, b)
	}

	// A Note with tracing off must fail the test: check it on a recorder.
	rec := &noteRecorder{TB: t}
	off := newFakeEnv(rec, 1, false)
	off.Note("should not happen")
	if !rec.failed {
		t.Error("Note with Tracing() false did not fail the test")
	}
}

// noteRecorder is a testing.TB that records Errorf instead of failing.
type noteRecorder struct {
	testing.TB
	failed bool
}

func (r *noteRecorder) Helper()               {}
func (r *noteRecorder) Errorf(string, ...any) { r.failed = true }

// checkHighestWins checks one step of a node of an algorithm where the highest id wins (Bully,
// Ring): a change of state comes with a note saying why; a leader believes in itself, a
// candidate in nobody, a follower in a higher node ("a node never defers to a leader lower than
// itself"); and there are no terms.
func checkHighestWins(t *testing.T, id ID, before, after State, env *fakeEnv) {
	t.Helper()
	if before != after && (len(env.notes) == 0 || slices.Contains(env.notes, "")) {
		t.Errorf("%+v → %+v with notes %q", before, after, env.notes)
	}
	switch after.Status {
	case Leader:
		if after.Leader != id {
			t.Errorf("leader %d believes in %d", id, after.Leader)
		}
	case Candidate:
		if after.Leader != 0 {
			t.Errorf("candidate %d believes in %d", id, after.Leader)
		}
	case Follower:
		if after.Leader <= id {
			t.Errorf("follower %d follows %d, not a higher node", id, after.Leader)
		}
	}
	if after.Term != 0 {
		t.Errorf("term %d, want 0: no terms", after.Term)
	}
}

// anyTimer picks one of the armed timers at random (an engine fires only armed ones); there
// must be one.
func (e *fakeEnv) anyTimer(rng *rand.Rand) string {
	names := slices.Sorted(maps.Keys(e.Pending))
	return names[rng.IntN(len(names))]
}

// checkWarnings checks the warnings of algorithm info on ids with the given max delay and
// parameters: one per expected substring, in order.
func checkWarnings(t *testing.T, info *Info, ids []ID, maxDelay time.Duration, params Params, want []string) {
	t.Helper()
	cl, err := NewCluster(ids, maxDelay, params)
	if err != nil {
		t.Fatal(err)
	}
	got := info.Warnings(cl)
	if len(got) != len(want) {
		t.Errorf("max delay %s, %v: warnings %q, want %d mentioning %q", maxDelay, params, got, len(want), want)
		return
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("warning %q does not mention %q", got[i], w)
		}
	}
}
