package sim

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/network"
)

// NodeView is what one node looks like from outside.
type NodeView struct {
	ID     algo.ID
	Status Status
	Leader algo.ID // the leader it believes in, 0 if none
	Term   uint64
	Role   string // what a node that is not a candidate for leadership is: "lock service"
}

// Nodes returns every node's current view, ascending by id.
func (s *Sim) Nodes() []NodeView {
	out := make([]NodeView, len(s.nodes))
	for i := range s.nodes {
		n := &s.nodes[i]
		out[i] = NodeView{ID: s.nodeID(n), Status: n.status(), Leader: n.last.Leader, Term: n.last.Term, Role: s.monitor.role[i]}
	}
	return out
}

// Leaders returns the live nodes whose status is Leader (paused ones included), ascending.
func (s *Sim) Leaders() []algo.ID {
	var out []algo.ID
	for i := range s.nodes {
		if n := &s.nodes[i]; !n.down && n.last.Status == algo.Leader && s.monitor.role[i] == "" {
			out = append(out, s.nodeID(n))
		}
	}
	return out
}

// Flight is a message in flight.
type Flight struct {
	Msg algo.Message
	At  time.Duration // when it is due
}

// InFlight returns the messages in flight, soonest first, and those held by paused nodes last.
func (s *Sim) InFlight() []Flight {
	var keys []qkey
	s.q.each(func(k qkey) { keys = append(keys, k) })
	slices.SortFunc(keys, func(a, b qkey) int {
		if a.less(&b) {
			return -1
		}
		return 1
	})
	var out []Flight
	for _, k := range keys {
		if e := s.q.event(k.idx); e.kind == evDeliver {
			out = append(out, Flight{Msg: s.message(e), At: k.at})
		}
	}
	for i := range s.side { // none without the side records: nothing was held
		for _, idx := range s.side[i].held {
			if e := s.q.event(idx); e.kind == evDeliver {
				out = append(out, Flight{Msg: s.message(e), At: -1})
			}
		}
	}
	return out
}

// Partition returns the partition groups in force, or nil.
func (s *Sim) Partition() [][]algo.ID { return s.net.Groups(s.cluster.Sorted) }

// Cuts returns the one-way cut links.
func (s *Sim) Cuts() []network.Link { return s.net.Cuts() }

// Property is the verdict on one property at the end of a run.
type Property struct {
	Name    string
	Applies bool // one-leader-per-term applies only to algorithms with terms
	Holds   bool
	// NotJudged says why a property that does not apply is not judged: "no terms" for
	// one-leader-per-term, "one coordinator per group" for at-most-one-leader under an
	// algorithm of groups (algo.Info.Groups).
	NotJudged string
}

// Summary is the outcome of a run: its metrics and the properties judged (docs/model.md,
// Properties and metrics).
type Summary struct {
	Algorithm string
	Engine    Engine
	IDs       []algo.ID    // ring order
	Topology  string       // its name: "complete", "ring", "bi-ring"
	Edges     [][2]algo.ID // its edges (algo.Topology.Edges); nil for the complete graph
	Seed      uint64
	End       time.Duration
	Steps     int

	Kinds                    []string // message kinds, in the algorithm's order
	Sent, Delivered, Dropped []int64  // by kind, parallel to Kinds

	Nodes  []NodeView
	Leader algo.ID // the live leader every live node names at the end, 0 if none

	Elections     int           // nodes entering candidacy (or a new term as candidate)
	LeaderChanges int           // nodes becoming leader
	FirstLeader   time.Duration // when every live node first named one live leader; -1 never
	SplitBrain    time.Duration // total time with two or more leaders
	Leaderless    time.Duration // total time without an agreed leader
	Recoveries    []time.Duration

	Violations []Violation
	Properties []Property

	// Halted says why the run ended early, at End, instead of running to its end time: see
	// Config.StallSteps and Config.MaxScheduled. It is empty for a run that ran its course.
	Halted string
	// HaltAction is the scenario action the run stopped at because it could not happen — one
	// naming `leader` at an instant when no node led — when that is why it halted.
	HaltAction *Action

	// Phases is the highest phase (or round) a message carried (algo.Message.Phase): how many
	// phases a ring algorithm's election took; 0 for an algorithm without phases.
	Phases uint32

	// Groups, for an algorithm of groups (algo.Info.Groups), are its groups just before each
	// fault of the run and, last, now: who follows which coordinator (groups.go). Nil for the
	// others.
	Groups []GroupsAt
}

// Summary returns the outcome so far (the final one once the run is done). Open intervals are
// closed at the current time without changing the run. Agreement is a property of the end of a
// run: before the end, Properties says whether it holds now, and no violation is reported.
func (s *Sim) Summary() Summary {
	m := &s.monitor
	now := s.now
	sum := Summary{
		Algorithm: s.cfg.Algorithm.Name, Engine: s.cfg.Engine, IDs: slices.Clone(s.cfg.IDs), Topology: s.cluster.Topology.Name(),
		Edges: s.cluster.Topology.Edges(),
		Seed:  s.cfg.Seed, End: now, Steps: s.steps,
		Kinds: slices.Clone(s.metrics.kinds), Sent: slices.Clone(s.metrics.sent),
		Delivered: slices.Clone(s.metrics.delivered), Dropped: slices.Clone(s.metrics.dropped),
		Nodes: s.Nodes(), Leader: m.agreedLeader(),
		Elections: s.metrics.elections, LeaderChanges: s.metrics.leaderChanges,
		FirstLeader: m.firstAgreed, SplitBrain: m.splitTotal, Leaderless: m.leaderless,
		Recoveries: slices.Clone(m.recoveries), Violations: slices.Clone(m.violations),
		Halted: s.halted, HaltAction: s.haltAction, Phases: s.phases,
	}
	if m.agreed == 0 {
		sum.Leaderless += now - m.leaderlessFrom
	}
	if m.split != nil {
		v := *m.split
		v.To = now
		v.Nodes = slices.Clone(v.Nodes)
		sum.SplitBrain += v.To - v.From
		sum.Violations = append(sum.Violations, v)
	}
	if sum.Leader == 0 && s.done {
		// agreement is judged at the end of the run; before it, no leader is no violation.
		sum.Violations = append(sum.Violations, s.disagreement())
	}
	groups := s.cfg.Algorithm.Groups
	if groups {
		// Each side of a partition has its coordinator by design: two leaders break nothing.
		sum.Violations = slices.DeleteFunc(sum.Violations, func(v Violation) bool { return v.Property == AtMostOneLeader })
		sum.Groups = append(slices.Clone(m.groups), s.groupsNow(""))
	}
	final := s.finalViolations() // the end's judgement: before the end, whether it holds now
	if s.done {
		sum.Violations = append(sum.Violations, final...)
	}
	sort.SliceStable(sum.Violations, func(i, j int) bool { return sum.Violations[i].From < sum.Violations[j].From })
	props := []string{AtMostOneLeader, OneLeaderPerTerm, Agreement}
	for _, mon := range s.cfg.Algorithm.Monitors {
		props = append(props, mon.Property)
	}
	for _, p := range props {
		pr := Property{Name: p, Applies: p != OneLeaderPerTerm || s.cfg.Algorithm.Terms, Holds: true}
		switch {
		case !pr.Applies:
			pr.NotJudged = "no terms"
		case p == AtMostOneLeader && groups:
			pr.Applies, pr.NotJudged = false, "one coordinator per group"
		}
		if p == Agreement {
			pr.Holds = sum.Leader != 0 // so far: every live node names one live leader now
		}
		for _, v := range sum.Violations {
			if v.Property == p {
				pr.Holds = false
			}
		}
		for _, v := range final {
			if v.Property == p {
				pr.Holds = false
			}
		}
		sum.Properties = append(sum.Properties, pr)
	}
	return sum
}

// disagreement describes why no leader is agreed now: who names whom.
func (s *Sim) disagreement() Violation {
	byLeader := map[algo.ID][]algo.ID{}
	var named []algo.ID
	for i := range s.nodes {
		n := &s.nodes[i]
		if n.down || s.monitor.role[i] != "" {
			continue
		}
		if _, ok := byLeader[n.last.Leader]; !ok {
			named = append(named, n.last.Leader)
		}
		byLeader[n.last.Leader] = append(byLeader[n.last.Leader], s.nodeID(n))
	}
	slices.Sort(named)
	v := Violation{Property: Agreement, From: s.now, To: s.now}
	var parts []string
	for _, l := range named {
		who, verb := "nodes "+listIDs(byLeader[l], ", "), "name"
		if len(byLeader[l]) == 1 {
			who, verb = "node "+joinIDs(byLeader[l], ""), "names"
		}
		switch {
		case l == 0:
			parts = append(parts, fmt.Sprintf("%s %s no leader", who, verb))
		case s.cluster.Index(l) < 0:
			parts = append(parts, fmt.Sprintf("%s %s %d, not a node", who, verb, l))
		default:
			v.Nodes = append(v.Nodes, l)
			x := s.node(l)
			what := ""
			if x.down {
				what = ", which is crashed"
			} else if x.last.Status != algo.Leader {
				what = ", which is a " + x.last.Status.String()
			}
			parts = append(parts, fmt.Sprintf("%s %s %d%s", who, verb, l, what))
		}
	}
	if len(named) == 0 {
		parts = append(parts, "no node is live")
	}
	if len(parts) > maxListed {
		parts = append(parts[:maxListed], fmt.Sprintf("… %s more leaders named", human.Thousands(int64(len(parts)-maxListed))))
	}
	v.Detail = strings.Join(parts, "; ")
	return v
}

// Property returns the verdict on property name, and whether it is known.
func (sum *Summary) Property(name string) (Property, bool) {
	for _, p := range sum.Properties {
		if p.Name == name {
			return p, true
		}
	}
	return Property{}, false
}

// Count returns the messages of kind sent, delivered and dropped.
func (sum *Summary) Count(kind string) (sent, delivered, dropped int64) {
	for i, k := range sum.Kinds {
		if k == kind {
			return sum.Sent[i], sum.Delivered[i], sum.Dropped[i]
		}
	}
	return 0, 0, 0
}

// Sent returns how many messages have been sent so far, of every kind — cheaply, for progress
// reports during long runs (Summary builds a view of every node).
func (s *Sim) Sent() int64 { return s.sent }

// Violations returns the violations found so far, in the order they were found: those that
// have ended, and the properties broken at an instant. A split brain still going on is not
// among them until it ends; Leaders shows it.
func (s *Sim) Violations() []Violation { return slices.Clone(s.monitor.violations) }

// maxListed is how many ids — and groups of nodes naming one leader — a description of the
// nodes lists; a cluster of thousands would fill the screen.
const maxListed = 10

// listIDs writes ids joined by sep, the first maxListed of them and how many in all:
// "1, 2, …, 10 … (20,000 in all)".
func listIDs(ids []algo.ID, sep string) string {
	if len(ids) <= maxListed {
		return joinIDs(ids, sep)
	}
	return joinIDs(ids[:maxListed], sep) + " … (" + human.Thousands(int64(len(ids))) + " in all)"
}
