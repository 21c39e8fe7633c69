package algo

import (
	"fmt"
	"slices"
	"strings"
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
	ringPos  []int32       // ringPos[i] is the position in Ring of Sorted[i]
	contig   bool          // Sorted is Sorted[0], Sorted[0]+1, ...: an id's index is arithmetic

	mu     sync.Mutex
	shared map[string]any // see sharedConfig
}

// sharedConfig returns what build derives from cluster c, building it once per cluster and key:
// what every node of an algorithm derives alike — its timing — is then one object all the
// nodes read, instead of a copy each. Among 100,000 nodes the copies cost megabytes, and a
// cache miss on every step. The result must not be changed, nor the cluster's fields after the
// first call: the cached config would not follow them.
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

// NewCluster checks that ids are distinct and positive and returns the cluster they form.
func NewCluster(ring []ID, maxDelay time.Duration, params Params) (*Cluster, error) {
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
	c.ringPos = make([]int32, len(ring))
	for pos, id := range ring {
		c.ringPos[c.Index(id)] = int32(pos)
	}
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

// Index returns the position of id in Sorted, or -1.
func (c *Cluster) Index(id ID) int {
	if c.contig {
		if i := id - c.Sorted[0]; i >= 0 && int(i) < len(c.Sorted) {
			return int(i)
		}
		return -1
	}
	i, ok := slices.BinarySearch(c.Sorted, id)
	if !ok {
		return -1
	}
	return i
}

// Info describes an algorithm in the registry.
type Info struct {
	Name    string
	Summary string   // one line
	Kinds   []string // every message kind it sends, in the order summaries list them
	Routine []string // kinds that are background traffic (heartbeats): folded in timelines
	Params  []Param
	Terms   bool // whether it has terms, so one-leader-per-term applies
	// TermWord is what a state's term is called in descriptions: "term" when empty; a lease's
	// term is its fencing "token".
	TermWord string
	// New constructs node id of the cluster. The cluster's parameters have been validated.
	New func(id ID, c *Cluster) Node
	// Warnings lists the timing assumptions of the algorithm that the cluster's parameters and
	// delays break. Breaking them is allowed: it is half the lesson.
	Warnings func(c *Cluster) []string
	// Validate, if set, says why the algorithm cannot run on the cluster (too few nodes, say).
	Validate func(c *Cluster) error
	// Roles, if set, names the nodes that are not candidates for leadership — a lease's lock
	// service and resource — by what they are. The leader properties and metrics leave them out.
	Roles func(c *Cluster) map[ID]string
	// Monitors are the algorithm's own properties, beyond those every run is judged by.
	Monitors []Monitor
	// NodeMemory, if set, says about how many bytes one node keeps that grow with the size n of
	// its cluster — a Raft node's vote and last-heard time for every node — and what they are.
	// The engine counts them in a run's memory, which it bounds.
	NodeMemory func(n int) (bytes int64, what string)
}

// Monitor is a property an algorithm brings with it, judged on the messages its nodes send.
type Monitor struct {
	Property string // its name in summaries, expectations and the checker: "no-stale-write"
	Help     string // what it promises, in one sentence
	// Watch returns a fresh judge for one run.
	Watch func() Watcher
}

// Watcher judges one run for a Monitor. The engine shows it every message sent, in order.
type Watcher interface {
	// Sent judges m: broken when it breaks the property, with the nodes involved and why.
	Sent(m Message) (broken bool, nodes []ID, detail string)
	// Clone and AppendState are a Node's (see Node), for what the watcher remembers of the
	// run: an engine copying the run copies its judges too.
	Clone() Watcher
	AppendState(b []byte) []byte
}

// IsRoutine reports whether kind is background traffic for this algorithm.
func (a *Info) IsRoutine(kind string) bool {
	return slices.Contains(a.Routine, kind)
}

// Algorithms returns every registered algorithm, in the order they are taught.
func Algorithms() []*Info {
	return []*Info{bullyInfo(), ringInfo(), lowestIDInfo(), raftInfo(), leaseInfo()}
}

// Names returns the registered algorithms' names.
func Names() []string {
	var names []string
	for _, a := range Algorithms() {
		names = append(names, a.Name)
	}
	return names
}

// Lookup returns the algorithm called name. The error lists the names that exist.
func Lookup(name string) (*Info, error) {
	for _, a := range Algorithms() {
		if a.Name == name {
			return a, nil
		}
	}
	return nil, fmt.Errorf("unknown algorithm %q (choose one of %s)", name, strings.Join(Names(), ", "))
}
