package session

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// fixedBully is a session of Bully among 3 nodes with every message 10ms on its way.
func fixedBully(t testing.TB, actions ...sim.Action) *Session {
	t.Helper()
	info, err := algo.Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig(info, 3)
	cfg.Network.Delay = network.Delay{Min: 10 * ms, Max: 10 * ms}
	cfg.Engine = sim.Inline
	cfg.Actions = actions
	s, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// TestPicturePackets checks packets at known fractions of their flight: with a fixed delay of
// 10ms, a message sent at 0 is a quarter of the way at 2.5ms and three quarters at 7.5ms.
func TestPicturePackets(t *testing.T) {
	s := fixedBully(t)
	var p Picture
	s.PlayTo(0)
	s.Picture(&p, 0)
	if len(p.Packets) == 0 {
		t.Fatal("nothing in flight after the boot")
	}
	for _, at := range []time.Duration{2500 * time.Microsecond, 7500 * time.Microsecond} {
		if _, brk := s.PlayTo(at); brk {
			t.Fatal("a break")
		}
		if s.Instant() != at {
			t.Fatalf("instant %v, want %v", s.Instant(), at)
		}
		s.Picture(&p, 0)
		want := float64(at) / float64(10*ms)
		for _, pk := range p.Packets {
			if pk.Sent != 0 || pk.Arrives != 10*ms || pk.Fraction != want {
				t.Fatalf("at %v: packet %+v, want sent 0, arriving 10ms, fraction %v", at, pk, want)
			}
		}
	}
	// Every node boots and sends; on one line at most one packet, the newest.
	for _, pk := range p.Packets {
		if pk.Others != 0 || !pk.Newest {
			t.Fatalf("packet %+v: one per line expected", pk)
		}
	}
	// At 10ms they have all arrived: the instant is 10ms, the packets are the answers.
	s.PlayTo(10 * ms)
	s.Picture(&p, 0)
	for _, pk := range p.Packets {
		if pk.Sent != 10*ms || pk.Fraction != 0 {
			t.Fatalf("at 10ms: packet %+v", pk)
		}
	}
}

// TestPictureTimersHeldDrops checks a paused node's held inputs, a timer running down, and a
// drop to a crashed node where it happened.
func TestPictureTimersHeldDrops(t *testing.T) {
	s := fixedBully(t, sim.Action{At: 25 * ms, Op: sim.Pause, Nodes: []algo.ID{1}},
		sim.Action{At: 200 * ms, Op: sim.Crash, Nodes: []algo.ID{2}})
	var p Picture
	s.PlayTo(190 * ms)
	s.Picture(&p, 0)
	n1 := p.Nodes[0]
	if n1.Status != "paused" || len(n1.Held) == 0 {
		t.Fatalf("node 1 at 190ms: %+v; paused with held inputs expected", n1)
	}
	for _, h := range n1.Held {
		if h.Kind == "message" && (h.From == 0 || h.Label == "") {
			t.Fatalf("held %+v", h)
		}
	}
	var timed bool
	for _, n := range p.Nodes {
		for i, tm := range n.Timers {
			if tm.Total <= 0 || tm.Left < 0 || tm.Left > tm.Total || i > 0 && tm.Left < n.Timers[i-1].Left {
				t.Fatalf("node %d timers %+v", n.ID, n.Timers)
			}
			timed = true
		}
	}
	if !timed {
		t.Fatal("no timer pending at 190ms")
	}
	// Run on past the crash of 2 until a message to it is dropped on arrival.
	for s.Instant() < 2*time.Second {
		s.PlayTo(s.Instant() + ms)
		s.Picture(&p, 5*ms)
		for _, d := range p.Drops {
			if d.To != 2 || d.Reason != "crashed" || d.Fraction != 1 || d.At > p.At || d.At < p.At-5*ms && d.At != s.Now() {
				t.Fatalf("drop %+v at %v", d, p.At)
			}
			return
		}
	}
	t.Fatal("no drop seen")
}

// TestPictureForwardBack checks that a picture is a function of the step and instant: stepping
// forward then back over a window gives the same pictures, and it encodes as JSON.
func TestPictureForwardBack(t *testing.T) {
	s := open(t, "raft-boot-split-vote", nil)
	next(t, s, 30)
	var want []Picture
	for range 40 {
		var p Picture
		s.Picture(&p, 10*ms)
		want = append(want, p)
		next(t, s, 1)
	}
	for i := len(want) - 1; i >= 0; i-- {
		if err := s.Back(1); err != nil {
			t.Fatal(err)
		}
		var p Picture
		s.Picture(&p, 10*ms)
		if !reflect.DeepEqual(p, want[i]) {
			t.Fatalf("step %d back: %+v\nforward it was %+v", len(s.Steps()), p, want[i])
		}
		if _, err := json.Marshal(p); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPlayToStopsAtBreak checks that playing time on stops at a break, the instant that step's,
// and that no step is skipped: PlayTo in small slices shows the steps Next shows.
func TestPlayToStopsAtBreak(t *testing.T) {
	a := open(t, "bully-leader-crash", nil)
	b := open(t, "bully-leader-crash", nil)
	for !a.Done() {
		n, brk := a.PlayTo(a.Instant() + 3*ms)
		if brk && (!a.AtBreak() || a.Instant() != a.Now()) {
			t.Fatal("stopped at a break that is not the latest step")
		}
		for range n {
			b.Next()
		}
		if len(a.Steps()) != len(b.Steps()) || !a.Done() && a.Now() != b.Now() {
			t.Fatalf("PlayTo showed %d steps to %v, Next %d to %v", len(a.Steps()), a.Now(), len(b.Steps()), b.Now())
		}
	}
}

// TestInstantFollowsSteps checks that the instant PlayTo set holds only until the steps shown
// change otherwise: a step back and forward again comes to the step's own time, not the instant
// played to before.
func TestInstantFollowsSteps(t *testing.T) {
	s := fixedBully(t)
	s.PlayTo(5 * ms) // the boot at 0ms; nothing more is due before 10ms
	if s.Instant() != 5*ms {
		t.Fatalf("instant %v after PlayTo(5ms)", s.Instant())
	}
	n := len(s.Steps())
	if err := s.Back(1); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Next(); !ok || len(s.Steps()) != n {
		t.Fatal("forward again did not come back to the same step")
	}
	if s.Instant() != s.Now() {
		t.Fatalf("after back and forward: instant %v, the step's time %v", s.Instant(), s.Now())
	}
	s.PlayTo(5 * ms)
	s.Next()
	if s.Instant() != s.Now() || s.Now() != 10*ms {
		t.Fatalf("after a step: instant %v, now %v", s.Instant(), s.Now())
	}
}

// TestActAfterPlayTo checks that an action taken after playing time on past the latest step
// happens after the instant shown, not before it.
func TestActAfterPlayTo(t *testing.T) {
	s := fixedBully(t)
	s.PlayTo(5500 * time.Microsecond)
	if got := s.ActTime(); got != 6*ms {
		t.Fatalf("ActTime %v at the instant 5.5ms, want 6ms", got)
	}
	tk, err := s.Act(sim.Action{Op: sim.Crash, Nodes: []algo.ID{3}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if tk.Action.At != 6*ms || s.Now() != 6*ms {
		t.Fatalf("the crash at %v, the run at %v; want both at 6ms", tk.Action.At, s.Now())
	}
}

// TestPictureJSON pins the picture's JSON — what a web page reads — on a small run at a known
// instant: 4 Bully nodes, every message 10ms on its way, node 1 paused at 30ms, node 3 crashed at
// 100ms, at 112ms (go test ./session -update rewrites it; review the diff).
func TestPictureJSON(t *testing.T) {
	info, err := algo.Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig(info, 4)
	cfg.Network.Delay = network.Delay{Min: 10 * ms, Max: 10 * ms}
	cfg.Engine = sim.Inline
	cfg.Actions = []sim.Action{{At: 30 * ms, Op: sim.Pause, Nodes: []algo.ID{1}}, {At: 100 * ms, Op: sim.Crash, Nodes: []algo.ID{3}},
		{At: 100 * ms, Op: sim.Partition, Groups: [][]algo.ID{{1, 2}, {3, 4}}}}
	s, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.PlayTo(112 * ms)
	var p Picture
	s.Picture(&p, 5*ms)
	out, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.RequireEqual(t, append(out, '\n'))
}

// TestLayout checks the places: a circle clockwise from the top, a grid above RingMax, a tree in
// levels when the edges make one, every place on the canvas.
func TestLayout(t *testing.T) {
	ring := Layout(4, nil, nil)
	want := [][2]float64{{0.5, 0}, {1, 0.5}, {0.5, 1}, {0, 0.5}}
	if !reflect.DeepEqual(ring, want) {
		t.Errorf("4 on a circle: %v, want %v", ring, want)
	}
	grid := Layout(40, nil, nil) // 7 columns, 6 rows
	if grid[0] != [2]float64{0.5 / 7, 0.5 / 6} && grid[0] != [2]float64{round9(0.5 / 7), round9(0.5 / 6)} || grid[7][1] != round9(1.5/6) {
		t.Errorf("40 in a grid: %v", grid[:8])
	}
	// 0 at the top, 1 and 2 under it, 3 under 1.
	tree := Layout(4, [][2]int{{0, 1}, {0, 2}, {1, 3}}, nil)
	if tree[0][1] >= tree[1][1] || tree[1][1] != tree[2][1] || tree[3][1] <= tree[1][1] || tree[1][0] >= tree[2][0] {
		t.Errorf("a tree: %v", tree)
	}
	// A ring's edges (a cycle) are no tree: the circle.
	if got := Layout(4, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, nil); !reflect.DeepEqual(got, want) {
		t.Errorf("a cycle: %v", got)
	}
	// Edges that leave a node out are no tree either.
	if got := Layout(4, [][2]int{{0, 1}, {1, 0}, {2, 3}}, nil); !reflect.DeepEqual(got, want) {
		t.Errorf("a forest: %v", got)
	}
	for _, pl := range append(append(ring, grid...), tree...) {
		if pl[0] < 0 || pl[0] > 1 || pl[1] < 0 || pl[1] > 1 {
			t.Errorf("a place off the canvas: %v", pl)
		}
	}
}
