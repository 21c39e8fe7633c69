package algo

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// The general graphs a run can have beside the complete graph and the rings. Each lays its
// edges over the cluster's ring order (the scenario's ids in the order given); the ones with a
// parameter are named kind:param ("grid:3x4", "tree:2", "random:3", "file:net.txt").
const (
	// Line: a path through the ring order, the first node to the last.
	Line = "line"
	// Star: the first node of the ring order is the hub, linked to every other node.
	Star = "star"
	// Grid: grid:RxC lays the ring order row by row on R rows of C columns, each node linked to
	// the nodes above, below, left and right of it; R·C must be the number of nodes.
	Grid = "grid"
	// Tree: tree:K is the complete K-ary tree in the ring order, the first node its root: the
	// node at position p has its parent at position (p-1)/K.
	Tree = "tree"
	// Random: random:D is a connected graph of mean degree D drawn from the run's seed — a
	// random spanning tree, then edges between random pairs until there are round(N·D/2)
	// (never fewer than N-1, never more than every pair).
	Random = "random"
	// File: file:PATH is the graph of an edge-list file, one edge a line: two node ids, apart.
	// The file is read by the caller — once, by the scenario or the command line — and its
	// edges given as data (NewClusterGraph): an algorithm's package reads no file.
	File = "file"
	// EdgeList: the graph given as its edges, as data — a scenario's `topology edges 1-2 2-3`.
	EdgeList = "edges"
)

// MaxEdges is the most edges a general graph may have: its adjacency lists then take a few
// hundred megabytes. (The complete graph is kept implicit, and has no such bound.)
const MaxEdges = 10_000_000

// TopologyKind returns the kind of a topology's name, the part before any ':' — "grid" for
// "grid:3x4", "ring" for "ring".
func TopologyKind(name string) string {
	kind, _, _ := strings.Cut(name, ":")
	return kind
}

// graphSpec is a general graph's name, parsed: its kind and parameters.
type graphSpec struct {
	kind       string
	rows, cols int     // grid
	k          int     // tree
	degree     float64 // random
	path       string  // file
}

// parseGraph parses the name of a general graph. It returns nil and no error when name is not
// a general graph's. It reads nothing: a file's edges are given as data (NewClusterGraph).
func parseGraph(name string) (*graphSpec, error) {
	kind, arg, hasArg := strings.Cut(name, ":")
	s := &graphSpec{kind: kind}
	switch kind {
	case Line, Star, EdgeList:
		if hasArg {
			return nil, fmt.Errorf("topology %s takes no parameter: write %s", quoteName(name), kind)
		}
	case Grid:
		r, c, ok := strings.Cut(strings.ToLower(arg), "x")
		var err1, err2 error
		s.rows, err1 = strconv.Atoi(r)
		s.cols, err2 = strconv.Atoi(c)
		if !hasArg || !ok || err1 != nil || err2 != nil || s.rows < 1 || s.cols < 1 {
			return nil, fmt.Errorf("topology %s: expected grid:RxC, rows and columns positive whole numbers (grid:3x4)", quoteName(name))
		}
	case Tree:
		var err error
		s.k, err = strconv.Atoi(arg)
		if !hasArg || err != nil || s.k < 1 {
			return nil, fmt.Errorf("topology %s: expected tree:K, K the children of each node, a positive whole number (tree:2)", quoteName(name))
		}
	case Random:
		var err error
		s.degree, err = strconv.ParseFloat(arg, 64)
		if !hasArg || err != nil || !(s.degree > 0) || math.IsInf(s.degree, 0) {
			return nil, fmt.Errorf("topology %s: expected random:D, D the mean degree, a positive number (random:3)", quoteName(name))
		}
	case File:
		if !hasArg || arg == "" {
			return nil, fmt.Errorf("topology %s: expected file:PATH, PATH an edge-list file", quoteName(name))
		}
		s.path = arg
	default:
		return nil, nil
	}
	return s, nil
}

// nameOf writes a topology's name for an error: as it is when it is plain — a file's path
// may be long — else quoted (quoteName).
func nameOf(name string) string {
	if len(name) <= 256 && strconv.Quote(name) == `"`+name+`"` && !strings.ContainsRune(name, ' ') {
		return name
	}
	return quoteName(name)
}

// quoteName quotes a topology's name for an error, escaped, and cut short when long: a name
// is what a user typed, and may be anything.
func quoteName(name string) string {
	const most = 40
	if r := []rune(name); len(r) > most {
		return strconv.Quote(string(r[:most])) + "…"
	}
	return strconv.Quote(name)
}

// build lays the graph over cluster c, drawing a random graph from seed; a file's graph, or
// one given as its edges, has edges.
func (s *graphSpec) build(c *Cluster, seed uint64, edges [][2]ID) (*Topology, error) {
	n := len(c.Ring)
	pos := func(p int) int { return c.Index(c.Ring[p]) } // ring position → index in Sorted
	out := make([][]int32, n)
	link := func(i, j int) {
		out[i] = append(out[i], int32(j))
		out[j] = append(out[j], int32(i))
	}
	name := s.kind
	switch s.kind {
	case Line:
		for p := 1; p < n; p++ {
			link(pos(p-1), pos(p))
		}
	case Star:
		for p := 1; p < n; p++ {
			link(pos(0), pos(p))
		}
	case Grid:
		name = fmt.Sprintf("%s:%dx%d", Grid, s.rows, s.cols)
		if s.rows > n || s.cols > n || s.rows*s.cols != n { // rows, cols ≤ n: the product cannot wrap
			places := new(big.Int).Mul(big.NewInt(int64(s.rows)), big.NewInt(int64(s.cols)))
			return nil, fmt.Errorf("topology %s has %s places, and the run has %d nodes: give grid:RxC with R·C = %d", name, places, n, n)
		}
		for p := 0; p < n; p++ {
			if p%s.cols > 0 {
				link(pos(p-1), pos(p))
			}
			if p >= s.cols {
				link(pos(p-s.cols), pos(p))
			}
		}
	case Tree:
		name = fmt.Sprintf("%s:%d", Tree, s.k)
		for p := 1; p < n; p++ {
			link(pos((p-1)/s.k), pos(p))
		}
	case Random:
		name = Random + ":" + strconv.FormatFloat(s.degree, 'g', -1, 64)
		m := RandomEdgeCount(n, s.degree)
		if m > MaxEdges {
			return nil, fmt.Errorf("topology %s over %d nodes would have %d edges, more than the %d a graph may have; give a smaller mean degree",
				name, n, m, MaxEdges)
		}
		randomEdges(n, m, seed, link)
	case File, EdgeList:
		if s.kind == File {
			name = File + ":" + s.path
		}
		if len(edges) == 0 {
			return nil, fmt.Errorf("topology %s has no edges: its edges are given as data (a scenario's topology edges 1-2 2-3 …, or the file read)", nameOf(name))
		}
		if len(edges) > MaxEdges {
			return nil, fmt.Errorf("topology %s has %d edges, more than the %d a graph may have", nameOf(name), len(edges), MaxEdges)
		}
		seen := make(map[[2]int32]bool, len(edges))
		for _, e := range edges {
			i, j := c.Index(e[0]), c.Index(e[1])
			switch {
			case i < 0 || j < 0:
				missing := e[0]
				if i >= 0 {
					missing = e[1]
				}
				return nil, fmt.Errorf("topology %s: the edge %d–%d names node %d, which is not in the run; its edges must join the run's ids",
					nameOf(name), e[0], e[1], missing)
			case i == j:
				return nil, fmt.Errorf("topology %s: the edge %d–%d joins a node to itself", nameOf(name), e[0], e[1])
			}
			key := [2]int32{int32(min(i, j)), int32(max(i, j))}
			if seen[key] {
				continue // the same edge twice, or both ways: one undirected edge
			}
			seen[key] = true
			link(i, j)
		}
	}
	for i := range out {
		slices.Sort(out[i])
	}
	t := &Topology{name: name, shape: shapeGraph, c: c, out: out}
	if a, b, ok := t.unreached(); !ok {
		return nil, fmt.Errorf("topology %s is not connected: node %d has no path to node %d; an election needs every node reachable", nameOf(name), b, a)
	}
	return t, nil
}

// RandomEdgeCount is the number of edges random:D has over n nodes: round(n·D/2), at least
// n-1 (a spanning tree) and at most every pair. It is worked out in floating point and
// compared before it becomes a whole number, so that a huge D gives every pair, not a number
// that wrapped round.
func RandomEdgeCount(n int, degree float64) int {
	pairs := int64(n) * int64(n-1) / 2
	m := math.Round(float64(n) * degree / 2)
	if !(m < float64(pairs)) { // NaN too: every pair
		return int(pairs)
	}
	return max(int(m), n-1)
}

// randomEdges draws a connected graph of m edges over nodes 0..n-1 from seed, calling link once
// per edge: a random spanning tree (each node, in a random order, joined to one drawn before
// it), then edges between random pairs not yet joined.
func randomEdges(n, m int, seed uint64, link func(i, j int)) {
	rng := rand.New(rand.NewPCG(seed, 0x72616e646f6d)) // "random": this draw's own stream
	order := rng.Perm(n)
	joined := make(map[uint64]bool, m)
	key := func(i, j int) uint64 { return uint64(min(i, j))<<32 | uint64(max(i, j)) }
	for k := 1; k < n; k++ {
		i, j := order[k], order[rng.IntN(k)]
		joined[key(i, j)] = true
		link(i, j)
	}
	for added := n - 1; added < m; {
		i, j := rng.IntN(n), rng.IntN(n)
		if i == j || joined[key(i, j)] {
			continue
		}
		joined[key(i, j)] = true
		link(i, j)
		added++
	}
}

// unreached returns a node the first node cannot reach, and false, or true when every node is
// reachable.
func (t *Topology) unreached() (from, to ID, ok bool) {
	n := len(t.out)
	seen := make([]bool, n)
	seen[0] = true
	queue := []int32{0}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, j := range t.out[i] {
			if !seen[j] {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	for i, s := range seen {
		if !s {
			return t.c.ID(0), t.c.ID(i), false
		}
	}
	return 0, 0, true
}

// Arcs returns how many messages one send to every neighbour by every node makes: the sum of
// the out-degrees — twice the edges of an undirected graph, the edges of a directed one.
func (t *Topology) Arcs() int64 {
	n := int64(len(t.c.Ring))
	switch {
	case t.shape == shapeComplete:
		return n * (n - 1)
	case t.shape == shapeRing && n < 2:
		return 0
	case t.shape == shapeRing && t.directed:
		return n
	case t.shape == shapeRing:
		return 2 * int64(len(t.Edges()))
	}
	var arcs int64
	for _, out := range t.out {
		arcs += int64(len(out))
	}
	return arcs
}

// Diameter returns the most hops between two nodes, along the shortest path between them, or
// -1 when some node cannot reach another. A general graph is searched from every node (N·E
// steps), once: the topology keeps the answer.
func (t *Topology) Diameter() int {
	t.diamOnce.Do(func() { t.diam = t.diameter() })
	return t.diam
}

// diameter is Diameter, computed.
func (t *Topology) diameter() int {
	n := len(t.c.Ring)
	switch {
	case n < 2:
		return 0
	case t.shape == shapeComplete:
		return 1
	case t.shape == shapeRing && t.directed:
		return n - 1
	case t.shape == shapeRing:
		return n / 2
	}
	dist := make([]int32, n)
	queue := make([]int32, 0, n)
	diam := 0
	for s := range n {
		for i := range dist {
			dist[i] = -1
		}
		dist[s] = 0
		queue = append(queue[:0], int32(s))
		for k := 0; k < len(queue); k++ {
			i := queue[k]
			for _, j := range t.out[i] {
				if dist[j] < 0 {
					dist[j] = dist[i] + 1
					queue = append(queue, j)
				}
			}
		}
		if len(queue) < n {
			return -1
		}
		diam = max(diam, int(dist[queue[len(queue)-1]]))
	}
	return diam
}
