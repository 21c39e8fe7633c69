package network

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"electsim/algo"
)

const (
	us = time.Microsecond
	ms = time.Millisecond
)

func fixedDelay(d time.Duration) Delay { return Delay{Min: d, Max: d} }

func newRand(s1, s2 uint64) *rand.Rand { return rand.New(rand.NewPCG(s1, s2)) }

// mustNew builds a network from c, seeded with (1, 2) unless rng is given.
func mustNew(t testing.TB, c Config, rng *rand.Rand) *Network {
	t.Helper()
	if rng == nil {
		rng = newRand(1, 2)
	}
	n, err := New(c, rng)
	if err != nil {
		t.Fatalf("New(%+v): %v", c, err)
	}
	return n
}

func mustSetDelay(t testing.TB, n *Network, l *Link, d Delay) bool {
	t.Helper()
	need, err := n.SetDelay(l, d)
	if err != nil {
		t.Fatalf("SetDelay(%v, %v): %v", l, d, err)
	}
	return need
}

func mustSetDrop(t testing.TB, n *Network, l *Link, p float64) {
	t.Helper()
	if err := n.SetDrop(l, p); err != nil {
		t.Fatalf("SetDrop(%v, %g): %v", l, p, err)
	}
}

// send sends from->to at now and fails the test unless the message is delivered.
func send(t testing.TB, n *Network, now time.Duration, from, to algo.ID) time.Duration {
	t.Helper()
	at, r := n.Send(now, from, to)
	if r != Delivered {
		t.Fatalf("Send(%v, %d->%d) dropped: %q", now, from, to, r)
	}
	return at
}

func ids(n int) []algo.ID {
	out := make([]algo.ID, n)
	for i := range out {
		out[i] = algo.ID(i + 1)
	}
	return out
}

// TestDefaultConfig checks the defaults of docs/model.md: delay 5ms..15ms, drop 0%, fifo on.
func TestDefaultConfig(t *testing.T) {
	c := DefaultConfig()
	want := Config{Delay: Delay{5 * ms, 15 * ms}, Drop: 0, FIFO: true}
	if c != want {
		t.Fatalf("DefaultConfig() = %+v, want %+v", c, want)
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("DefaultConfig().Validate() = %v", err)
	}
}

// TestFixedDelay checks §2 Send: a fixed delay D delivers at exactly now + D.
func TestFixedDelay(t *testing.T) {
	tests := []struct {
		name  string
		delay time.Duration
		fifo  bool
		now   time.Duration
	}{
		{"zero delay at zero", 0, true, 0},
		{"zero delay later", 0, false, 7 * ms},
		{"10ms fifo", 10 * ms, true, 0},
		{"10ms no fifo", 10 * ms, false, 3 * ms},
		{"sub-microsecond", 1500 * time.Nanosecond, true, 123 * time.Nanosecond},
		{"whole seconds", 2 * time.Second, true, time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := mustNew(t, Config{Delay: fixedDelay(tt.delay), FIFO: tt.fifo}, nil)
			for i := range 5 {
				now := tt.now + time.Duration(i)*ms
				at, r := n.Send(now, 1, 2)
				if r != Delivered || at != now+tt.delay {
					t.Fatalf("Send(%v) = %v, %q; want %v, %q", now, at, r, now+tt.delay, Delivered)
				}
			}
		})
	}
}

// TestUniformDelayWithinRange checks §2 Delay D1..D2: every draw is in [D1, D2], on whole
// microseconds when the bounds are whole microseconds.
func TestUniformDelayWithinRange(t *testing.T) {
	tests := []struct {
		name      string
		d         Delay
		wholeUsec bool
	}{
		{"default 5ms..15ms", Delay{5 * ms, 15 * ms}, true},
		{"0..1ms", Delay{0, ms}, true},
		{"250us..1.5s", Delay{250 * us, 1500 * ms}, true},
		{"nanosecond bounds", Delay{1, 2500}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := mustNew(t, Config{Delay: tt.d}, nil)
			const now = 42 * ms
			offUnit := false
			for range 5000 {
				d := send(t, n, now, 1, 2) - now
				if d < tt.d.Min || d > tt.d.Max {
					t.Fatalf("delay %v outside [%v, %v]", d, tt.d.Min, tt.d.Max)
				}
				if d%us != 0 {
					offUnit = true
					if tt.wholeUsec {
						t.Fatalf("delay %v is not a whole number of microseconds", d)
					}
				}
			}
			if !tt.wholeUsec && !offUnit {
				t.Errorf("with nanosecond bounds no delay fell between microseconds")
			}
		})
	}
}

// TestUniformDelayReachesBothEnds checks that D1..D2 is inclusive: both bounds are drawn.
func TestUniformDelayReachesBothEnds(t *testing.T) {
	tests := []struct {
		name string
		d    Delay
		unit time.Duration
	}{
		{"0..3us", Delay{0, 3 * us}, us},
		{"0..3ns", Delay{0, 3}, 1},
		{"10ms..10.003ms", Delay{10 * ms, 10*ms + 3*us}, us},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := mustNew(t, Config{Delay: tt.d}, nil)
			seen := map[time.Duration]int{}
			for range 2000 {
				seen[send(t, n, 0, 1, 2)]++
			}
			for d := tt.d.Min; d <= tt.d.Max; d += tt.unit {
				if seen[d] == 0 {
					t.Errorf("delay %v never drawn; seen %v", d, seen)
				}
			}
			if len(seen) != 4 {
				t.Errorf("drew %d distinct delays, want exactly 4: %v", len(seen), seen)
			}
		})
	}
}

// sequence returns the answers of a network with config c and seed (s1, s2) to a fixed mix of
// sends on three links.
func sequence(t testing.TB, c Config, s1, s2 uint64) []time.Duration {
	t.Helper()
	n := mustNew(t, c, newRand(s1, s2))
	links := []Link{{1, 2}, {2, 1}, {1, 3}}
	var out []time.Duration
	for i := range 600 {
		l := links[i%len(links)]
		at, r := n.Send(time.Duration(i)*ms, l.From, l.To)
		out = append(out, at, time.Duration(r))
	}
	return out
}

// TestSeedReproducible checks the determinism rule of §1: the same seed gives the same answers,
// a different seed different ones.
func TestSeedReproducible(t *testing.T) {
	for _, c := range []Config{
		DefaultConfig(),
		{Delay: Delay{0, 3 * us}},
		{Delay: Delay{5 * ms, 15 * ms}, Drop: 0.3, FIFO: true},
	} {
		a := sequence(t, c, 1, 2)
		b := sequence(t, c, 1, 2)
		if !slices.Equal(a, b) {
			t.Errorf("%+v: two networks seeded (1, 2) disagree", c)
		}
		if other := sequence(t, c, 3, 4); slices.Equal(a, other) {
			t.Errorf("%+v: seeds (1, 2) and (3, 4) give the same answers", c)
		}
	}
}

// randomSends sends on three links at increasing times and returns each link's delivery times.
func randomSends(t testing.TB, fifo bool) map[Link][]time.Duration {
	t.Helper()
	n := mustNew(t, Config{Delay: Delay{0, 50 * ms}, FIFO: fifo}, newRand(7, 8))
	links := []Link{{1, 2}, {2, 1}, {1, 3}}
	out := map[Link][]time.Duration{}
	for i := range 6000 {
		l := links[(i*7+i/5)%len(links)]
		out[l] = append(out[l], send(t, n, time.Duration(i)*100*us, l.From, l.To))
	}
	return out
}

func inversions(ts []time.Duration) int {
	k := 0
	for i := 1; i < len(ts); i++ {
		if ts[i] < ts[i-1] {
			k++
		}
	}
	return k
}

// TestFIFOOnRandomDelays checks §2 "fifo on": a message never overtakes an earlier one on the
// same directed link, and each link is held back only by its own earlier messages.
func TestFIFOOnRandomDelays(t *testing.T) {
	on := randomSends(t, true)
	off := randomSends(t, false)
	for l, ts := range on {
		if k := inversions(ts); k != 0 {
			t.Errorf("link %v: %d messages overtook an earlier one with FIFO on", l, k)
		}
		// Same seed, same draws: FIFO only holds a message until the previous one on its own
		// link is due, so each link's times are the running maximum of that link's raw times.
		var runMax time.Duration
		for i, raw := range off[l] {
			runMax = max(runMax, raw)
			if ts[i] != runMax {
				t.Fatalf("link %v message %d: delivered at %v, want %v (held back only by its own link)", l, i, ts[i], runMax)
			}
		}
	}
}

// TestFIFOOff checks §2 "fifo off": with random delays a message may overtake an earlier one.
func TestFIFOOff(t *testing.T) {
	total := 0
	for _, ts := range randomSends(t, false) {
		total += inversions(ts)
	}
	if total == 0 {
		t.Fatal("no message overtook an earlier one with FIFO off and delays 0..50ms")
	}
}

// TestFIFOLinksIndependent checks that FIFO is per directed link: a slow message on 1->2 does
// not hold back 2->1 or 1->3.
func TestFIFOLinksIndependent(t *testing.T) {
	n := mustNew(t, Config{Delay: fixedDelay(0), FIFO: true}, nil)
	mustSetDelay(t, n, &Link{1, 2}, fixedDelay(time.Second))
	if at := send(t, n, 0, 1, 2); at != time.Second {
		t.Fatalf("1->2 at 0: delivered at %v, want 1s", at)
	}
	mustSetDelay(t, n, &Link{1, 2}, fixedDelay(0))
	tests := []struct {
		from, to algo.ID
		want     time.Duration
	}{
		{1, 2, time.Second},
		{2, 1, ms},
		{1, 3, ms},
		{3, 2, ms},
	}
	for _, tt := range tests {
		if at := send(t, n, ms, tt.from, tt.to); at != tt.want {
			t.Errorf("%d->%d at 1ms: delivered at %v, want %v", tt.from, tt.to, at, tt.want)
		}
	}
}

// TestSetDelayInFlight checks that a delay shortened during a run with FIFO on does not let a
// later message overtake one already in flight, once the engine reports it with InFlight.
func TestSetDelayInFlight(t *testing.T) {
	run := func(report bool) (need1, need2 bool, at time.Duration) {
		n := mustNew(t, Config{Delay: fixedDelay(100 * ms), FIFO: true}, nil)
		inflight := send(t, n, 0, 1, 2)
		if inflight != 100*ms {
			t.Fatalf("first send: delivered at %v, want 100ms", inflight)
		}
		need1 = mustSetDelay(t, n, nil, fixedDelay(10*ms))
		if report {
			n.InFlight(Link{1, 2}, inflight)
		}
		need2 = mustSetDelay(t, n, nil, fixedDelay(10*ms))
		return need1, need2, send(t, n, 5*ms, 1, 2)
	}

	need1, need2, at := run(true)
	if !need1 {
		t.Error("first SetDelay with FIFO on and fixed delays: needInFlight = false, want true")
	}
	if need2 {
		t.Error("second SetDelay: needInFlight = true, want false (already tracking)")
	}
	if at != 100*ms {
		t.Errorf("after InFlight(1->2, 100ms), a send at 5ms is delivered at %v, want 100ms", at)
	}

	if _, _, at := run(false); at != 15*ms {
		t.Errorf("without InFlight, a send at 5ms is delivered at %v, want 15ms", at)
	}
}

// TestSetDelayNeedInFlight checks when SetDelay asks for the messages in flight.
func TestSetDelayNeedInFlight(t *testing.T) {
	tests := []struct {
		name string
		c    Config
		link *Link
		want bool
	}{
		{"fifo, fixed, global", Config{Delay: fixedDelay(10 * ms), FIFO: true}, nil, true},
		{"fifo, fixed, one link", Config{Delay: fixedDelay(10 * ms), FIFO: true}, &Link{1, 2}, true},
		{"fifo, range: already tracking", Config{Delay: Delay{ms, 2 * ms}, FIFO: true}, nil, false},
		{"no fifo, fixed", Config{Delay: fixedDelay(10 * ms)}, nil, false},
		{"no fifo, range", Config{Delay: Delay{ms, 2 * ms}}, &Link{1, 2}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := mustNew(t, tt.c, nil)
			if got := mustSetDelay(t, n, tt.link, fixedDelay(ms)); got != tt.want {
				t.Errorf("needInFlight = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestInFlight checks that InFlight only ever holds later messages back on its own link, and
// is ignored when FIFO is off.
func TestInFlight(t *testing.T) {
	t.Run("fifo on", func(t *testing.T) {
		n := mustNew(t, Config{Delay: Delay{ms, ms + 1}, FIFO: true}, nil)
		n.InFlight(Link{1, 2}, 50*ms)
		n.InFlight(Link{1, 2}, 20*ms)
		if at := send(t, n, 0, 1, 2); at != 50*ms {
			t.Errorf("1->2 after InFlight 50ms then 20ms: delivered at %v, want 50ms", at)
		}
		if at := send(t, n, 0, 2, 1); at > ms+1 {
			t.Errorf("2->1 held back by InFlight on 1->2: delivered at %v", at)
		}
	})
	t.Run("fifo off", func(t *testing.T) {
		n := mustNew(t, Config{Delay: fixedDelay(100 * ms)}, nil)
		send(t, n, 0, 1, 2)
		mustSetDelay(t, n, nil, fixedDelay(ms))
		n.InFlight(Link{1, 2}, 100*ms)
		if at := send(t, n, 0, 1, 2); at != ms {
			t.Errorf("FIFO off: delivered at %v, want 1ms (InFlight ignored)", at)
		}
	})
}

// TestPerLinkDelay checks §2 "delay A->B D": a per-link delay beats the default, and a new
// default changes only the links without one.
func TestPerLinkDelay(t *testing.T) {
	for _, fifo := range []bool{false, true} {
		n := mustNew(t, Config{Delay: fixedDelay(10 * ms), FIFO: fifo}, nil)
		mustSetDelay(t, n, &Link{1, 2}, fixedDelay(50*ms))
		check := func(stage string, from, to algo.ID, want time.Duration) {
			t.Helper()
			if at := send(t, n, time.Second, from, to); at != time.Second+want {
				t.Errorf("fifo %v, %s: %d->%d delay %v, want %v", fifo, stage, from, to, at-time.Second, want)
			}
		}
		check("override", 1, 2, 50*ms)
		check("override is one-way", 2, 1, 10*ms)
		check("other link", 3, 4, 10*ms)
		mustSetDelay(t, n, nil, fixedDelay(20*ms))
		check("after global", 1, 2, 50*ms)
		check("after global", 2, 1, 20*ms)
		check("after global", 3, 4, 20*ms)
		mustSetDelay(t, n, &Link{1, 2}, Delay{70 * ms, 70*ms + 2*us})
		if d := send(t, n, 2*time.Second, 1, 2) - 2*time.Second; d < 70*ms || d > 70*ms+2*us {
			t.Errorf("fifo %v: range override: delay %v outside 70ms..70.002ms", fifo, d)
		}
	}
}

// TestDropZeroDrawsNothing checks that with no loss (and a fixed delay) Send never drops and
// leaves the random stream untouched, so adding a fault elsewhere does not shift every draw.
func TestDropZeroDrawsNothing(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, n *Network)
		links []Link
	}{
		{"global 0", func(*testing.T, *Network) {}, []Link{{1, 2}, {2, 1}, {3, 1}}},
		{"per-link 0 beats global 50%", func(t *testing.T, n *Network) {
			mustSetDrop(t, n, nil, 0.5)
			mustSetDrop(t, n, &Link{1, 2}, 0)
		}, []Link{{1, 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := newRand(1, 2)
			n := mustNew(t, Config{Delay: fixedDelay(10 * ms), FIFO: true}, rng)
			tt.setup(t, n)
			for i := range 1000 {
				l := tt.links[i%len(tt.links)]
				send(t, n, time.Duration(i)*ms, l.From, l.To)
			}
			if got, want := rng.Uint64(), newRand(1, 2).Uint64(); got != want {
				t.Errorf("random stream advanced: next value %d, want %d", got, want)
			}
		})
	}
}

// TestDropAll checks §2 "drop 100%": every message is lost, with reason loss.
func TestDropAll(t *testing.T) {
	n := mustNew(t, Config{Delay: Delay{5 * ms, 15 * ms}, Drop: 1, FIFO: true}, nil)
	for i := range 2000 {
		if at, r := n.Send(time.Duration(i)*ms, 1, 2); r != Loss || at != 0 {
			t.Fatalf("send %d: %v, %q; want 0, %q", i, at, r, Loss)
		}
	}
}

// TestDropRate checks §2 "drop P%": about P% of messages are lost.
func TestDropRate(t *testing.T) {
	const sends = 20000
	n := mustNew(t, Config{Delay: Delay{5 * ms, 15 * ms}, Drop: 0.3, FIFO: true}, nil)
	lost := 0
	for i := range sends {
		at, r := n.Send(time.Duration(i)*ms, algo.ID(1+i%3), algo.ID(4+i%2))
		switch r {
		case Loss:
			lost++
		case Delivered:
			if d := at - time.Duration(i)*ms; d < 5*ms || d > 15*ms {
				t.Fatalf("send %d: delay %v outside 5ms..15ms", i, d)
			}
		default:
			t.Fatalf("send %d: reason %q", i, r)
		}
	}
	if lost < sends*27/100 || lost > sends*33/100 {
		t.Errorf("lost %d of %d (%.1f%%), want 27%%..33%%", lost, sends, 100*float64(lost)/sends)
	}
}

// TestPerLinkDrop checks §2 "drop A->B P%": a per-link loss beats the global one, one way only,
// and a new global loss leaves it in place.
func TestPerLinkDrop(t *testing.T) {
	count := func(n *Network, from, to algo.ID) (lost int) {
		for i := range 500 {
			if _, r := n.Send(time.Duration(i)*ms, from, to); r == Loss {
				lost++
			}
		}
		return lost
	}
	n := mustNew(t, Config{Delay: fixedDelay(ms), Drop: 1}, nil)
	mustSetDrop(t, n, &Link{1, 2}, 0)
	if got := count(n, 1, 2); got != 0 {
		t.Errorf("1->2 drop 0 under global 100%%: lost %d of 500", got)
	}
	if got := count(n, 2, 1); got != 500 {
		t.Errorf("2->1 under global 100%%: lost %d of 500, want all", got)
	}
	mustSetDrop(t, n, nil, 0)
	mustSetDrop(t, n, &Link{3, 4}, 1)
	if got := count(n, 3, 4); got != 500 {
		t.Errorf("3->4 drop 100%% under global 0: lost %d of 500, want all", got)
	}
	if got := count(n, 4, 3); got != 0 {
		t.Errorf("4->3 under global 0: lost %d of 500", got)
	}
	if got := count(n, 1, 2); got != 0 {
		t.Errorf("1->2 after global change: lost %d of 500", got)
	}
}

// TestPartition checks §2 partition: links between groups are cut both ways, links inside a
// group are open, and the nodes not named form one more group.
func TestPartition(t *testing.T) {
	tests := []struct {
		name     string
		groups   [][]algo.ID
		from, to algo.ID
		want     Reason
	}{
		{"inside named group", [][]algo.ID{{1, 2}}, 1, 2, Delivered},
		{"inside named group back", [][]algo.ID{{1, 2}}, 2, 1, Delivered},
		{"inside unnamed group", [][]algo.ID{{1, 2}}, 3, 4, Delivered},
		{"inside unnamed group back", [][]algo.ID{{1, 2}}, 5, 3, Delivered},
		{"named to unnamed", [][]algo.ID{{1, 2}}, 1, 3, Partition},
		{"unnamed to named", [][]algo.ID{{1, 2}}, 3, 1, Partition},
		{"two named groups", [][]algo.ID{{1, 2}, {3, 4, 5}}, 2, 4, Partition},
		{"two named groups back", [][]algo.ID{{1, 2}, {3, 4, 5}}, 5, 1, Partition},
		{"three groups, named to unnamed", [][]algo.ID{{1}, {2, 3}}, 3, 5, Partition},
		{"three groups, inside", [][]algo.ID{{1}, {2, 3}}, 3, 2, Delivered},
		{"unsorted group", [][]algo.ID{{5, 1, 3}}, 5, 1, Delivered},
		{"unsorted group across", [][]algo.ID{{5, 1, 3}}, 4, 3, Partition},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := mustNew(t, Config{Delay: fixedDelay(ms), FIFO: true}, nil)
			n.Partition(tt.groups)
			if !n.Partitioned() {
				t.Error("Partitioned() = false after Partition")
			}
			if got := n.Blocked(tt.from, tt.to); got != tt.want {
				t.Errorf("Blocked(%d, %d) = %q, want %q", tt.from, tt.to, got, tt.want)
			}
			at, got := n.Send(10*ms, tt.from, tt.to)
			if got != tt.want {
				t.Errorf("Send(%d->%d) reason %q, want %q", tt.from, tt.to, got, tt.want)
			}
			wantAt := time.Duration(0)
			if tt.want == Delivered {
				wantAt = 11 * ms
			}
			if at != wantAt {
				t.Errorf("Send(%d->%d) at %v, want %v", tt.from, tt.to, at, wantAt)
			}
		})
	}
}

// TestPartitionReplaces checks that a new partition replaces the old one and leaves one-way
// cuts in place.
func TestPartitionReplaces(t *testing.T) {
	n := mustNew(t, Config{Delay: fixedDelay(ms)}, nil)
	n.Cut(Link{4, 5})
	n.Partition([][]algo.ID{{1, 2}})
	n.Partition([][]algo.ID{{1, 3}})
	tests := []struct {
		from, to algo.ID
		want     Reason
	}{
		{1, 3, Delivered},
		{3, 1, Delivered},
		{1, 2, Partition},
		{2, 1, Partition},
		{2, 4, Delivered},
		{4, 5, Cut},
		{5, 4, Delivered},
	}
	for _, tt := range tests {
		if got := n.Blocked(tt.from, tt.to); got != tt.want {
			t.Errorf("Blocked(%d, %d) = %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
}

// TestNotPartitioned checks that a fresh network is open and reports no partition.
func TestNotPartitioned(t *testing.T) {
	n := mustNew(t, DefaultConfig(), nil)
	if n.Partitioned() {
		t.Error("fresh network: Partitioned() = true")
	}
	if g := n.Groups(ids(5)); g != nil {
		t.Errorf("fresh network: Groups = %v, want nil", g)
	}
	if c := n.Cuts(); len(c) != 0 {
		t.Errorf("fresh network: Cuts = %v, want none", c)
	}
	for _, l := range []Link{{1, 2}, {2, 1}, {5, 3}} {
		if r := n.Blocked(l.From, l.To); r != Delivered {
			t.Errorf("fresh network: Blocked(%v) = %q", l, r)
		}
	}
}

// sortGroups orders groups by their first id, for comparisons that ignore the outer order.
func sortGroups(g [][]algo.ID) [][]algo.ID {
	out := slices.Clone(g)
	slices.SortFunc(out, func(a, b []algo.ID) int { return slices.Compare(a, b) })
	return out
}

// TestGroupsContents checks that Groups lists every given id once, each group sorted, with the
// unnamed nodes as a group of their own and no empty group.
func TestGroupsContents(t *testing.T) {
	tests := []struct {
		name   string
		groups [][]algo.ID
		ids    []algo.ID
		want   [][]algo.ID
	}{
		{"one named group", [][]algo.ID{{1, 2}}, ids(5), [][]algo.ID{{1, 2}, {3, 4, 5}}},
		{"named in reverse", [][]algo.ID{{4, 5}, {2, 1}}, ids(6), [][]algo.ID{{1, 2}, {3, 6}, {4, 5}}},
		{"everyone named", [][]algo.ID{{3, 1}, {2}}, ids(3), [][]algo.ID{{1, 3}, {2}}},
		{"ids unsorted", [][]algo.ID{{9, 3}}, []algo.ID{7, 3, 1, 9, 4}, [][]algo.ID{{1, 4, 7}, {3, 9}}},
		{"named id not in ids", [][]algo.ID{{1, 8}, {9}}, ids(3), [][]algo.ID{{1}, {2, 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := mustNew(t, DefaultConfig(), nil)
			n.Partition(tt.groups)
			got := n.Groups(tt.ids)
			for _, g := range got {
				if len(g) == 0 || !slices.IsSorted(g) {
					t.Errorf("Groups = %v: group %v empty or unsorted", got, g)
				}
			}
			if !reflect.DeepEqual(sortGroups(got), tt.want) {
				t.Errorf("Groups = %v, want the groups %v", got, tt.want)
			}
		})
	}
}

// TestGroupsOrder checks that Groups returns the groups sorted (by their smallest id), so
// `partition 1 2 | 3 4 5` reads back as [[1 2] [3 4 5]] rather than [[3 4 5] [1 2]].
func TestGroupsOrder(t *testing.T) {
	tests := []struct {
		groups [][]algo.ID
		want   [][]algo.ID
	}{
		{[][]algo.ID{{1, 2}}, [][]algo.ID{{1, 2}, {3, 4, 5}}},
		{[][]algo.ID{{1, 2}, {3}}, [][]algo.ID{{1, 2}, {3}, {4, 5}}},
		{[][]algo.ID{{1, 2}, {3, 4, 5}}, [][]algo.ID{{1, 2}, {3, 4, 5}}},
	}
	for _, tt := range tests {
		n := mustNew(t, DefaultConfig(), nil)
		n.Partition(tt.groups)
		if got := n.Groups(ids(5)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Partition(%v); Groups(1..5) = %v, want %v", tt.groups, got, tt.want)
		}
	}
}

// TestCutOneWay checks §2 "cut A->B": only that direction is cut; Restore reopens it.
func TestCutOneWay(t *testing.T) {
	n := mustNew(t, Config{Delay: fixedDelay(ms), FIFO: true}, nil)
	n.Cut(Link{1, 2})
	if at, r := n.Send(0, 1, 2); r != Cut || at != 0 {
		t.Errorf("Send(1->2) after Cut = %v, %q; want 0, %q", at, r, Cut)
	}
	if r := n.Blocked(1, 2); r != Cut {
		t.Errorf("Blocked(1, 2) = %q, want %q", r, Cut)
	}
	if at := send(t, n, 0, 2, 1); at != ms {
		t.Errorf("Send(2->1) at %v, want 1ms", at)
	}
	if r := n.Blocked(1, 3); r != Delivered {
		t.Errorf("Blocked(1, 3) = %q, want open", r)
	}
	if n.Partitioned() {
		t.Error("Partitioned() = true after a one-way cut")
	}
	n.Restore(Link{2, 1})
	if r := n.Blocked(1, 2); r != Cut {
		t.Errorf("Restore(2->1) reopened 1->2: Blocked = %q", r)
	}
	n.Restore(Link{1, 2})
	if at := send(t, n, 0, 1, 2); at != ms {
		t.Errorf("Send(1->2) after Restore at %v, want 1ms", at)
	}
	if c := n.Cuts(); len(c) != 0 {
		t.Errorf("Cuts after Restore = %v, want none", c)
	}
	mustNew(t, DefaultConfig(), nil).Restore(Link{1, 2})
}

// TestCutsSorted checks that Cuts lists each cut link once, sorted by from then to.
func TestCutsSorted(t *testing.T) {
	n := mustNew(t, DefaultConfig(), nil)
	for _, l := range []Link{{3, 1}, {1, 3}, {10, 2}, {1, 2}, {2, 10}, {1, 3}} {
		n.Cut(l)
	}
	want := []Link{{1, 2}, {1, 3}, {2, 10}, {3, 1}, {10, 2}}
	if got := n.Cuts(); !slices.Equal(got, want) {
		t.Errorf("Cuts = %v, want %v", got, want)
	}
}

// TestHeal checks §2 heal: every partition and cut goes, delays and losses stay.
func TestHeal(t *testing.T) {
	n := mustNew(t, Config{Delay: fixedDelay(ms), FIFO: true}, nil)
	mustSetDelay(t, n, &Link{1, 2}, fixedDelay(30*ms))
	mustSetDelay(t, n, nil, fixedDelay(7*ms))
	mustSetDrop(t, n, &Link{2, 3}, 1)
	n.Partition([][]algo.ID{{1}, {2}})
	n.Cut(Link{1, 2})
	n.Cut(Link{4, 5})
	n.Heal()

	if n.Partitioned() {
		t.Error("Partitioned() = true after Heal")
	}
	if g := n.Groups(ids(5)); g != nil {
		t.Errorf("Groups after Heal = %v, want nil", g)
	}
	if c := n.Cuts(); len(c) != 0 {
		t.Errorf("Cuts after Heal = %v, want none", c)
	}
	if at := send(t, n, 0, 1, 2); at != 30*ms {
		t.Errorf("1->2 after Heal: at %v, want its own 30ms delay", at)
	}
	if at := send(t, n, 0, 4, 5); at != 7*ms {
		t.Errorf("4->5 after Heal: at %v, want the default 7ms", at)
	}
	if _, r := n.Send(0, 2, 3); r != Loss {
		t.Errorf("2->3 after Heal: reason %q, want its drop 100%% kept (%q)", r, Loss)
	}
	n.Cut(Link{1, 2})
	if r := n.Blocked(1, 2); r != Cut {
		t.Errorf("Cut after Heal: Blocked = %q, want %q", r, Cut)
	}
}

const (
	wantDelayErr = "expected a non-negative duration up to 1000h, or a range low..high"
	wantDropErr  = "expected a percentage from 0% to 100%"
)

var delayCases = []struct {
	d     Delay
	wants []string // substrings of the error; nil when d is valid
}{
	{Delay{5 * ms, 15 * ms}, nil},
	{Delay{}, nil},
	{fixedDelay(10 * ms), nil},
	{fixedDelay(-ms), []string{"delay -1ms", wantDelayErr}},
	{Delay{-ms, ms}, []string{"delay -1ms..1ms", wantDelayErr}},
	{Delay{15 * ms, 5 * ms}, []string{"delay 15ms..5ms", wantDelayErr}},
}

var dropCases = []struct {
	p     float64
	wants []string
}{
	{0, nil},
	{0.3, nil},
	{1, nil},
	{1.5, []string{"drop 150%", wantDropErr}},
	{-0.1, []string{"drop -10%", wantDropErr}},
	{math.NaN(), []string{wantDropErr}},
	{math.Inf(1), []string{wantDropErr}},
}

// checkErr fails t unless err is nil when wants is nil, or says every one of wants otherwise.
func checkErr(t *testing.T, what string, err error, wants []string) {
	t.Helper()
	if wants == nil {
		if err != nil {
			t.Errorf("%s: unexpected error %v", what, err)
		}
		return
	}
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q does not say %q", what, err, w)
		}
	}
}

// TestValidate checks that Config.Validate and New reject negative delays, a high bound below
// the low one and a drop outside 0..1, saying what is expected.
func TestValidate(t *testing.T) {
	var configs []Config
	var wants [][]string
	for _, c := range delayCases {
		configs = append(configs, Config{Delay: c.d, FIFO: true})
		wants = append(wants, c.wants)
	}
	for _, c := range dropCases {
		configs = append(configs, Config{Delay: fixedDelay(ms), Drop: c.p})
		wants = append(wants, c.wants)
	}
	for i, c := range configs {
		what := fmt.Sprintf("delay %v drop %g", c.Delay, c.Drop)
		checkErr(t, what+": Validate", c.Validate(), wants[i])
		n, err := New(c, newRand(1, 2))
		checkErr(t, what+": New", err, wants[i])
		if (n == nil) != (err != nil) {
			t.Errorf("%s: New = %v, %v: want exactly one of a network and an error", what, n, err)
		}
	}
}

// TestSetDelaySetDropValidate checks that SetDelay and SetDrop reject the values New rejects,
// globally and per link.
func TestSetDelaySetDropValidate(t *testing.T) {
	n := mustNew(t, DefaultConfig(), nil)
	for _, c := range delayCases {
		for _, l := range []*Link{nil, {1, 2}} {
			_, err := n.SetDelay(l, c.d)
			checkErr(t, fmt.Sprintf("SetDelay(%v, %v)", l, c.d), err, c.wants)
		}
	}
	for _, c := range dropCases {
		for _, l := range []*Link{nil, {1, 2}} {
			checkErr(t, fmt.Sprintf("SetDrop(%v, %g)", l, c.p), n.SetDrop(l, c.p), c.wants)
		}
	}
}

// TestRejectedChangesLeaveStateAlone checks that a rejected SetDelay or SetDrop changes
// nothing: the old delay and loss still apply and FIFO tracking has not started.
func TestRejectedChangesLeaveStateAlone(t *testing.T) {
	n := mustNew(t, Config{Delay: fixedDelay(10 * ms), FIFO: true}, nil)
	for _, l := range []*Link{nil, {1, 2}} {
		if need, err := n.SetDelay(l, Delay{5 * ms, ms}); err == nil || need {
			t.Errorf("SetDelay(%v, 5ms..1ms) = %v, %v; want false and an error", l, need, err)
		}
		if err := n.SetDrop(l, 2); err == nil {
			t.Errorf("SetDrop(%v, 2): no error", l)
		}
	}
	if at := send(t, n, 0, 1, 2); at != 10*ms {
		t.Errorf("after rejected changes: 1->2 at %v, want 10ms", at)
	}
	if m := n.MaxDelay(); m != 10*ms {
		t.Errorf("after rejected changes: MaxDelay = %v, want 10ms", m)
	}
	if !mustSetDelay(t, n, nil, fixedDelay(ms)) {
		t.Error("first valid SetDelay after rejected ones: needInFlight = false, want true")
	}
}

// TestMaxDelay checks that MaxDelay is the largest high bound over the default and every
// per-link delay.
func TestMaxDelay(t *testing.T) {
	type change struct {
		link *Link
		d    Delay
	}
	tests := []struct {
		name    string
		c       Config
		changes []change
		want    time.Duration
	}{
		{"default config", DefaultConfig(), nil, 15 * ms},
		{"fixed", Config{Delay: fixedDelay(10 * ms)}, nil, 10 * ms},
		{"override above", DefaultConfig(), []change{{&Link{1, 2}, Delay{0, 40 * ms}}}, 40 * ms},
		{"override below", DefaultConfig(), []change{{&Link{1, 2}, fixedDelay(ms)}}, 15 * ms},
		{"several overrides", DefaultConfig(), []change{
			{&Link{1, 2}, Delay{0, 40 * ms}},
			{&Link{2, 1}, fixedDelay(60 * ms)},
			{&Link{3, 1}, fixedDelay(ms)},
		}, 60 * ms},
		{"new default above", DefaultConfig(), []change{
			{&Link{1, 2}, Delay{0, 40 * ms}},
			{nil, fixedDelay(50 * ms)},
		}, 50 * ms},
		{"new default below, override stays", DefaultConfig(), []change{
			{&Link{1, 2}, Delay{0, 40 * ms}},
			{nil, fixedDelay(ms)},
		}, 40 * ms},
		{"override lowered", DefaultConfig(), []change{
			{&Link{1, 2}, Delay{0, 40 * ms}},
			{&Link{1, 2}, fixedDelay(2 * ms)},
		}, 15 * ms},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := mustNew(t, tt.c, nil)
			for _, c := range tt.changes {
				mustSetDelay(t, n, c.link, c.d)
			}
			if got := n.MaxDelay(); got != tt.want {
				t.Errorf("MaxDelay = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestReasonString checks the drop reasons traced by §2: partition, cut, loss, crashed.
func TestReasonString(t *testing.T) {
	tests := []struct {
		r    Reason
		want string
	}{
		{Delivered, ""},
		{Partition, "partition"},
		{Cut, "cut"},
		{Loss, "loss"},
		{Crashed, "crashed"},
	}
	for _, tt := range tests {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("Reason(%d).String() = %q, want %q", tt.r, got, tt.want)
		}
	}
}

// TestLinkString checks that a link writes as in the scenario language, "1->2".
func TestLinkString(t *testing.T) {
	tests := []struct {
		l    Link
		want string
	}{
		{Link{1, 2}, "1->2"},
		{Link{2, 1}, "2->1"},
		{Link{10, 300}, "10->300"},
	}
	for _, tt := range tests {
		if got := tt.l.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.l, got, tt.want)
		}
	}
}

// TestDelayString checks that a delay writes as in the scenario language, "10ms" or
// "5ms..15ms".
func TestDelayString(t *testing.T) {
	tests := []struct {
		d    Delay
		want string
	}{
		{fixedDelay(10 * ms), "10ms"},
		{Delay{5 * ms, 15 * ms}, "5ms..15ms"},
		{Delay{}, "0"},
		{Delay{250 * us, 1500 * ms}, "250us..1500ms"},
		{Delay{0, 2 * time.Second}, "0..2s"},
	}
	for _, tt := range tests {
		if got := tt.d.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.d, got, tt.want)
		}
	}
}

// Told the nodes' ids, the network keeps its FIFO bookkeeping in a table rather than a map:
// every delivery time is the same, for random sends with delays changed along the way and
// messages in flight declared — and for ids too spread out for a table.
func TestFIFOTableSameAsMap(t *testing.T) {
	for _, tc := range []struct {
		nodes []algo.ID
		table bool // kept in a table, not the map
	}{
		{ids(7), true}, {ids(1500), true}, {[]algo.ID{3, 9, 40, 41, 70}, true},
		{[]algo.ID{1, 500, 1000, 1500, 2000}, false}, // five nodes: no table of 2,000² links
		{[]algo.ID{1, 5_000_000}, false}, {[]algo.ID{1, math.MaxInt / 2}, false}, {[]algo.ID{1, math.MaxInt}, false},
	} {
		nodes := tc.nodes
		c := Config{Delay: Delay{Min: time.Millisecond, Max: 30 * time.Millisecond}, FIFO: true}
		byMap, byTable := mustNew(t, c, newRand(4, 2)), mustNew(t, c, newRand(4, 2))
		byTable.Nodes(nodes)
		if got := byTable.last.table != nil; got != tc.table {
			t.Fatalf("%v: kept in a table %v, want %v", nodes, got, tc.table)
		}
		pick := newRand(9, 9)
		now := time.Duration(0)
		for i := range 5000 {
			from, to := nodes[pick.IntN(len(nodes))], nodes[pick.IntN(len(nodes))]
			now += time.Duration(pick.IntN(3)) * time.Millisecond
			switch i % 500 {
			case 250:
				d := Delay{Min: time.Millisecond, Max: time.Duration(1+pick.IntN(60)) * time.Millisecond}
				mustSetDelay(t, byMap, nil, d)
				mustSetDelay(t, byTable, nil, d)
			case 400:
				l := Link{from, to}
				byMap.InFlight(l, now+time.Second)
				byTable.InFlight(l, now+time.Second)
			}
			a, b := send(t, byMap, now, from, to), send(t, byTable, now, from, to)
			if a != b {
				t.Fatalf("%v: send %d %d->%d: map %v, table %v", nodes, i, from, to, a, b)
			}
		}
	}
}

// A network with one fixed delay and nothing else set sends every message after exactly that
// delay, the short way (plain); each setting that can change a message's fate or time turns
// that off, and undoing it turns it back on. Either way Send answers as the long way does.
func TestPlainShortcut(t *testing.T) {
	type step struct {
		name  string
		do    func(n *Network)
		plain bool
	}
	link := Link{1, 2}
	steps := []step{
		{"new", func(*Network) {}, true},
		{"partition", func(n *Network) { n.Partition([][]algo.ID{{1}, {2, 3}}) }, false},
		{"heal", func(n *Network) { n.Heal() }, true},
		{"cut", func(n *Network) { n.Cut(link) }, false},
		{"restore", func(n *Network) { n.Restore(link) }, true},
		{"drop", func(n *Network) { mustSetDrop(t, n, nil, 0.5) }, false},
		{"no drop", func(n *Network) { mustSetDrop(t, n, nil, 0) }, true},
		{"link drop", func(n *Network) { mustSetDrop(t, n, &link, 0) }, false},
	}
	n := mustNew(t, Config{Delay: fixedDelay(4 * ms), FIFO: true}, nil)
	for _, s := range steps {
		s.do(n)
		if n.plain != s.plain {
			t.Fatalf("after %s: plain = %v, want %v", s.name, n.plain, s.plain)
		}
	}
	// Per-link settings, random delays and FIFO bookkeeping stay once set.
	for _, c := range []struct {
		name string
		do   func(n *Network)
	}{
		{"link delay", func(n *Network) { mustSetDelay(t, n, &link, fixedDelay(4*ms)) }},
		{"random delay", func(n *Network) { mustSetDelay(t, n, nil, Delay{ms, 9 * ms}) }},
		// Back to one fixed delay, FIFO must still hold against what the random one sent.
		{"random delay, then fixed", func(n *Network) {
			mustSetDelay(t, n, nil, Delay{ms, 9 * ms})
			mustSetDelay(t, n, nil, fixedDelay(4*ms))
		}},
	} {
		n := mustNew(t, Config{Delay: fixedDelay(4 * ms), FIFO: true}, nil)
		c.do(n)
		if n.plain {
			t.Errorf("after %s: plain", c.name)
		}
	}
	// The shortcut answers as the long way does, blocked links apart.
	for _, plain := range []bool{true, false} {
		n := mustNew(t, Config{Delay: fixedDelay(4 * ms)}, nil)
		n.plain = plain
		if at := send(t, n, 10*ms, 1, 2); at != 14*ms {
			t.Errorf("plain=%v: delivered at %v, want 14ms", plain, at)
		}
	}
}
