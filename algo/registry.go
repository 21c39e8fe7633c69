package algo

import (
	"fmt"
	"slices"
	"strings"
	"sync"
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
	// PhaseWord is what a message's Phase is called in its label: "phase" when empty;
	// FloodMax's is its "round" (MAX-UID(9, round 3)).
	PhaseWord string
	// Answers are the kinds whose Flag answers a question: set is yes (a vote granted, "I
	// coordinate"), clear is no. A picture marks them ✓ and ✗ (V✓, V✗), so that a refusal is
	// told from a grant without reading a label; a Flag of any other kind is marked ✓ when set.
	Answers []string
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

	// What the algorithm declares about itself, which the tools and their tests read instead of
	// knowing algorithms by name (docs/writing-an-algorithm.md):

	// Topologies names the topologies it runs on (TopologyNames), its usual one first; none
	// means the complete graph only. A run on another is refused, naming these.
	Topologies []string
	// Recovers says it elects a leader again once faults end: it notices a failed leader and
	// mends what crashes, partitions, pauses and loss did, so that eventual-leader holds after
	// the last fault heals. The classical ring algorithms assume nothing fails, and do not.
	Recovers bool
	// Quorum says a leader needs a majority of the whole membership (Raft's votes, Paxos'
	// promises, Zab's quorum): with fewer candidates live none can be elected, and
	// eventual-leader is owed only while a majority is live.
	Quorum bool
	// Winner is the leader a run without faults elects: the highest id, the lowest, or any one.
	Winner Winner
	// Guarantees are the properties it promises and the faults each survives: its rows of the
	// property matrix (electsim check --matrix), which the checker's tests hold it to.
	Guarantees []Guarantee
	// Theory, if set, is what the papers say one election costs (electsim bench); nil says the
	// algorithm has none to give.
	Theory *Theory
	// Groups says it elects one coordinator per group, not one in all: during a partition each
	// side forms a group with a coordinator of its own, by design (Garcia-Molina's Invitation).
	// at-most-one-leader is not judged for it — not by the run's verdicts, the checker, the
	// matrix or the TUI — and its own Monitors say what it promises instead. A run reports its
	// groups: who follows which coordinator, before each fault and at the end.
	Groups bool
	// StoredIDs are the keys under which its nodes keep a node's id on stable storage (Raft's
	// vote), not a number that grows: an exploration's bound on stored numbers
	// (check --exhaustive --max-stored) leaves them alone.
	StoredIDs []string
}

// Winner is the leader an algorithm elects when nothing fails.
type Winner uint8

// The winners an algorithm can declare.
const (
	AnyWinner Winner = iota // some node, which one is not promised (Raft, a lease, Itai–Rodeh)
	Highest                 // the highest id
	Lowest                  // the lowest id
)

// Guarantee is one row of the property matrix: a property the algorithm is judged by, with some
// parameters, and what the theory says of it under each fault class.
type Guarantee struct {
	Property string   // "at-most-one-leader", or one of the algorithm's own Monitors
	Params   []string // "key=value" settings the row runs with, beyond the defaults
	// Faults is the theory by column of the matrix — none, crash, crash+recover, partition,
	// delay spike, pause, loss — one character each: 'y' it holds, 'n' some schedule breaks
	// it, '-' the theory leaves it open (the cell is measured, not asserted).
	Faults string
	// Why says, in a sentence, why it breaks where it does (docs and the matrix's notes).
	Why string
}

// Theory is what the papers say one failure-free election costs among n nodes, for bench to
// show beside what it measures.
type Theory struct {
	// Bound is the formula, as people write it: "8n(1 + ⌈log₂ n⌉)".
	Bound string
	// Messages is its value for n nodes: an upper bound, or for a randomised algorithm the
	// expected count.
	Messages func(n int) float64
	// Expected marks Messages as a mean over random draws, not a bound every run keeps.
	Expected bool
	// Varies says one election's count depends on the schedule the seed draws — echo's waves,
	// which die out sooner or later as the delays fall — though every run keeps the bound: bench
	// gives its mean, least and most over seeds, each run held to its own bound.
	Varies bool
	// Rounds, if set, is the expected number of rounds (a randomised algorithm's), with
	// RoundsBound its formula.
	Rounds      func(n int) float64
	RoundsBound string
	// WorstIDs, if set, arranges ids 1..n in a ring order that costs many messages — the
	// worst case, or a bad one the theory names — for bench to measure beside random rings;
	// WorstName says what it is ("bit-reversed ids").
	WorstIDs  func(n int) []ID
	WorstName string
	// OnGraph, if set, is what one election costs on the run's own graph (the cluster's
	// topology), where n alone says too little: the exact count when GraphExact, else a bound;
	// GraphBound is its formula ("diam·2|E|").
	OnGraph    func(c *Cluster) int64
	GraphExact bool
	GraphBound string
}

// Monitor is a property an algorithm brings with it, judged on the messages its nodes send and,
// when its judge is a NodeWatcher, on its nodes after every input they handle (Watch), or on
// its nodes' states once the run is over (Final), or both.
type Monitor struct {
	Property string // its name in summaries, expectations and the checker: "no-stale-write"
	Help     string // what it promises, in one sentence
	// Watch, if set, returns a fresh judge for one run of cluster c.
	Watch func(c *Cluster) Watcher
	// Final, if set, judges the end of a run — a liveness property, like eventual-leader: the
	// checker ends each run a settle time after its last fault. It is handed every node that is
	// a candidate for leadership, ascending by id, and says whether the property is broken,
	// with the nodes involved and why.
	Final func(nodes []NodeAtEnd) (broken bool, culprits []ID, detail string)
}

// NodeAtEnd is a node as a Monitor's Final judge sees it at the end of a run: its id, whether
// it is live (not crashed) and the state it reports.
type NodeAtEnd struct {
	ID    ID
	Live  bool
	State State
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

// NodeWatcher is a Watcher that also judges what nodes hold: the engine shows it node id after
// every input the node handled — its boot, a message, a timer, an election — so that a property
// of the nodes' logs (Raft's leader completeness, say) is judged at the step that breaks it. A
// monitor lives beside its algorithm, and may look inside the algorithm's own node type; it
// must not change the node.
type NodeWatcher interface {
	Watcher
	// Stepped judges node id after an input: broken when the property breaks, with the nodes
	// involved and why.
	Stepped(id ID, n Node) (broken bool, nodes []ID, detail string)
}

// IsAnswer reports whether kind's Flag answers yes or no for this algorithm (Answers).
func (a *Info) IsAnswer(kind string) bool {
	return slices.Contains(a.Answers, kind)
}

// IsRoutine reports whether kind is background traffic for this algorithm.
func (a *Info) IsRoutine(kind string) bool {
	return slices.Contains(a.Routine, kind)
}

// Algorithms returns every registered algorithm: electsim's own, in the order they are taught,
// then those added with Register, in the order they were.
func Algorithms() []*Info {
	list := []*Info{bullyInfo(), ringInfo(), lowestIDInfo(), raftInfo(), leaseInfo(), zooKeeperInfo(),
		hsInfo(), petersonInfo(), franklinInfo(), itaiRodehInfo(), floodMaxInfo(), echoInfo(), invitationInfo(),
		paxosInfo(), omegaInfo(), zabInfo(), k8sLeaseInfo()}
	registered.Lock()
	defer registered.Unlock()
	return append(list, registered.list...)
}

// registered holds the algorithms added with Register. It is the registry's one piece of
// package-level mutable state (docs/architecture.md, "The registry"): written by Register
// before any run starts — from an init function, or a test's TestMain — and only read after.
var registered struct {
	sync.Mutex
	list []*Info
}

// Register adds algorithm a to the registry, after electsim's own: every tool — run, the TUI,
// check and its matrix, bench, the algorithms list — then offers it. It is how a package of
// algorithms outside algo/ joins, from its init function, and how a test adds a throwaway one
// (docs/writing-an-algorithm.md). It returns a function that removes a again, for a test to
// leave the registry as it found it. Register panics when a has no name or no New, or its name
// is taken: a mistake in the program, found when it starts.
func Register(a *Info) (unregister func()) {
	if a == nil || a.Name == "" || a.New == nil {
		panic("algo: Register of an algorithm without a name or a New")
	}
	if slices.Contains(Names(), a.Name) {
		panic(fmt.Sprintf("algo: Register of %q, a name already registered", a.Name))
	}
	registered.Lock()
	defer registered.Unlock()
	registered.list = append(registered.list, a)
	return func() {
		registered.Lock()
		defer registered.Unlock()
		registered.list = slices.DeleteFunc(registered.list, func(x *Info) bool { return x == a })
	}
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
