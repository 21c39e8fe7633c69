package session

import (
	"fmt"
	"slices"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/scenarios"
	"electsim/sim"
)

// Session is one play of a scenario: the run in progress, every step it has shown, and what the
// user did. Everything a view shows derives from it.
type Session struct {
	base    sim.Config          // the scenario's run, with tracing
	sc      *scenarios.Scenario // what is played, nil for a run the flags describe
	members *scenarios.Members  // the run's node ids, as the scenario language writes them
	user    []sim.Action        // the user's actions, in the order they were taken
	// shownAt[i] is how many steps were shown once the user took user[i] — up to its step, or
	// to a break before it: stepping back before that, and acting, forgets it.
	shownAt []int
	run     *sim.Sim
	traced  bool   // run's steps are wanted with their records; a run replayed to step back is not
	steps   []Step // every step so far, in order: steps[i] is step i+1
	// ahead are the steps after those shown that the run is known to take: those stepped back
	// over, the user's actions unchanged since; aheadEnds says the run ends after them.
	ahead     []Step
	aheadEnds bool
	cps       checkpoints
	bound     bound // what the session may hold, and what its steps hold (bound.go)

	gen     int              // changes when the run starts again
	says    []int            // the indices in steps of the narration (say) steps
	started map[algo.ID]bool // the nodes that have booted (or come back from a crash)
	starts  []start          // when each node in started first started, in order
	end     *Ending          // the verdicts, once the run has ended

	// instant is the instant drawn, set by PlayTo with the count of steps shown then
	// (instantAt): any other change of the steps shown makes the latest step's time the instant.
	instant   time.Duration
	instantAt int
}

// Step is one step of the run as a session keeps it.
type Step struct {
	// Records is what the step did, as the trace has it: the first record is the step's event
	// (a delivery, a timer, an action, ...), the rest what it caused.
	Records []sim.Record
	// Routine is true for a step that only carried heartbeats and changed nothing: a view may
	// leave it out unless asked for it.
	Routine bool
}

// Ending is what a run that has ended is judged by.
type Ending struct {
	Summary sim.Summary        // the run's summary, with its property verdicts
	Results []scenarios.Result // the scenario's expectations, judged on the run with the user's actions
}

// start is the step at which a node first started.
type start struct {
	step int // an index into steps
	id   algo.ID
}

// New returns a session of the run cfg describes, before its first step: the nodes are about to
// boot. sc is the scenario it comes from — its name, title and expectations — or nil for a run
// the command line's flags describe. The run is played on cfg's engine; replays to step back
// are on the inline engine, which takes the same steps.
func New(cfg sim.Config, sc *scenarios.Scenario) (*Session, error) {
	cfg.Trace, cfg.TimerStarts = true, true
	s := &Session{instantAt: -1, base: cfg, sc: sc, members: scenarios.NewMembers(cfg.IDs), bound: newBound(cfg)}
	if err := s.start(); err != nil {
		return nil, err
	}
	s.cps = newCheckpoints(s.run)
	return s, nil
}

// Close stops the run's goroutines and lets go of the copies kept. A session is closed when its
// view is done with it.
func (s *Session) Close() {
	if s.run != nil {
		s.run.Close()
	}
	s.cps.clear()
}

// Config returns the run as configured, without the user's actions.
func (s *Session) Config() sim.Config { return s.base }

// Members returns the run's node ids as the scenario language writes them: "1..5".
func (s *Session) Members() *scenarios.Members { return s.members }

// Title is what the session plays: the scenario's title, or for a run the flags describe its
// algorithm and nodes, "bully, 5 nodes (1..5)".
func (s *Session) Title() string {
	if s.sc != nil && s.sc.Title != "" {
		return s.sc.Title
	}
	n, word := len(s.base.IDs), "nodes"
	if n == 1 {
		word = "node"
	}
	return fmt.Sprintf("%s, %d %s (%s)", s.base.Algorithm.Name, n, word, s.members)
}

// Generation changes whenever the run starts again (Restart), so that what a view builds from
// the steps, step by step, is built again. Between two generations steps are only added at the
// end or taken off it.
func (s *Session) Generation() int { return s.gen }

// Steps returns the steps shown so far, in order: Steps()[i] is step i+1. The slice is the
// session's own, valid until it next changes: read it, do not change it.
func (s *Session) Steps() []Step { return s.steps }

// Now is the virtual time of the latest step shown.
func (s *Session) Now() time.Duration { return s.run.Now() }

// Done reports whether the run has ended: it reached its end time, or stopped early (see
// Ending().Summary.Halted). A session that is full (Full) has not ended: it shows no new step
// until it has room.
func (s *Session) Done() bool { return s.run.Done() }

// AtBreak reports whether the latest step shown is a `break`: a presenter stops there.
func (s *Session) AtBreak() bool {
	return len(s.steps) > 0 && s.steps[len(s.steps)-1].Records[0].Type == sim.RecBreak
}

// Ending returns the verdicts on the run once it has ended, else nil. They are judged as the run
// ends — the expectations on a replay of the run with the user's actions — so reading them
// costs nothing.
func (s *Session) Ending() *Ending { return s.end }

// Nodes returns every node as it is now, ascending by id.
func (s *Session) Nodes() []sim.NodeView { return s.run.Nodes() }

// Node returns node id as it is now.
func (s *Session) Node(id algo.ID) sim.NodeView {
	views := s.run.Nodes()
	if i, ok := slices.BinarySearchFunc(views, id, func(v sim.NodeView, id algo.ID) int { return int(v.ID - id) }); ok {
		return views[i]
	}
	return sim.NodeView{ID: id}
}

// Started reports whether node id has booted, or come back from a crash, by the latest step
// shown: before the boot steps of a run, no node has.
func (s *Session) Started(id algo.ID) bool { return s.started[id] }

// Leaders returns the live nodes that believe they lead, ascending: two or more is split brain.
func (s *Session) Leaders() []algo.ID { return s.run.Leaders() }

// InFlight returns the messages in flight, soonest first, and those held by paused nodes last.
func (s *Session) InFlight() []sim.Flight { return s.run.InFlight() }

// Partition returns the partition groups in force, or nil.
func (s *Session) Partition() [][]algo.ID { return s.run.Partition() }

// Cuts returns the one-way cut links in force.
func (s *Session) Cuts() []network.Link { return s.run.Cuts() }

// Violations returns the properties broken so far, and when.
func (s *Session) Violations() []sim.Violation { return s.run.Violations() }

// Summary returns the run's outcome so far: its counts and verdicts as of now.
func (s *Session) Summary() sim.Summary { return s.run.Summary() }

// Narration returns every `say` of the latest instant that had any, in order, and that instant;
// none before the first.
func (s *Session) Narration() ([]string, time.Duration) {
	if len(s.says) == 0 {
		return nil, 0
	}
	at := s.steps[s.says[len(s.says)-1]].Records[0].At
	first := len(s.says) - 1
	for first > 0 && s.steps[s.says[first-1]].Records[0].At == at {
		first--
	}
	var lines []string
	for _, i := range s.says[first:] {
		lines = append(lines, s.steps[i].Records[0].Action.Text)
	}
	return lines, at
}

// Says returns the indices in Steps of the narration (`say`) steps shown so far, in order: the
// narration's history. The slice is the session's own: read it, do not change it.
func (s *Session) Says() []int { return s.says }

// User returns the user's actions so far, in the order they were taken, each at its time and as
// it was asked for (`leader` as written).
func (s *Session) User() []sim.Action { return slices.Clone(s.user) }

// config is the run with the user's actions: what a saved session replays.
func (s *Session) config() sim.Config {
	cfg := s.base
	cfg.Actions = append(slices.Clone(s.base.Actions), s.user...)
	return cfg
}
