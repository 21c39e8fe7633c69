package algo

import (
	"fmt"
	"slices"
	"sync"
	"time"
)

// Cluster is what every node knows about the system it is part of. The engine builds one per
// run and shares it, read-only, among all nodes.
type Cluster struct {
	Ring     []ID          // the ring order: the scenario's ids in the order given
	Sorted   []ID          // the same ids, ascending
	MaxDelay time.Duration // the largest network delay configured at the start of the run
	Params   Params        // the parameters set explicitly; the rest take their defaults
	Topology *Topology     // the edges messages may travel: complete unless the run says otherwise
	ringPos  []int32       // ringPos[i] is the position in Ring of Sorted[i]
	contig   bool          // Sorted is Sorted[0], Sorted[0]+1, ...: an id's index is arithmetic
	byID     []int32       // id → index+1, when ids have gaps but are small enough for a table
	idMap    map[ID]int32  // id → index+1, when ids have gaps and are not

	mu     sync.Mutex
	shared map[string]any // see sharedConfig
}

// sharedConfig returns what build derives from cluster c, building it once per cluster and key:
// what every node of an algorithm derives alike — its timing — is then one object all the
// nodes read, instead of a copy each. The result must not be changed, nor the cluster's fields
// after the first call: the cached config would not follow them.
func sharedConfig[T any](c *Cluster, key string, build func(*Cluster) *T) *T {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.shared[key]; ok {
		return v.(*T)
	}
	if c.shared == nil {
		c.shared = map[string]any{}
	}
	v := build(c)
	c.shared[key] = v
	return v
}

// NewCluster checks that ids are distinct and positive and returns the cluster they form, with
// the complete topology: every node may send to every other.
func NewCluster(ring []ID, maxDelay time.Duration, params Params) (*Cluster, error) {
	return NewClusterOn(ring, Complete, maxDelay, params)
}

// NewClusterOn is NewCluster with the topology called topology (TopologyNames; "" is complete)
// laid over the ids in ring order; a random graph is drawn from seed 1 (NewClusterSeeded).
func NewClusterOn(ring []ID, topology string, maxDelay time.Duration, params Params) (*Cluster, error) {
	return NewClusterSeeded(ring, topology, 1, maxDelay, params)
}

// NewClusterSeeded is NewClusterOn with a random topology (random:D) drawn from seed: the
// run's seed, so that the same seed gives the same graph.
func NewClusterSeeded(ring []ID, topology string, seed uint64, maxDelay time.Duration, params Params) (*Cluster, error) {
	return NewClusterGraph(ring, topology, nil, seed, maxDelay, params)
}

// NewClusterGraph is NewClusterSeeded for a topology whose edges are given as data: file:PATH
// (the file read by the caller) or edges, with edges its edges — each two ids of the ring,
// undirected, the same edge twice or both ways one edge. The graph must be connected. For
// another topology, edges is ignored.
func NewClusterGraph(ring []ID, topology string, edges [][2]ID, seed uint64, maxDelay time.Duration, params Params) (*Cluster, error) {
	if len(ring) == 0 {
		return nil, fmt.Errorf("algo: a cluster needs at least one node")
	}
	sorted, contig := contiguous(ring)
	if !contig {
		sorted = slices.Clone(ring)
		slices.Sort(sorted)
	}
	for i, id := range sorted {
		if id <= 0 {
			return nil, fmt.Errorf("algo: node id %d is not positive", id)
		}
		if i > 0 && sorted[i-1] == id {
			return nil, fmt.Errorf("algo: node id %d appears twice", id)
		}
	}
	if params == nil {
		params = Params{}
	}
	c := &Cluster{Ring: slices.Clone(ring), Sorted: sorted, MaxDelay: maxDelay, Params: params, contig: contig}
	c.indexIDs()
	c.ringPos = make([]int32, len(ring))
	for pos, id := range ring {
		c.ringPos[c.Index(id)] = int32(pos)
	}
	t, err := newTopology(topology, c, seed, edges)
	if err != nil {
		return nil, err
	}
	c.Topology = t
	return c, nil
}

// contiguous returns ring's ids in ascending order and true when they are distinct, positive and
// without gaps (1..n, shuffled, say: what nearly every scenario and bench uses) — found without
// sorting; otherwise nil and false.
func contiguous(ring []ID) ([]ID, bool) {
	lo, hi := ring[0], ring[0]
	for _, id := range ring {
		lo, hi = min(lo, id), max(hi, id)
	}
	if lo <= 0 || int64(hi-lo) != int64(len(ring)-1) {
		return nil, false
	}
	seen := make([]bool, len(ring))
	for _, id := range ring {
		if seen[id-lo] {
			return nil, false
		}
		seen[id-lo] = true
	}
	sorted := make([]ID, len(ring))
	for i := range sorted {
		sorted[i] = lo + ID(i)
	}
	return sorted, true
}

// RingPos returns the position of id in Ring, or -1.
func (c *Cluster) RingPos(id ID) int {
	i := c.Index(id)
	if i < 0 {
		return -1
	}
	return int(c.ringPos[i])
}

// indexIDs makes the table Index looks ids up in, when they have gaps: a slice by id when the
// largest is not much more than the number of nodes, else a map.
func (c *Cluster) indexIDs() {
	maxID := c.Sorted[len(c.Sorted)-1]
	switch {
	case c.contig: // no table needed
		return
	case int(maxID) <= 16*len(c.Sorted)+1024:
		c.byID = make([]int32, maxID+1)
	default:
		c.idMap = make(map[ID]int32, len(c.Sorted))
	}
	for i, id := range c.Sorted {
		if c.byID != nil {
			c.byID[id] = int32(i + 1)
		} else {
			c.idMap[id] = int32(i + 1)
		}
	}
}

// Index returns the position of id in Sorted, or -1.
func (c *Cluster) Index(id ID) int {
	switch {
	case c.contig:
		if i := id - c.Sorted[0]; i >= 0 && int(i) < len(c.Sorted) {
			return int(i)
		}
	case c.byID != nil:
		if id > 0 && int(id) < len(c.byID) {
			return int(c.byID[id]) - 1
		}
	default:
		if i, ok := c.idMap[id]; ok {
			return int(i) - 1
		}
	}
	return -1
}

// ID returns the id at position i of Sorted: Sorted[i], worked out without reading the slice
// when the ids have no gaps.
func (c *Cluster) ID(i int) ID {
	if c.contig {
		return c.Sorted[0] + ID(i)
	}
	return c.Sorted[i]
}
