package algo

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// The topologies a run can have. A topology says which node may send to which: the engine
// delivers only along its edges.
const (
	// Complete: every node may send to every other, the network the first algorithms assume.
	Complete = "complete"
	// UniRing: a unidirectional ring in the ring order — each node sends only to its successor.
	UniRing = "ring"
	// BiRing: a bidirectional ring in the ring order — each node sends to both its neighbours.
	BiRing = "bi-ring"
)

// TopologyNames returns the names NewClusterOn accepts, in the order the docs list them; a
// parameter is written in capitals (grid:RxC).
func TopologyNames() []string {
	return []string{Complete, UniRing, BiRing, Line, Star, Grid + ":RxC", Tree + ":K", Random + ":D", File + ":PATH"}
}

// Topology is the graph a run's messages travel, over the cluster's ids: directed or not, with
// a name. A ring is laid out in the cluster's ring order (the scenario's ids in the order
// given). The complete graph is kept implicit — its edges are every pair, n² of them — and the
// rings are derived from the ring order, so that neither costs memory that grows with n; a
// general graph (a line, a grid, a file's edges) keeps its out-neighbours per node.
//
// A Topology is read-only once built and shared by every node of the cluster.
type Topology struct {
	name     string
	directed bool
	shape    shape
	c        *Cluster  // the ids, the ring order and its positions
	out      [][]int32 // shape graph: out-neighbours of each node, by index in c.Sorted, ascending
	diamOnce sync.Once // Diameter, computed on first asking
	diam     int
}

// shape is how a topology's edges are found.
type shape uint8

const (
	shapeComplete shape = iota // every pair
	shapeRing                  // ring order, successor only (directed) or both neighbours
	shapeGraph                 // explicit adjacency (out)
)

// newTopology returns the topology called name over cluster c, a random graph drawn from seed,
// a file's graph or one given as its edges made of edges; with c nil, it only checks the name.
func newTopology(name string, c *Cluster, seed uint64, edges [][2]ID) (*Topology, error) {
	switch name {
	case Complete, "":
		return &Topology{name: Complete, shape: shapeComplete, c: c}, nil
	case UniRing:
		return &Topology{name: UniRing, directed: true, shape: shapeRing, c: c}, nil
	case BiRing:
		return &Topology{name: BiRing, shape: shapeRing, c: c}, nil
	}
	spec, err := parseGraph(name)
	switch {
	case err != nil:
		return nil, err
	case spec != nil && c == nil:
		return nil, nil
	case spec != nil:
		return spec.build(c, seed, edges)
	}
	return nil, fmt.Errorf("unknown topology %s (choose one of %s)", quoteName(name), strings.Join(TopologyNames(), ", "))
}

// CheckTopology says what is wrong with a topology's name: nil when NewClusterOn accepts it.
// It reads nothing: file:PATH is checked as a name.
func CheckTopology(name string) error {
	_, err := newTopology(name, nil, 0, nil)
	return err
}

// Name is what the topology is called: "complete", "ring", "bi-ring", "grid:3x4", ….
func (t *Topology) Name() string { return t.name }

// Directed reports whether an edge a→b lets messages go from a to b only.
func (t *Topology) Directed() bool { return t.directed }

// IsComplete reports whether every node may send to every other.
func (t *Topology) IsComplete() bool { return t.shape == shapeComplete }

// IsRing reports whether the topology is a ring in the cluster's ring order, one way or both:
// a node's Succ and Pred (Cluster) are then its neighbours.
func (t *Topology) IsRing() bool { return t.shape == shapeRing }

// HasEdge reports whether from may send to to. A node is never its own neighbour.
func (t *Topology) HasEdge(from, to ID) bool {
	c := t.c
	switch t.shape {
	case shapeComplete:
		return from != to && c.Index(from) >= 0 && c.Index(to) >= 0
	case shapeRing:
		p, q := c.RingPos(from), c.RingPos(to)
		if p < 0 || q < 0 || p == q {
			return false
		}
		n := len(c.Ring)
		return q == (p+1)%n || (!t.directed && p == (q+1)%n)
	default:
		i, j := c.Index(from), c.Index(to)
		if i < 0 || j < 0 {
			return false
		}
		_, ok := slices.BinarySearch(t.out[i], int32(j))
		return ok
	}
}

// Neighbours returns the nodes id may send to, ascending.
func (t *Topology) Neighbours(id ID) []ID {
	c := t.c
	var ns []ID
	switch t.shape {
	case shapeComplete:
		for _, j := range c.Sorted {
			if j != id {
				ns = append(ns, j)
			}
		}
		return ns
	case shapeRing:
		if c.RingPos(id) < 0 || len(c.Ring) < 2 {
			return nil
		}
		ns = append(ns, c.Succ(id))
		if p := c.Pred(id); !t.directed && p != ns[0] {
			ns = append(ns, p)
		}
	default:
		if i := c.Index(id); i >= 0 {
			for _, j := range t.out[i] {
				ns = append(ns, c.ID(int(j)))
			}
		}
	}
	slices.Sort(ns)
	return ns
}

// Edges returns the topology's edges, to draw or to list: a directed edge [a, b] lets a send to
// b; an undirected one is listed once, and lets each send to the other. A ring's edges go round
// in the ring order, starting at its first node. The complete graph's are every pair, and not
// listed: Edges returns nil for it.
func (t *Topology) Edges() [][2]ID {
	c := t.c
	switch t.shape {
	case shapeComplete:
		return nil
	case shapeRing:
		n := len(c.Ring)
		if n < 2 {
			return nil
		}
		if n == 2 && !t.directed {
			return [][2]ID{{c.Ring[0], c.Ring[1]}}
		}
		edges := make([][2]ID, n)
		for i, id := range c.Ring {
			edges[i] = [2]ID{id, c.Ring[(i+1)%n]}
		}
		return edges
	}
	var edges [][2]ID
	for i, out := range t.out {
		for _, j := range out {
			if t.directed || int(j) > i {
				edges = append(edges, [2]ID{c.ID(i), c.ID(int(j))})
			}
		}
	}
	return edges
}

// Succ returns the node after id in the ring order (round to the first after the last): on a
// ring topology, the neighbour it sends to clockwise.
func (c *Cluster) Succ(id ID) ID {
	return c.Ring[(c.RingPos(id)+1)%len(c.Ring)]
}

// Pred returns the node before id in the ring order: on a bi-ring, its other neighbour; on a
// ring, the one it hears from.
func (c *Cluster) Pred(id ID) ID {
	n := len(c.Ring)
	return c.Ring[(c.RingPos(id)+n-1)%n]
}

// RunsOn reports whether the algorithm runs on the topology called name: whether its
// Topologies name one of the same kind (TopologyKind: "random:3" for any random:D). An
// algorithm that runs on random graphs runs on any connected graph: a line, a star, a grid, a
// tree, a file's or one given as its edges.
func (a *Info) RunsOn(name string) bool {
	kind := TopologyKind(name)
	general := slices.Contains([]string{Line, Star, Grid, Tree, File, EdgeList}, kind)
	return slices.ContainsFunc(a.TopologyList(), func(t string) bool {
		return TopologyKind(t) == kind || general && TopologyKind(t) == Random
	})
}

// TopologyList returns the topologies the algorithm runs on: Topologies, or only the complete
// graph when it names none.
func (a *Info) TopologyList() []string {
	if len(a.Topologies) == 0 {
		return []string{Complete}
	}
	return a.Topologies
}

// CheckTopology says why the algorithm cannot run on the topology called name, naming what it
// takes, or returns nil when it can.
func (a *Info) CheckTopology(name string) error {
	if name == "" {
		name = Complete
	}
	if err := CheckTopology(name); err != nil {
		return err
	}
	if !a.RunsOn(name) {
		return fmt.Errorf("%s does not run on the %s topology: it runs on %s", a.Name, name, strings.Join(a.TopologyList(), " or "))
	}
	return nil
}
