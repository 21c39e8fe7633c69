package algo

import (
	"fmt"
	"slices"
	"strings"
)

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
	// NodeMemory, if set, says about how many bytes one node keeps from the start that grow with
	// the size n of its cluster — a table with an entry for every node, say — and what they are.
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
	return []*Info{bullyInfo(), ringInfo(), lowestIDInfo(), raftInfo(), leaseInfo(), zooKeeperInfo()}
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
