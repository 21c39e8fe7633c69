package network

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"electsim/algo"
)

// Delay is a link's delay: fixed when Min == Max, else uniform over [Min, Max].
type Delay struct {
	Min, Max time.Duration
}

// String writes "10ms" or "5ms..15ms".
func (d Delay) String() string { return algo.FormatRange(d.Min, d.Max) }

// Config is a network's configuration at the start of a run.
type Config struct {
	Delay Delay   // the default delay of every link
	Drop  float64 // the default loss probability of every link, 0 to 1
	FIFO  bool    // links deliver in the order they were sent
}

// DefaultConfig returns the defaults of docs/model.md: delay 5ms..15ms, no loss, FIFO on.
func DefaultConfig() Config {
	return Config{Delay: Delay{5 * time.Millisecond, 15 * time.Millisecond}, FIFO: true}
}

// Validate says what to change when c is not a usable configuration.
func (c Config) Validate() error {
	if err := c.Delay.validate(); err != nil {
		return err
	}
	return validateDrop(c.Drop)
}

func (d Delay) validate() error {
	if d.Min < 0 || d.Max < d.Min || d.Max > algo.MaxDuration {
		return fmt.Errorf("network: delay %s: expected a non-negative duration up to 1000h, or a range low..high", d)
	}
	return nil
}

func validateDrop(p float64) error {
	if !(p >= 0 && p <= 1) {
		return fmt.Errorf("network: drop %g%%: expected a percentage from 0%% to 100%%", p*100)
	}
	return nil
}

// Reason is why a message was dropped.
type Reason uint8

// The reasons a message is dropped. Crashed is decided by the engine, which knows who is down;
// the others by the network.
const (
	Delivered Reason = iota // not dropped
	Partition               // sender and receiver are in different partition groups
	Cut                     // the directed link is cut
	Loss                    // lost at random
	Crashed                 // the receiver crashed while the message was in flight
)

// String returns "partition", "cut", "loss", "crashed" or "" for Delivered.
func (r Reason) String() string {
	switch r {
	case Partition:
		return "partition"
	case Cut:
		return "cut"
	case Loss:
		return "loss"
	case Crashed:
		return "crashed"
	}
	return ""
}

// Link is a directed link between two nodes.
type Link struct {
	From, To algo.ID
}

// String writes "1->2".
func (l Link) String() string { return fmt.Sprintf("%d->%d", l.From, l.To) }

// Network is the state of every link. It is not safe for concurrent use; the engine calls it
// from one goroutine at a time.
type Network struct {
	rng   *rand.Rand
	delay Delay
	drop  float64
	fifo  bool

	group  map[algo.ID]int // partition group of each named node; nil when not partitioned
	cuts   map[Link]bool
	delays map[Link]Delay
	drops  map[Link]float64

	// FIFO bookkeeping: the latest delivery time given to each link. Only kept while delays
	// could reorder messages (a range, or a delay changed during the run); with fixed delays
	// that never change, later sends arrive later by construction.
	tracking bool
	last     lastTimes

	// plain: no partition, cut, loss, per-link setting or FIFO bookkeeping, and one fixed
	// delay — every message arrives after exactly delay.Min. Send then takes a shortcut.
	plain bool
}

// refresh recomputes plain; every method that changes the network calls it.
func (n *Network) refresh() {
	n.plain = n.group == nil && len(n.cuts) == 0 && n.delays == nil && n.drops == nil &&
		n.drop == 0 && n.delay.Min == n.delay.Max && !n.tracking
}

// lastTimes is the FIFO bookkeeping: the latest delivery time given to each link, zero for
// none. With node ids in a small range (Nodes) it is a table by sender and receiver — among
// 1,000 nodes a million links, each looked up on every send — and otherwise a map.
type lastTimes struct {
	lo, span algo.ID
	table    []time.Duration // (from-lo)*span + (to-lo), made when tracking starts
	m        map[Link]time.Duration
}

// maxTableSide is how far apart ids may be for a table: its square, 4 million links, 32 MB, is
// the most a table keeps.
const maxTableSide = 1 << 11

func (t *lastTimes) start() {
	if t.span > 0 {
		t.table = make([]time.Duration, int(t.span)*int(t.span))
	} else {
		t.m = map[Link]time.Duration{}
	}
}

func (t *lastTimes) get(l Link) time.Duration {
	if t.table != nil {
		return t.table[(l.From-t.lo)*t.span+(l.To-t.lo)]
	}
	return t.m[l]
}

func (t *lastTimes) set(l Link, at time.Duration) {
	if t.table != nil {
		t.table[(l.From-t.lo)*t.span+(l.To-t.lo)] = at
		return
	}
	t.m[l] = at
}

// mapLinkBytes is about what one link's entry costs in the FIFO bookkeeping's map, measured:
// its key, its time, and the map's slack.
const mapLinkBytes = 56

// Bytes returns about how much memory the network holds that grows with the run: the FIFO
// bookkeeping's table, or its map of the links used so far. Per-link settings, one per action,
// are left out.
func (n *Network) Bytes() int64 {
	return int64(len(n.last.table))*8 + int64(len(n.last.m))*mapLinkBytes
}

// Nodes tells the network the ids of the run's nodes, before the first send: the links
// between them are the only ones it will see.
func (n *Network) Nodes(ids []algo.ID) {
	if len(ids) == 0 || n.last.table != nil || len(n.last.m) > 0 {
		return // told already, or too late: messages were sent
	}
	lo, hi := slices.Min(ids), slices.Max(ids)
	// Compared before squaring: ids far apart would overflow it. And a table with twice as many
	// gaps as ids, or more, would cost more to make than the map costs to use: ids 1, 500, 1000
	// are three nodes, not a thousand.
	if hi-lo >= maxTableSide || int(hi-lo) > 2*len(ids)+64 {
		return
	}
	span := int(hi-lo) + 1
	n.last = lastTimes{lo: lo, span: algo.ID(span)}
	if n.tracking {
		n.last.start()
	}
}

// New returns a network configured by c that draws delays and losses from rng.
func New(c Config, rng *rand.Rand) (*Network, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	n := &Network{rng: rng, delay: c.Delay, drop: c.Drop, fifo: c.FIFO}
	if c.FIFO && c.Delay.Min != c.Delay.Max {
		n.tracking = true
		n.last.start()
	}
	n.refresh()
	return n, nil
}

// Send decides the fate of a message sent now from one node to another: the time it will be
// delivered, or the reason it is dropped at once.
func (n *Network) Send(now time.Duration, from, to algo.ID) (time.Duration, Reason) {
	if n.plain {
		return now + n.delay.Min, Delivered
	}
	if r := n.Blocked(from, to); r != Delivered {
		return 0, r
	}
	l := Link{from, to}
	p := n.drop
	if n.drops != nil {
		if q, ok := n.drops[l]; ok {
			p = q
		}
	}
	if p > 0 && n.rng.Float64() < p {
		return 0, Loss
	}
	d := n.delay
	if n.delays != nil {
		if e, ok := n.delays[l]; ok {
			d = e
		}
	}
	at := now + n.draw(d)
	if n.tracking {
		at = max(at, n.last.get(l))
		n.last.set(l, at)
	}
	return at, Delivered
}

// draw picks a delay from d: uniformly, in whole microseconds when d's bounds are whole
// microseconds.
func (n *Network) draw(d Delay) time.Duration {
	if d.Max <= d.Min {
		return d.Min
	}
	unit := time.Microsecond
	if d.Min%unit != 0 || d.Max%unit != 0 {
		unit = 1
	}
	span := int64((d.Max - d.Min) / unit)
	return d.Min + time.Duration(n.rng.Int64N(span+1))*unit
}

// Blocked reports why a message from one node to another cannot pass right now (Partition or
// Cut), or Delivered when the link is open.
func (n *Network) Blocked(from, to algo.ID) Reason {
	if n.group != nil && n.group[from] != n.group[to] {
		return Partition
	}
	if len(n.cuts) > 0 && n.cuts[Link{from, to}] {
		return Cut
	}
	return Delivered
}

// Blocking reports whether any link is blocked now: a partition or a cut. When not, Blocked
// says Delivered for every link.
func (n *Network) Blocking() bool { return n.group != nil || len(n.cuts) > 0 }

// Partition splits the nodes into groups: links between different groups are cut both ways,
// and the nodes no group names form one more group. It replaces any earlier partition; one-way
// cuts stay.
func (n *Network) Partition(groups [][]algo.ID) {
	defer n.refresh()
	if len(groups) == 0 {
		n.group = nil
		return
	}
	n.group = map[algo.ID]int{}
	for i, g := range groups {
		for _, id := range g {
			n.group[id] = i + 1
		}
	}
}

// Cut cuts the directed link l.
func (n *Network) Cut(l Link) {
	defer n.refresh()
	if n.cuts == nil {
		n.cuts = map[Link]bool{}
	}
	n.cuts[l] = true
}

// Restore reopens the directed link l after a Cut.
func (n *Network) Restore(l Link) {
	defer n.refresh()
	delete(n.cuts, l)
}

// Heal removes every partition and every cut. Delays and losses stay as they are.
func (n *Network) Heal() {
	defer n.refresh()
	n.group = nil
	n.cuts = nil
}

// Partitioned reports whether a partition is in force.
func (n *Network) Partitioned() bool { return n.group != nil }

// Groups returns the partition in force as groups of the given ids, each sorted: the groups
// in the order the partition named them, then the nodes it did not name. It returns nil when
// the network is not partitioned.
func (n *Network) Groups(ids []algo.ID) [][]algo.ID {
	if n.group == nil {
		return nil
	}
	byGroup := map[int][]algo.ID{}
	last := 0
	for _, id := range ids {
		g := n.group[id]
		byGroup[g] = append(byGroup[g], id)
		last = max(last, g)
	}
	var out [][]algo.ID
	for g := 1; g <= last; g++ {
		if grp := byGroup[g]; len(grp) > 0 {
			slices.Sort(grp)
			out = append(out, grp)
		}
	}
	if rest := byGroup[0]; len(rest) > 0 {
		slices.Sort(rest)
		out = append(out, rest)
	}
	return out
}

// Cuts returns the cut links, sorted.
func (n *Network) Cuts() []Link {
	out := make([]Link, 0, len(n.cuts))
	for l := range n.cuts {
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b Link) int {
		if a.From != b.From {
			return int(a.From - b.From)
		}
		return int(a.To - b.To)
	})
	return out
}

// SetDelay sets the default delay of every link (l == nil) or of the directed link *l. When a
// change of delay could let a later message overtake an earlier one, Network starts keeping
// FIFO order and returns true: the caller must then report the messages already in flight with
// InFlight, so that none is overtaken.
func (n *Network) SetDelay(l *Link, d Delay) (needInFlight bool, err error) {
	defer n.refresh()
	if err := d.validate(); err != nil {
		return false, err
	}
	if l == nil {
		n.delay = d
	} else {
		if n.delays == nil {
			n.delays = map[Link]Delay{}
		}
		n.delays[*l] = d
	}
	if n.fifo && !n.tracking {
		n.tracking = true
		n.last.start()
		return true, nil
	}
	return false, nil
}

// InFlight tells the network that a message on link l is due at time at, so that later
// messages on l are not delivered before it. See SetDelay.
func (n *Network) InFlight(l Link, at time.Duration) {
	if n.tracking && n.last.get(l) < at {
		n.last.set(l, at)
	}
}

// SetDrop sets the loss probability (0 to 1) of every link (l == nil) or of the directed link *l.
func (n *Network) SetDrop(l *Link, p float64) error {
	defer n.refresh()
	if err := validateDrop(p); err != nil {
		return err
	}
	if l == nil {
		n.drop = p
		return nil
	}
	if n.drops == nil {
		n.drops = map[Link]float64{}
	}
	n.drops[*l] = p
	return nil
}

// MaxDelay returns the largest delay any link may currently give a message.
func (n *Network) MaxDelay() time.Duration {
	m := n.delay.Max
	for _, d := range n.delays {
		m = max(m, d.Max)
	}
	return m
}
