package scenarios

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// ExpectKind is what an expectation is about.
type ExpectKind uint8

// The kinds of expectation (docs/scenarios.md, "Expectations").
const (
	ExpectLeader   ExpectKind = iota + 1 // expect leader N [by T]
	ExpectHolds                          // expect PROPERTY; expect no split-brain
	ExpectViolated                       // expect violation PROPERTY; expect split-brain
	ExpectMessages                       // expect messages KIND [=|<=|>=] N
)

// Expectation is an `expect` line: what the scenario's author says the run will show.
type Expectation struct {
	Line int
	Kind ExpectKind

	Leader algo.ID       // ExpectLeader
	By     time.Duration // ExpectLeader: the time it is checked at; -1 for the end of the run

	Property string // ExpectHolds, ExpectViolated

	MsgKind string // ExpectMessages: counted as sent
	Op      string // "=", "<=" or ">="
	Count   int64
}

// String writes the expectation in its canonical form: "expect leader 4 by 500ms",
// "expect no split-brain", "expect messages ELECTION <= 10".
func (e Expectation) String() string {
	switch e.Kind {
	case ExpectLeader:
		s := "expect leader " + strconv.Itoa(int(e.Leader))
		if e.By >= 0 {
			s += " by " + algo.FormatDuration(e.By)
		}
		return s
	case ExpectHolds:
		if e.Property == sim.AtMostOneLeader {
			return "expect no split-brain"
		}
		return "expect " + e.Property
	case ExpectViolated:
		if e.Property == sim.AtMostOneLeader {
			return "expect split-brain"
		}
		return "expect violation " + e.Property
	case ExpectMessages:
		s := "expect messages " + e.MsgKind + " "
		if e.Op != "=" {
			s += e.Op + " "
		}
		return s + strconv.FormatInt(e.Count, 10)
	}
	return "expect ?"
}

// Properties lists the properties an expectation can name: those every run is judged by (but
// one-leader-per-term for an algorithm without terms), and the algorithm's own (info may be
// nil: then all algorithms').
func Properties(info *algo.Info) []string {
	props := []string{sim.AtMostOneLeader, sim.OneLeaderPerTerm, sim.Agreement}
	if info != nil && !info.Terms {
		props = slices.DeleteFunc(props, func(p string) bool { return p == sim.OneLeaderPerTerm })
	}
	if info != nil && info.Groups { // one coordinator per group, by design
		props = slices.DeleteFunc(props, func(p string) bool { return p == sim.AtMostOneLeader })
	}
	infos := []*algo.Info{info}
	if info == nil {
		infos = algo.Algorithms()
	}
	for _, a := range infos {
		for _, m := range a.Monitors {
			if !slices.Contains(props, m.Property) {
				props = append(props, m.Property)
			}
		}
	}
	return props
}

// Result is the verdict on one expectation.
type Result struct {
	Expectation
	OK     bool
	Detail string // why it failed, or what was seen
}

// Checker evaluates a scenario's expectations on a run. The run must pause at every time Next
// gives for CheckUntil; Play does all of this.
type Checker struct {
	exps    []Expectation
	results []Result
	due     []int // indices of `leader N by T` expectations not yet checked, soonest first
}

// NewChecker returns a checker of exps.
func NewChecker(exps []Expectation) *Checker {
	c := &Checker{exps: exps, results: make([]Result, len(exps))}
	for i, e := range exps {
		c.results[i].Expectation = e
		if e.Kind == ExpectLeader && e.By >= 0 {
			c.due = append(c.due, i)
		}
	}
	slices.SortStableFunc(c.due, func(a, b int) int { return int(exps[a].By - exps[b].By) })
	return c
}

// Next returns the time of the next check that has to be made during the run, and whether there
// is one: the run must process every event up to that time, and no further, then CheckUntil.
func (c *Checker) Next() (time.Duration, bool) {
	if len(c.due) == 0 {
		return 0, false
	}
	return c.exps[c.due[0]].By, true
}

// CheckUntil checks the expectations due by t; the run has processed every event up to t and
// none after.
func (c *Checker) CheckUntil(s *sim.Sim, t time.Duration) {
	for len(c.due) > 0 && c.exps[c.due[0]].By <= t {
		i := c.due[0]
		c.due = c.due[1:]
		c.results[i].OK, c.results[i].Detail = leaderCheck(s, c.exps[i].Leader, algo.FormatDuration(c.exps[i].By))
	}
}

// Play runs s to its end, checking exps on the way, and returns the summary and the verdicts.
// With step, the run goes step by step with every step handed to it; without, it goes in bulk.
func Play(s *sim.Sim, exps []Expectation, step func(sim.StepResult)) (sim.Summary, []Result) {
	var each func(sim.StepResult) bool
	if step != nil {
		each = func(r sim.StepResult) bool { step(r); return true }
	}
	sum, results, _ := PlaySteps(s, exps, each)
	return sum, results
}

// PlaySteps is Play with a step function that may stop the run: when step returns false, the
// run goes no further and PlaySteps reports it stopped, with no summary or verdicts. Step by
// step or in bulk (step nil), a run takes the same events in the same order (see
// sim.Sim.RunUntil).
func PlaySteps(s *sim.Sim, exps []Expectation, step func(sim.StepResult) bool) (sum sim.Summary, results []Result, stopped bool) {
	c := NewChecker(exps)
	end := s.Config().RunFor
	for {
		t, pending := c.Next()
		limit := end
		if pending && t < end {
			limit = t
		}
		if step == nil {
			s.RunUntil(limit)
		} else if r, ok := s.StepUntil(limit); ok {
			if !step(r) {
				return sim.Summary{}, nil, true
			}
			continue
		}
		if !pending || s.Done() && s.Now() < t {
			break
		}
		c.CheckUntil(s, t)
	}
	s.RunUntil(end)
	sum = s.Summary()
	return sum, c.Finish(s, sum), false
}

// maxListed is how many wrong nodes a failed leader expectation lists.
const maxListed = 6

// leaderCheck reports whether every live node names leader, which is live and leads — a
// paused leader leads: it still believes it does, as the run's own judgement of the agreed
// leader has it (sim.Sim.Leaders) — and when not, it says why, at when ("1s", "the end").
func leaderCheck(s *sim.Sim, leader algo.ID, when string) (bool, string) {
	var wrong []string  // "3 names 5", for each live node that does not name leader
	var ids []string    // those nodes' ids
	var names []algo.ID // and whom each names instead (0: nobody)
	leads, crashed, live := slices.Contains(s.Leaders(), leader), false, 0
	for _, n := range s.Nodes() {
		if n.Status == sim.Crashed {
			crashed = crashed || n.ID == leader
			continue
		}
		if n.Role != "" {
			continue // the lock service or the resource: not a candidate, it names nobody
		}
		live++
		if n.Leader != leader {
			wrong = append(wrong, fmt.Sprintf("%d names %s", n.ID, named(n.Leader)))
			ids = append(ids, strconv.Itoa(int(n.ID)))
			names = append(names, n.Leader)
		}
	}
	var why string
	switch {
	case len(wrong) > 1 && !slices.ContainsFunc(names, func(x algo.ID) bool { return x != names[0] }):
		// They all name the same other node, or all none: say so once.
		if len(wrong) == live {
			why = "every live node names " + named(names[0])
		} else {
			why = fmt.Sprintf("nodes %s name %s", listed(ids), named(names[0]))
		}
	case len(wrong) > 0:
		why = listed(wrong)
	case !leads && !crashed:
		why = fmt.Sprintf("every node names %d, but it is not a leader", leader)
	}
	if crashed {
		why = strings.TrimSuffix(fmt.Sprintf("node %d is crashed; %s", leader, why), "; ")
	}
	if why == "" {
		return true, ""
	}
	return false, fmt.Sprintf("at %s %s", when, why)
}

// named says whom a node names as its leader: an id, or "no leader".
func named(id algo.ID) string {
	if id == 0 {
		return "no leader"
	}
	return strconv.Itoa(int(id))
}

// listed joins items with commas, the first maxListed of them and how many more.
func listed(items []string) string {
	if len(items) > maxListed {
		return fmt.Sprintf("%s and %d more", strings.Join(items[:maxListed], ", "), len(items)-maxListed)
	}
	return strings.Join(items, ", ")
}

// Finish checks the remaining expectations on the finished run and returns every verdict, in
// the order of the file.
func (c *Checker) Finish(s *sim.Sim, sum sim.Summary) []Result {
	c.CheckUntil(s, sum.End)
	for i, e := range c.exps {
		r := &c.results[i]
		switch e.Kind {
		case ExpectLeader:
			if e.By < 0 {
				// The run's end: what the summary's agreed leader says, in the words of a
				// timed expectation's verdict.
				r.OK, r.Detail = leaderCheck(s, e.Leader, "the end")
			}
		case ExpectHolds, ExpectViolated:
			p, known := sum.Property(e.Property)
			holds := known && p.Holds
			r.OK = holds == (e.Kind == ExpectHolds)
			if !r.OK {
				r.Detail = propertyDetail(sum, e.Property, holds)
			}
		case ExpectMessages:
			sent, _, _ := sum.Count(e.MsgKind)
			switch e.Op {
			case "=":
				r.OK = sent == e.Count
			case "<=":
				r.OK = sent <= e.Count
			case ">=":
				r.OK = sent >= e.Count
			}
			r.Detail = fmt.Sprintf("%d sent", sent)
		}
	}
	return slices.Clone(c.results)
}

func propertyDetail(sum sim.Summary, property string, holds bool) string {
	if holds {
		return property + " held throughout"
	}
	var parts []string
	for _, v := range sum.Violations {
		if v.Property == property {
			parts = append(parts, strings.TrimPrefix(v.String(), property+" "))
		}
	}
	return property + " violated: " + strings.Join(parts, "; ")
}
