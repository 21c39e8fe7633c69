package session

import (
	"math"
	"slices"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// Picture is what is drawn of a session at one instant of virtual time: where each node sits,
// what it believes and which timers it is waiting on, each message on its way at the fraction
// of its flight elapsed, the drops of a moment ago, and the links a fault blocks. It is plain
// data — numbers, strings, ids; times in nanoseconds and node ids as strings when encoded as JSON
// — so that the terminal UI and a web page draw the same thing: docs/picture.md says how each
// field reads.
//
// A Picture is a pure function of the session's state and the instant: stepping forward and
// back to the same step and instant gives the same Picture.
type Picture struct {
	// At is the instant drawn: at or after the time of the latest step shown, before the next
	// event due.
	At time.Duration `json:"at"`
	// Layout is how the nodes are placed: "ring" (round a circle, in ring order clockwise from
	// the top), "grid" above RingMax nodes (rows, in ring order), or "graph" for a general
	// topology of up to GraphMax nodes laid out as its shape (TopologyLayout).
	Layout string `json:"layout"`
	// Nodes are every node, in ring order.
	Nodes []PicNode `json:"nodes"`
	// Packets are the messages in flight, in the order they are due.
	Packets []Packet `json:"packets"`
	// Drops are the messages lost within the last Linger of virtual time before At, and those
	// lost in the latest step shown whenever it was: newest last.
	Drops []Drop `json:"drops"`
	// Blocked are the directed links a fault blocks now: a one-way cut, or a partition between
	// the two ends' groups. Only links between nodes in different groups or cut are listed;
	// for a partition, both ways.
	Blocked []Blocked `json:"blocked"`
	// Groups is how many partition groups are in force: 0 without a partition.
	Groups int `json:"groups"`
	// Topology is the name of the run's topology ("ring", "bi-ring", "grid:3x4", …); empty for
	// the complete graph.
	Topology string `json:"topology,omitempty"`
	// Edges are the topology's links by node id, while the layout shows its shape ("ring" or
	// "graph"): an undirected link once, a directed one [a, b] from a to b, a ring's in ring
	// order. Empty for the complete graph (every pair is linked) and when the layout is "grid"
	// (too many nodes to draw the links readably). They do not change during a run: a view
	// that keeps its Picture gets the same slice every frame, and must not change it.
	Edges Links `json:"edges,omitempty"`
	// Directed is set when a link lets messages go one way only, as on a one-way ring.
	Directed bool `json:"directed,omitempty"`
	// SplitBrain are the live nodes that believe they lead, ascending, when two or more do; none
	// otherwise, and none ever for an algorithm of groups (algo.Info.Groups: a coordinator per
	// group is its design, not an alarm).
	SplitBrain IDs `json:"splitBrain,omitempty"`
	// Legend is what the marks drawn mean (Legend): the same every frame of a run, and the same
	// slice — a view must not change it.
	Legend []Mark `json:"legend"`

	scratch scratch // what filling it reuses from one frame to the next
}

// scratch is what Picture reuses from one frame to the next, kept in the Picture so that
// drawing changes nothing in the session.
type scratch struct {
	places [][2]float64
	timers []sim.PendingTimer
	held   []sim.HeldInput
	flying []sim.Flying
	lines  map[[2]algo.ID]int
	slot   map[algo.ID]int // a node's place in Nodes
	shape  shape           // the places and edges of the last topology drawn
	marks  marks           // the algorithm's letters and legend
}

// shape is what a picture draws of a topology that does not change during a run: the nodes'
// places and the edges. It is worked out once per topology and node count, not every frame —
// a force layout takes a millisecond, a ring of 200,000 nodes its edges.
type shape struct {
	top    *algo.Topology
	n      int
	places [][2]float64
	graph  bool // placed as the graph's shape (TopologyLayout's ok)
	edges  [][2]algo.ID
}

// PicNode is one node as a picture shows it.
type PicNode struct {
	ID     algo.ID `json:"id,string"`
	Status string  `json:"status"`                  // follower, candidate, leader, crashed, paused, or not-started (NotStarted) before it boots
	Leader algo.ID `json:"leader,omitempty,string"` // the leader it believes in, 0 (absent in JSON) if none
	Term   uint64  `json:"term"`                    // its term, 0 where the algorithm has none
	Role   string  `json:"role,omitempty"`
	// Group is its partition group, 1, 2, ... in the order the partition lists them; 0 without
	// a partition.
	Group int `json:"group"`
	// X and Y are its place on the canvas, from 0 to 1 each, Y growing downwards: the centre of
	// the node. A view scales them to its canvas.
	X float64 `json:"x"`
	Y float64 `json:"y"`
	// Timers are its pending timers, soonest first.
	Timers []Timer `json:"timers,omitempty"`
	// Held are the inputs it holds while paused, in the order it will handle them.
	Held []Held `json:"held,omitempty"`
}

// Timer is a pending timer of a node: a bar or an arc that runs down draws Left of Total, with
// the timer's name (the algorithm's: "election", "answer", "suspect") and the time left.
type Timer struct {
	Name  string        `json:"name"`
	Left  time.Duration `json:"left"`  // until it fires, from the instant drawn
	Total time.Duration `json:"total"` // from when it was last set to when it fires
	Fires time.Duration `json:"fires"` // the instant it fires: At + Left
}

// Held is an input a paused node holds.
type Held struct {
	Kind    string  `json:"kind"` // "message", "timer", "elect" or "boot"
	Label   string  `json:"label"`
	MsgKind string  `json:"msgKind,omitempty"`      // a message's kind
	From    algo.ID `json:"from,omitempty,string"`  // a message's sender
	Value   algo.ID `json:"value,omitempty,string"` // the id a message carries
	Term    uint64  `json:"term,omitempty"`         // a message's term
	Flag    bool    `json:"flag,omitempty"`         // a message's flag
	Phase   uint32  `json:"phase,omitempty"`        // a message's phase (the ring catalog's)
	Hop     uint32  `json:"hop,omitempty"`          // a message's hop count (the ring catalog's)
}

// Packet is a message in flight, drawn on the line from From to To at Fraction of the way.
type Packet struct {
	From    algo.ID `json:"from,string"`
	To      algo.ID `json:"to,string"`
	Kind    string  `json:"kind"`
	Value   algo.ID `json:"value,omitempty,string"` // the id it carries, 0 (absent in JSON) if none
	Term    uint64  `json:"term"`                   // its term, 0 if none
	Label   string  `json:"label"`                  // the kind with its value and term: "ELECTION(3) t2"
	Routine bool    `json:"routine"`                // a heartbeat: background traffic
	Flag    bool    `json:"flag"`                   // the message's flag: a vote granted, an answer yes (✓ in its label)
	// Mark is what the packet is drawn with: its kind's letter (KindLetters), the id it carries,
	// and for an answer (algo.Info.Answers) ✓ or ✗ — "E8", "V✓", "V✗"; ✓ after another kind's
	// flag when set.
	Mark string `json:"mark"`
	// Count is how far a message of the ring catalog has gone, in words — "hop 3", "phase 2 ·
	// hop 1", "round 3" — drawn apart from the mark so that it is never read as the id; empty
	// where the message has none.
	Count string `json:"count,omitempty"`
	// Phase and Hop are the ring catalog's: the phase a message belongs to and the hops it has
	// gone, 0 (and left out of the JSON) where the algorithm has none.
	Phase uint32 `json:"phase,omitempty"`
	Hop   uint32 `json:"hop,omitempty"`
	// Fraction is how much of its flight has elapsed at the instant drawn, (At − Sent) /
	// (Arrives − Sent), from 0 to 1.
	Fraction float64       `json:"fraction"`
	Sent     time.Duration `json:"sent"`
	Arrives  time.Duration `json:"arrives"`
	// Others is how many other packets are on the same directed line; Newest marks the one sent
	// last there (the latest due among equals): a view that draws one packet per line draws it,
	// with the count.
	Others int  `json:"others"`
	Newest bool `json:"newest"`
}

// Drop is a message lost a moment ago, drawn as ✗ on its line: at the sender's end (Fraction 0)
// when the network dropped it as it was sent, at the receiver's end (1) when it was dropped on
// arriving.
type Drop struct {
	From     algo.ID       `json:"from,string"`
	To       algo.ID       `json:"to,string"`
	Kind     string        `json:"kind"`
	Label    string        `json:"label"`
	At       time.Duration `json:"at"` // when it was lost
	Fraction float64       `json:"fraction"`
	Reason   string        `json:"reason"` // why: "loss", "partition", "cut", "crashed", ...
}

// Blocked is a directed link a fault blocks.
type Blocked struct {
	From algo.ID `json:"from,string"`
	To   algo.ID `json:"to,string"`
	Why  string  `json:"why"` // "cut" or "partition"
}

// RingMax is the most nodes the ring layout places; above it, the grid.
const RingMax = 32

// Instant is the instant a view draws: the time of the latest step shown, or later while
// playing virtual time continuously (PlayTo).
func (s *Session) Instant() time.Duration {
	if s.instantAt != len(s.steps) {
		return s.run.Now()
	}
	return max(s.instant, s.run.Now())
}

// PlayTo plays virtual time on to t: it shows every step due by t, in order, and the instant
// drawn becomes t — unless a step is a break, where it stops, the instant that step's. It
// returns how many steps it showed, and whether it stopped at a break. At the end of the run the
// instant stays at its end; when the session is full (Full), at the last step shown.
func (s *Session) PlayTo(t time.Duration) (int, bool) {
	n := 0
	for {
		_, ok := s.NextBy(t)
		if !ok {
			break
		}
		n++
		if s.AtBreak() {
			s.instant, s.instantAt = s.run.Now(), len(s.steps)
			return n, true
		}
	}
	if s.Full() != "" { // no room for the next step: the instant stays at the last one shown
		return n, false
	}
	s.instant, s.instantAt = min(max(t, s.run.Now()), s.base.RunFor), len(s.steps)
	return n, false
}

// Picture fills p with the picture at the session's instant (Instant), reusing p's slices: a
// view that draws every frame keeps one Picture. linger is how long, in virtual time, a drop
// stays drawn after it happened (the drops of the latest step stay however long ago it was):
// a view chooses it from its playback rate.
func (s *Session) Picture(p *Picture, linger time.Duration) {
	t := s.Instant()
	*p = Picture{At: t, Layout: "ring", Nodes: p.Nodes[:0], Packets: p.Packets[:0], Drops: p.Drops[:0], Blocked: p.Blocked[:0],
		SplitBrain: p.SplitBrain[:0], scratch: p.scratch}
	p.Legend = p.scratch.marks.of(s.base.Algorithm).legend
	ids := s.base.IDs
	if len(ids) > RingMax {
		p.Layout = "grid"
	}
	s.pictureShape(p, ids)
	s.pictureNodes(p, ids, t)
	s.picturePackets(p, t)
	s.pictureDrops(p, t, linger)
	s.pictureBlocked(p)
	if leaders := s.run.Leaders(); len(leaders) >= 2 && !s.base.Algorithm.Groups {
		p.SplitBrain = append(p.SplitBrain, leaders...)
	}
	// Empty, not absent: a page reads [] as "none".
	if p.Packets == nil {
		p.Packets = []Packet{}
	}
	if p.Drops == nil {
		p.Drops = []Drop{}
	}
	if p.Blocked == nil {
		p.Blocked = []Blocked{}
	}
}

// Layout places n nodes, in ring order, on a canvas from 0 to 1 each way, and returns their
// places appended to dst[:0]. edges are the links between them, as index pairs, or nil for the
// complete graph. A tree — n−1 edges joining every node — is drawn as one: node 0 at the top,
// each level of the tree a row, in order. Anything else is placed round a circle clockwise from
// the top, up to RingMax nodes, and in the rows of a grid as square as it can be above.
func Layout(n int, edges [][2]int, dst [][2]float64) [][2]float64 {
	dst = dst[:0]
	if levels := treeLevels(n, edges); levels != nil {
		for range n {
			dst = append(dst, [2]float64{})
		}
		for r, level := range levels {
			for c, i := range level {
				dst[i] = [2]float64{round9((float64(c) + 0.5) / float64(len(level))), round9((float64(r) + 0.5) / float64(len(levels)))}
			}
		}
		return dst
	}
	if n <= RingMax {
		for i := range n {
			a := -math.Pi/2 + 2*math.Pi*float64(i)/float64(max(n, 1))
			dst = append(dst, [2]float64{round9(0.5 + 0.5*math.Cos(a)), round9(0.5 + 0.5*math.Sin(a))})
		}
		return dst
	}
	cols := 1
	for cols*cols < n {
		cols++
	}
	rows := (n + cols - 1) / cols
	for i := range n {
		r, c := i/cols, i%cols
		dst = append(dst, [2]float64{round9((float64(c) + 0.5) / float64(cols)), round9((float64(r) + 0.5) / float64(rows))})
	}
	return dst
}

// treeLevels returns the levels of the tree edges make of n nodes, from node 0 breadth first,
// each level's nodes in the order reached; nil unless edges are a tree (n−1 of them, joining
// every node) of more than two nodes.
func treeLevels(n int, edges [][2]int) [][]int {
	if n <= 2 || len(edges) != n-1 {
		return nil
	}
	adj := make([][]int, n)
	for _, e := range edges {
		if e[0] < 0 || e[1] < 0 || e[0] >= n || e[1] >= n || e[0] == e[1] {
			return nil
		}
		adj[e[0]] = append(adj[e[0]], e[1])
		adj[e[1]] = append(adj[e[1]], e[0])
	}
	seen := make([]bool, n)
	seen[0] = true
	levels := [][]int{{0}}
	reached := 1
	for {
		var next []int
		for _, i := range levels[len(levels)-1] {
			for _, j := range adj[i] {
				if !seen[j] {
					seen[j] = true
					next = append(next, j)
				}
			}
		}
		if len(next) == 0 {
			break
		}
		reached += len(next)
		levels = append(levels, next)
	}
	if reached != n {
		return nil
	}
	return levels
}

// round9 rounds to nine decimal places: a place reads the same on every machine (a fused
// multiply-add on one and not another changes the last bits).
func round9(v float64) float64 { return math.Round(v*1e9) / 1e9 }

// pictureShape fills p's layout, topology and edges, and keeps the nodes' places in its
// scratch: worked out again only when the run's topology or its size changed (a restart).
func (s *Session) pictureShape(p *Picture, ids []algo.ID) {
	top := s.run.Topology()
	sh := &p.scratch.shape
	if sh.top != top || sh.n != len(ids) || sh.places == nil {
		sh.top, sh.n = top, len(ids)
		sh.places, sh.graph = TopologyLayout(top, ids, sh.places)
		sh.edges = nil
		if top != nil && !top.IsComplete() && (sh.graph || top.IsRing() && len(ids) <= RingMax) {
			sh.edges = top.Edges()
		}
	}
	if sh.graph {
		p.Layout = "graph"
	}
	if top != nil && !top.IsComplete() {
		p.Topology = top.Name()
		p.Directed = top.Directed()
	}
	p.Edges = sh.edges
}

// pictureNodes fills p's nodes: state, place, timers, held inputs.
func (s *Session) pictureNodes(p *Picture, ids []algo.ID, t time.Duration) {
	views := s.run.Nodes()
	places := p.scratch.shape.places
	var group map[algo.ID]int
	if parts := s.run.Partition(); parts != nil {
		p.Groups = len(parts)
		group = map[algo.ID]int{}
		for i, g := range parts {
			for _, id := range g {
				group[id] = i + 1
			}
		}
	}
	p.scratch.timers = s.run.AppendTimers(p.scratch.timers[:0])
	p.scratch.held = s.run.AppendHeld(p.scratch.held[:0])
	if p.scratch.slot == nil {
		p.scratch.slot = make(map[algo.ID]int, len(ids))
	}
	clear(p.scratch.slot)
	for i, id := range ids {
		v := viewOf(views, id)
		status := v.Status.String()
		if !s.started[id] && v.Status != sim.Crashed && v.Status != sim.Paused {
			status = NotStarted
		}
		p.scratch.slot[id] = len(p.Nodes)
		p.Nodes = append(p.Nodes, PicNode{ID: id, Status: status, Leader: v.Leader, Term: v.Term, Role: v.Role,
			Group: group[id], X: places[i][0], Y: places[i][1]})
	}
	// Each node's timers and held inputs, in one pass over each list: a frame among many nodes
	// costs their number, not their number times the nodes'.
	for _, tm := range p.scratch.timers {
		i, ok := p.scratch.slot[tm.Node]
		if !ok {
			continue
		}
		total := tm.Deadline - tm.Set
		if tm.Set < 0 {
			total = 0
		}
		p.Nodes[i].Timers = append(p.Nodes[i].Timers, Timer{Name: tm.Name, Left: max(0, tm.Deadline-t), Total: total, Fires: tm.Deadline})
	}
	for i := range p.Nodes {
		slices.SortStableFunc(p.Nodes[i].Timers, func(a, b Timer) int { return cmpDur(a.Left, b.Left) })
	}
	for _, h := range p.scratch.held {
		i, ok := p.scratch.slot[h.Node]
		if !ok {
			continue
		}
		ph := Held{Kind: h.Kind}
		switch h.Kind {
		case "message":
			ph.Label, ph.MsgKind, ph.From = h.Msg.Label(), h.Msg.Kind, h.Msg.From
			ph.Value, ph.Term, ph.Flag = h.Msg.Value, h.Msg.Term, h.Msg.Flag
			ph.Phase, ph.Hop = h.Msg.Phase, h.Msg.Hop
		case "timer":
			ph.Label = h.Timer
		default:
			ph.Label = h.Kind
		}
		p.Nodes[i].Held = append(p.Nodes[i].Held, ph)
	}
}

func viewOf(views []sim.NodeView, id algo.ID) sim.NodeView {
	if i, ok := slices.BinarySearchFunc(views, id, func(v sim.NodeView, id algo.ID) int { return int(v.ID - id) }); ok {
		return views[i]
	}
	return sim.NodeView{ID: id}
}

func cmpDur(a, b time.Duration) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// picturePackets fills p's packets: every message in flight at the fraction of its flight.
func (s *Session) picturePackets(p *Picture, t time.Duration) {
	info := s.base.Algorithm
	mk := p.scratch.marks.of(info)
	p.scratch.flying = s.run.AppendFlying(p.scratch.flying[:0])
	if p.scratch.lines == nil {
		p.scratch.lines = map[[2]algo.ID]int{}
	}
	clear(p.scratch.lines)
	for _, f := range p.scratch.flying {
		frac := 1.0
		if span := f.Arrives - f.Sent; span > 0 {
			frac = min(1, max(0, float64(t-f.Sent)/float64(span)))
		}
		k := [2]algo.ID{f.Msg.From, f.Msg.To}
		mark, count := mk.packet(f.Msg)
		p.Packets = append(p.Packets, Packet{From: f.Msg.From, To: f.Msg.To, Kind: f.Msg.Kind, Value: f.Msg.Value, Term: f.Msg.Term, Label: f.Msg.Label(),
			Routine: info.IsRoutine(f.Msg.Kind), Flag: f.Msg.Flag, Mark: mark, Count: count, Phase: f.Msg.Phase, Hop: f.Msg.Hop,
			Fraction: frac, Sent: f.Sent, Arrives: f.Arrives})
		// The newest on a line: the one sent last; among those sent together, the one due last
		// (the later in the order due, as they come).
		if j, ok := p.scratch.lines[k]; !ok || p.Packets[j].Sent <= f.Sent {
			p.scratch.lines[k] = len(p.Packets) - 1
		}
	}
	for _, j := range p.scratch.lines {
		p.Packets[j].Newest = true
	}
	counts := p.scratch.lines // reused: now the count on each line
	clear(counts)
	for i := range p.Packets {
		counts[[2]algo.ID{p.Packets[i].From, p.Packets[i].To}]++
	}
	for i := range p.Packets {
		p.Packets[i].Others = counts[[2]algo.ID{p.Packets[i].From, p.Packets[i].To}] - 1
	}
}

// pictureDrops fills p's drops: those of the last linger of virtual time before t, and those of
// the latest step shown.
func (s *Session) pictureDrops(p *Picture, t, linger time.Duration) {
	first := len(s.steps)
	for first > 0 {
		at := s.steps[first-1].Records[0].At
		if first < len(s.steps) && at < t-linger {
			break
		}
		first--
	}
	for _, st := range s.steps[first:] {
		for _, r := range st.Records {
			switch {
			case r.Type == sim.RecDrop:
				p.Drops = append(p.Drops, Drop{From: r.Msg.From, To: r.Msg.To, Kind: r.Msg.Kind, Label: r.Msg.Label(),
					At: r.At, Fraction: 1, Reason: r.Reason.String()})
			case r.Type == sim.RecSend && r.Reason != network.Delivered:
				p.Drops = append(p.Drops, Drop{From: r.Msg.From, To: r.Msg.To, Kind: r.Msg.Kind, Label: r.Msg.Label(),
					At: r.At, Fraction: 0, Reason: r.Reason.String()})
			}
		}
	}
}

// pictureBlocked fills p's blocked links: the cuts, and both ways between partition groups.
func (s *Session) pictureBlocked(p *Picture) {
	for _, l := range s.run.Cuts() {
		p.Blocked = append(p.Blocked, Blocked{From: l.From, To: l.To, Why: "cut"})
	}
	if p.Groups == 0 {
		return
	}
	cuts := len(p.Blocked)
	for _, a := range p.Nodes {
		for _, b := range p.Nodes {
			if a.ID != b.ID && a.Group != b.Group && !slices.ContainsFunc(p.Blocked[:cuts], func(x Blocked) bool { return x.From == a.ID && x.To == b.ID }) {
				p.Blocked = append(p.Blocked, Blocked{From: a.ID, To: b.ID, Why: "partition"})
			}
		}
	}
}

// Message is the message a packet carries.
func (pk *Packet) Message() algo.Message {
	return algo.Message{Kind: pk.Kind, From: pk.From, To: pk.To, Value: pk.Value, Term: pk.Term, Flag: pk.Flag,
		Phase: pk.Phase, Hop: pk.Hop}
}

// Message is the message a held input is, for the node that holds it; ok is false for an input
// that is not a message.
func (h *Held) Message(to algo.ID) (algo.Message, bool) {
	return algo.Message{Kind: h.MsgKind, From: h.From, To: to, Value: h.Value, Term: h.Term, Flag: h.Flag,
		Phase: h.Phase, Hop: h.Hop}, h.Kind == "message"
}
