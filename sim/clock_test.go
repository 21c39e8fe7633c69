package sim_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// watch is a test algorithm: at boot node 1 sets a timer "t" after every; each time it fires it
// records the true time (from the trace) and its own clock's reading, and sets it again.
type watch struct {
	every time.Duration
	seen  *[]time.Duration // the local readings at each firing: the test's
}

func watchInfo(every time.Duration, seen *[]time.Duration) *algo.Info {
	return &algo.Info{Name: "watch", Kinds: []string{},
		New: func(id algo.ID, c *algo.Cluster) algo.Node { return &watch{every: every, seen: seen} }}
}

func (w *watch) Start(env algo.Env) { env.SetTimer("t", w.every) }
func (w *watch) Timer(env algo.Env, name string) {
	*w.seen = append(*w.seen, env.Now())
	env.SetTimer("t", w.every)
}
func (w *watch) Receive(env algo.Env, m algo.Message) {}
func (w *watch) Elect(env algo.Env)                   {}
func (w *watch) State() algo.State                    { return algo.State{} }
func (w *watch) Clone() algo.Node                     { c := *w; return &c }
func (w *watch) AppendState(b []byte, _ time.Duration) []byte {
	return fmt.Appendf(b, "%d;", w.every)
}

// firings runs one watch node with the given actions and returns the true times its timer
// fired at and its clock's readings then.
func firings(t *testing.T, e sim.Engine, every time.Duration, actions ...sim.Action) (truth, local []time.Duration) {
	t.Helper()
	var seen []time.Duration
	cfg := sim.DefaultConfig(watchInfo(every, &seen), 1)
	cfg.Engine, cfg.RunFor, cfg.Actions = e, time.Second, actions
	recs, _ := runTrace(t, cfg)
	for _, r := range recs {
		if r.Type == sim.RecTimer {
			truth = append(truth, r.At)
		}
	}
	return truth, seen
}

func clockAt(d time.Duration, id algo.ID, rate float64) sim.Action {
	return sim.Action{At: d, Op: sim.Clock, Nodes: []algo.ID{id}, Rate: rate}
}

// docs/model.md, "Clocks that drift": a timer runs on the node's own clock, and Env.Now reads
// that clock; the trace's times stay true.
func TestClockRateStretchesTimers(t *testing.T) {
	for _, e := range engines {
		// From 0, rate 0.5: 100ms of the node's clock take 200ms of true time.
		truth, local := firings(t, e, 100*ms, clockAt(0, 1, 0.5))
		wantTruth := []time.Duration{200 * ms, 400 * ms, 600 * ms, 800 * ms, 1000 * ms}
		wantLocal := []time.Duration{100 * ms, 200 * ms, 300 * ms, 400 * ms, 500 * ms}
		if !slices.Equal(truth, wantTruth) || !slices.Equal(local, wantLocal) {
			t.Errorf("%s, rate 0.5: fired at %v true, %v local; want %v and %v", e, truth, local, wantTruth, wantLocal)
		}
		// Rate 2 set at 150ms, while the timer set at 100ms is pending (50ms of its 100ms left
		// by the clock): it fires 25ms later, at 175ms, when the clock reads 200ms.
		truth, local = firings(t, e, 100*ms, clockAt(150*ms, 1, 2))
		wantTruth = []time.Duration{100 * ms, 175 * ms, 225 * ms, 275 * ms}
		wantLocal = []time.Duration{100 * ms, 200 * ms, 300 * ms, 400 * ms}
		if !slices.Equal(truth[:4], wantTruth) || !slices.Equal(local[:4], wantLocal) {
			t.Errorf("%s, rate 2 from 150ms: fired at %v true, %v local; want %v… and %v…", e, truth, local, wantTruth, wantLocal)
		}
		// Slowed at 150ms to rate 0.25: the pending timer's 50ms take 200ms, to 350ms; then
		// the next is set for the clock's 300ms, 400ms of true time away; but at 400ms, the
		// clock reading 212.5ms, the rate is back to 1: 87.5ms to go, to 487.5ms.
		truth, local = firings(t, e, 100*ms, clockAt(150*ms, 1, 0.25), clockAt(400*ms, 1, 1))
		wantTruth = []time.Duration{100 * ms, 350 * ms, 487500 * time.Microsecond, 587500 * time.Microsecond}
		wantLocal = []time.Duration{100 * ms, 200 * ms, 300 * ms, 400 * ms}
		if !slices.Equal(truth[:4], wantTruth) || !slices.Equal(local[:4], wantLocal) {
			t.Errorf("%s, rate 0.25 from 150ms, 1 from 400ms: fired at %v true, %v local; want %v… and %v…", e, truth, local, wantTruth, wantLocal)
		}
	}
}

// A copy of a run keeps each node's clock: stepped on, it fires timers when the original does.
func TestCloneKeepsClocks(t *testing.T) {
	var seen []time.Duration
	cfg := sim.DefaultConfig(watchInfo(100*ms, &seen), 1)
	cfg.Engine, cfg.RunFor, cfg.Actions = sim.Inline, time.Second, []sim.Action{clockAt(50*ms, 1, 0.5)}
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(120 * ms) // the last step is the clock action, at 50ms
	c := s.Clone()
	defer c.Close()
	rate, local := c.ClockOf(1)
	if rate != 0.5 || local != 50*ms || c.Now() != 50*ms {
		t.Fatalf("the copy's clock: rate %v reading %v at %v; want 0.5 and 50ms at 50ms", rate, local, c.Now())
	}
	var times []time.Duration
	for {
		r, ok := c.Step()
		if !ok {
			break
		}
		times = append(times, r.At)
	}
	// The timer set at 0 for 100ms: 50ms left at rate 0.5 from 50ms → 150ms; then every 200ms.
	want := []time.Duration{150 * ms, 350 * ms, 550 * ms, 750 * ms, 950 * ms}
	if !slices.Equal(times, want) {
		t.Errorf("the copy fired at %v, want %v", times, want)
	}
	s.Close()
}

// A rate out of bounds is refused.
func TestClockRateBounds(t *testing.T) {
	for _, r := range []float64{0, -1, 0.001, 1000} {
		var seen []time.Duration
		cfg := sim.DefaultConfig(watchInfo(100*ms, &seen), 1)
		cfg.Actions = []sim.Action{clockAt(0, 1, r)}
		if _, err := sim.New(cfg); err == nil {
			t.Errorf("rate %v accepted", r)
		}
	}
}
