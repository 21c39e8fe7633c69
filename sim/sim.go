package sim

import (
	"fmt"
	"slices"
	"sync"
	"time"
	"unsafe"

	"electsim/algo"
	"electsim/network"
)

// Sim is one run in progress. It is not safe for concurrent use: one goroutine drives it.
type Sim struct {
	cfg       Config
	cluster   *algo.Cluster
	edges     *algo.Topology // the topology when it is not complete: sends off its edges stop the run
	net       *network.Network
	netRand   *pcgRand   // the network's random source, kept so that Clone can copy it
	nodes     []nodeRec  // ascending id
	side      []nodeSide // by node index, as nodes; nil until needed (see sideOf)
	crashes   uint32     // crashes so far (fewer than 2^32 in any run): a delivery is stamped with the count when sent
	epochs    []uint32   // per node, the count of crashes just after its last (0: none): a delivery stamped before that was in flight to an incarnation that is gone, and is lost
	clocks    []clock    // per node, its own clock (clock.go); nil until a clock action sets one
	actions   []Action
	mid       []int32 // the actions that wait for inputs of their instant (Action.After), by At then After, in the order given
	q         queue
	now       time.Duration
	steps     int
	done      bool
	tracing   bool
	instant   int // steps in a row at the virtual time now; see StallSteps
	inputs    int // inputs handled at instant inputsAt: what an action's After counts
	inputsAt  time.Duration
	stepAfter int    // the inputs of its instant before the current step (StepResult.After)
	halted    string // why the run ended before its end time, if it did
	elected   bool   // with UntilLeader: a leader is agreed, so the run is over
	sent      int64  // messages sent so far, of every kind
	phases    uint32 // the highest Phase a message sent so far carried

	haltAction *Action // the action the run stopped at because it could not happen, if it did

	chooser *chooser // the delays an explorer chooses (choose.go); nil: the network draws them

	memory memory

	prefetcher prefetcher

	cur        event             // the current step's event: a copy, its queue slot is free again
	curLog     *algo.LogPart     // the current step's message's log part, if it is a delivery (logpart.go)
	logs       logParts          // the log parts of the messages in flight
	records    []Record          // the current step's
	outbox     []outgoing        // what the node in the call in progress has sent
	timerbox   []timerPush       // the timers it has set that need an event queued
	timerNames []string          // the names of the timers nodes have set, in the order first set
	timerSet   [][]time.Duration // with Config.TimerStarts, by node index and timer slot: when last set
	notes      []string          // notes of the node call in progress

	metrics metrics
	monitor monitor

	// goroutine engine
	handback chan struct{} // the driving goroutine (the caller of Step or RunUntil) waits here
	holder   chan struct{} // the wake channel of the goroutine running the simulation now
	until    time.Duration // RunUntil's limit, for the goroutine holding the baton
	panicked any           // what a node's goroutine panicked with, if it did
	wg       sync.WaitGroup
	stopped  bool
	busy     bool // a Step or RunUntil is under way, or one panicked (see enter)
}

// Random streams derived from the run's seed, in a fixed order: the network's, then one per node
// keyed by its id.
const (
	streamNetwork = 0x6e6574776f726b21
	streamNode    = 0x6e6f64652d2d2d21
)

// New prepares a run; nothing has happened yet (the first Step applies the time-0 actions and
// boots the nodes). Close it unless it is run to the end.
func New(cfg Config) (*Sim, error) {
	cluster, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	if cfg.StallSteps <= 0 {
		cfg.StallSteps = DefaultStallSteps
	}
	if cfg.MaxScheduled <= 0 {
		cfg.MaxScheduled = DefaultMaxScheduled
	}
	if cfg.MaxMemory <= 0 {
		cfg.MaxMemory = DefaultMaxMemory
	}
	netRand := newPCGRand(cfg.Seed, streamNetwork)
	net, err := network.New(cfg.Network, &netRand.r)
	if err != nil {
		return nil, err
	}
	net.Nodes(cluster.Sorted)
	s := &Sim{cfg: cfg, cluster: cluster, net: net, netRand: netRand, tracing: cfg.Trace}
	if !cluster.Topology.IsComplete() {
		s.edges = cluster.Topology
	}
	s.memory = memory{limit: cfg.MaxMemory, next: memCheckEvery}
	if err := s.memory.checkNodeMemory(&cfg, cluster); err != nil {
		return nil, err
	}
	s.nodes = make([]nodeRec, len(cluster.Sorted))
	if len(s.nodes) >= prefetchNodes { // else the nodes' memory stays in the cache
		s.prefetcher.states = make([]unsafe.Pointer, len(s.nodes))
	}
	s.epochs = make([]uint32, len(cluster.Sorted))
	for i := range s.nodes {
		n := &s.nodes[i]
		n.idx = int32(i)
		n.env = nodeEnv{s: s, n: n}
	}
	// Room for a broadcast from every node without growing: growing is deep in the runtime,
	// and a node's call should not need the stack for it.
	s.outbox = make([]outgoing, 0, min(2*len(s.nodes), 4096)+16)
	s.timerbox = make([]timerPush, 0, 16)
	s.timerNames = make([]string, 0, 8)
	if cfg.TimerStarts {
		s.timerSet = make([][]time.Duration, len(s.nodes))
	}
	s.metrics.init(cfg.Algorithm.Kinds)
	s.monitor.init(s)

	// Time-0 actions take effect before boot, except elect: a node must be up to elect.
	s.actions = slices.Clone(cfg.Actions)
	slices.SortStableFunc(s.actions, func(a, b Action) int { return int(a.At - b.At) })
	var later []int32
	for i, a := range s.actions {
		if a.After > 0 {
			s.addMid(int32(i), false)
			continue
		}
		if a.At == 0 && a.Op != Elect {
			s.q.push(0, classAction, event{kind: evAction, which: int32(i)})
		} else {
			later = append(later, int32(i))
		}
	}
	for i := range s.nodes {
		s.q.push(0, classAction, event{kind: evBoot, node: int32(i)})
	}
	for _, i := range later {
		s.q.push(s.actions[i].At, classAction, event{kind: evAction, which: i})
	}

	if cfg.Engine == Goroutine {
		s.side = make([]nodeSide, len(s.nodes))
		s.handback = make(chan struct{})
		s.holder = s.handback
	}
	s.pinDraws()
	return s, nil
}

// Schedule adds an action to the run, at a.At — as if it had been a line of the scenario: it
// happens before anything else due at that instant that the run scheduled itself. a.At must not
// be before the current time, nor after the end of the run; with a.After, an action at the
// current instant must not wait for fewer inputs than it has had (InputsNow). The TUI schedules what its user
// does this way, just after the current time, so that a session saved with those actions
// replays to the same trace.
func (s *Sim) Schedule(a Action) error {
	if s.done {
		return fmt.Errorf("the run is over")
	}
	if a.At < s.now || a.At > s.cfg.RunFor {
		return fmt.Errorf("%s: the time %s is not between now (%s) and the end of the run (%s)",
			a, algo.FormatDuration(a.At), algo.FormatDuration(s.now), algo.FormatDuration(s.cfg.RunFor))
	}
	if err := a.validate(func(id algo.ID) bool { return s.cluster.Index(id) >= 0 }); err != nil {
		return err
	}
	if a.After > 0 && a.At == s.now && a.After < s.InputsNow() {
		return fmt.Errorf("%s: it waits for %d of the inputs at %s, but %d have been handled already", a, a.After,
			algo.FormatDuration(s.now), s.InputsNow())
	}
	s.actions = append(s.actions, a)
	if a.After > 0 {
		s.addMid(int32(len(s.actions)-1), false)
		return nil
	}
	s.q.push(a.At, classAction, event{kind: evAction, which: int32(len(s.actions) - 1)})
	return nil
}

// Interject adds an action to the run to happen at the next step, ahead of everything else
// due then: at a.At, the current instant or the time of its next input. At the current
// instant it comes after the InputsNow() inputs handled, as a scenario's `at NOW after K
// inputs` line would, K being InputsNow(); at a later instant, before its inputs. Either
// way it comes before the actions due at that point, as if written first among them. An
// explorer places its faults this way at every boundary between two steps. It returns the
// action as it will happen, After set.
func (s *Sim) Interject(a Action) (Action, error) {
	if s.done {
		return a, fmt.Errorf("the run is over")
	}
	if next, ok := s.NextInput(); a.At != s.now && (!ok || a.At != next) {
		return a, fmt.Errorf("%s: interjected at %s, neither now (%s) nor at the next input", a,
			algo.FormatDuration(a.At), algo.FormatDuration(s.now))
	}
	a.After = s.InputsAt(a.At)
	if err := a.validate(func(id algo.ID) bool { return s.cluster.Index(id) >= 0 }); err != nil {
		return a, err
	}
	s.actions = append(s.actions, a)
	s.addMid(int32(len(s.actions)-1), true)
	return a, nil
}

// Actions returns the run's actions, in the order StepResult.Action counts them: the
// Config's in order of time (those of one time as given), then those added since, in the
// order added. The slice is the run's: do not change it.
func (s *Sim) Actions() []Action { return s.actions }

// Run runs to the end and returns the summary. The goroutines are stopped.
func (s *Sim) Run() Summary {
	s.RunUntil(s.cfg.RunFor)
	return s.Summary()
}

// The default guards against runs that cannot finish (Config.StallSteps, Config.MaxScheduled).
// Twenty million events hold about 1.4 GB of queue (48 bytes of payload and 24 of key each);
// Config.MaxMemory bounds the whole run's memory besides.
const (
	DefaultStallSteps   = 5_000_000
	DefaultMaxScheduled = 20_000_000
)

// finish ends the run at its end time — or where it stalled, or at its first agreed leader
// with UntilLeader — and stops the goroutines.
func (s *Sim) finish() {
	if s.done {
		return
	}
	s.done = true
	if s.halted == "" && !s.elected {
		s.now = s.cfg.RunFor
	}
	s.Close()
}

// Done reports whether the run has reached its end.
func (s *Sim) Done() bool { return s.done }

// Now returns the virtual time of the last step (the end time once the run is done).
func (s *Sim) Now() time.Duration { return s.now }

// Steps returns how many steps have run.
func (s *Sim) Steps() int { return s.steps }

// Topology returns the run's topology: its name, whether it is directed, its edges (a ring's
// in ring order, so its direction shows), each node's neighbours. It is shared: do not change it.
func (s *Sim) Topology() *algo.Topology { return s.cluster.Topology }

// Config returns the configuration the run was made from.
func (s *Sim) Config() Config { return s.cfg }

// Close stops the node goroutines. It is safe to call more than once; a closed Sim that is not
// done cannot step.
func (s *Sim) Close() {
	if s.stopped {
		return
	}
	s.stopped = true
	s.done = true
	if s.cfg.Engine != Goroutine {
		return
	}
	for i := range s.nodes {
		if s.side[i].inbox != nil { // started
			close(s.side[i].inbox)
		}
	}
	s.wg.Wait()
}
