package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"electsim/algo"
	"electsim/report"
	"electsim/scenarios"
	"electsim/sim"
)

// session is one play of a scenario: the run in progress, every step it has shown, and what the
// user did. Everything on screen derives from it.
type session struct {
	base sim.Config              // the scenario's run, with tracing
	exps []scenarios.Expectation // the scenario's expectations, judged at the end of the run
	user []sim.Action            // the user's actions, in the order they were taken
	// shownAt[i] is how many steps were shown once the user took user[i] — up to its step, or
	// to a break before it: stepping back before that, and acting, forgets it.
	shownAt []int
	s       *sim.Sim
	traced  bool      // s records what each step does; a run replayed to step back does not
	steps   []logStep // every step so far, in order: steps[i] is step i+1
	// ahead are the steps after those shown that the run is known to take: those stepped back
	// over, the user's actions unchanged since; aheadEnds says the run ends after them.
	ahead     []logStep
	aheadEnds bool

	// gen changes when the run starts again (R): what is built from the steps (the log's rows)
	// is built again. Stepping back only takes steps off the end.
	gen     int
	says    []int            // the indices in steps of the narration (say) steps
	started map[algo.ID]bool // the nodes that have booted (or come back from a crash)
	starts  []started        // when each node in started first started, in order
	end     *ending          // the verdicts, once the run has ended
}

// logStep is one step of the run as the event log keeps it.
type logStep struct {
	recs    []sim.Record
	routine bool // only heartbeats that changed nothing
}

// ending is what a run that has ended is judged by: the summary's property verdicts and the
// scenario's expectations.
type ending struct {
	sum     sim.Summary
	results []scenarios.Result
}

func newSession(base sim.Config, exps []scenarios.Expectation) (*session, error) {
	base.Trace = true
	ss := &session{base: base, exps: exps}
	return ss, ss.restart()
}

// forgetAll forgets every action the user took.
func (ss *session) forgetAll() { ss.user, ss.shownAt = nil, nil }

// config is the run with the user's actions: what a saved session replays.
func (ss *session) config() sim.Config {
	cfg := ss.base
	cfg.Actions = append(slices.Clone(ss.base.Actions), ss.user...)
	return cfg
}

// actTime is when an action the user takes now happens: at the next whole millisecond. Every
// step shown so far comes before it, as in a scenario file that schedules it then — so the
// session, saved, replays to the same trace.
func (ss *session) actTime() time.Duration {
	now := ss.s.Now()
	return (now/time.Millisecond + 1) * time.Millisecond
}

// forgets returns the user's actions that an action taken now would replace: those for its
// time or later that the user took, or saw happen, further on, before stepping back to here.
// An action taken here — at a break, waiting for the presenter to go on — stays: the new one
// follows it.
func (ss *session) forgets() []sim.Action {
	var out []sim.Action
	for i, u := range ss.user {
		if ss.replaced(i) {
			out = append(out, u)
		}
	}
	return out
}

// replaced reports whether an action taken now would replace the user's action i.
func (ss *session) replaced(i int) bool {
	return ss.user[i].At >= ss.actTime() && len(ss.steps) < ss.shownAt[i]
}

// errNothing is an action that would change nothing: it is not taken, nor saved.
type errNothing struct{ msg string }

func (e errNothing) Error() string { return e.msg }

// act takes the user's action: at the next whole millisecond, after every step due before it,
// as a scenario's line would. It runs the run up to the action's step and shows it — unless a
// break comes first: then the run stops at the break, as playback would, and the action follows
// when the presenter goes on (atBreak). With toggle, a pause or resume is whichever of the two
// fits the node when the action comes. Actions the user had taken at its time or later — before
// stepping back to here — are forgotten: the story goes another way now.
//
// An action that would change nothing (recover a live node, heal with nothing cut) is not
// taken, and errNothing says why. It is judged where it happens, not where it was typed: the
// run goes on to the action's step to see, past a break if one comes first, and comes back.
func (ss *session) act(a sim.Action, toggle bool) (atBreak bool, err error) {
	if ss.s.Done() {
		return false, fmt.Errorf("the run is over: ← goes back, R starts it again")
	}
	a.At = ss.actTime()
	if a.At > ss.base.RunFor {
		return false, fmt.Errorf("too late: the run ends at %s", algo.FormatDuration(ss.base.RunFor))
	}
	if len(ss.forgets()) > 0 || !ss.traced {
		var user []sim.Action
		var shownAt []int
		for i, u := range ss.user {
			if !ss.replaced(i) {
				user, shownAt = append(user, u), append(shownAt, ss.shownAt[i])
			}
		}
		ss.user, ss.shownAt = user, shownAt
		// The forgotten actions are queued in the run already: replay without them. (And a run
		// replayed to step back records nothing: what the action causes is shown, recorded.)
		if err := ss.replayTo(len(ss.steps), true); err != nil {
			return false, err
		}
	}
	before := len(ss.steps)
	brk := -1 // the first break on the way, an index into steps
	for {     // every step due before the action
		ls, ok := ss.stepUntil(a.At - 1)
		if !ok {
			break
		}
		if ls.recs[0].Type == sim.RecBreak && brk < 0 {
			brk = len(ss.steps) - 1
		}
	}
	if ss.s.Done() { // a guard stopped the run on the way
		return false, errors.Join(ss.replayTo(before, true), fmt.Errorf("the run stopped before %s", algo.FormatDuration(a.At)))
	}
	if toggle && ss.view(a.Nodes[0]).Status == sim.Paused {
		a.Op = sim.Resume
	} else if toggle {
		a.Op = sim.Pause
	}
	// The run's own actions at that instant, and the user's taken before, come first: the
	// action's step is the one after as many steps as there are earlier actions like it.
	same := 0
	for _, b := range ss.config().Actions {
		if b.At == a.At && b.String() == a.String() {
			same++
		}
	}
	if err := ss.s.Schedule(a); err != nil {
		return false, err
	}
	ss.user, ss.shownAt = append(ss.user, a), append(ss.shownAt, before)
	for {
		why := ss.idleNetworkAction(a) // the network as the action finds it
		ls, ok := ss.stepUntil(a.At)
		if !ok {
			return false, fmt.Errorf("%s did not happen at %s", a, algo.FormatDuration(a.At)) // a bug: it was due then
		}
		r := ls.recs[0]
		mine := r.Action != nil && userRecord(r.Type) && r.Action.String() == a.String()
		if mine {
			same--
		}
		if !mine || same >= 0 {
			if r.Type == sim.RecBreak && brk < 0 {
				brk = len(ss.steps) - 1
			}
			continue
		}
		if why == "" {
			why = ss.idleNodeAction(ls, a)
		}
		switch {
		case why != "":
			ss.user, ss.shownAt = ss.user[:len(ss.user)-1], ss.shownAt[:len(ss.shownAt)-1]
			if err := ss.replayTo(before, true); err != nil {
				return false, err
			}
			return false, errNothing{fmt.Sprintf("%s: %s — nothing done", a, why)}
		case brk >= 0:
			atBreak, err = true, ss.replayTo(brk+1, true)
		}
		ss.shownAt[len(ss.shownAt)-1] = len(ss.steps)
		return atBreak, err
	}
}

// userRecord reports whether a record of type t can be the step of a user's action: a fault, or
// the user's own say or break.
func userRecord(t sim.RecordType) bool {
	return t == sim.RecFault || t == sim.RecSay || t == sim.RecBreak
}

// idleNetworkAction says why a network action would change nothing now, or returns "".
func (ss *session) idleNetworkAction(a sim.Action) string {
	switch a.Op {
	case sim.Heal, sim.Cut:
		cuts := ss.s.Cuts()
		cut := a.Link != nil && slices.Contains(cuts, *a.Link)
		switch {
		case a.Op == sim.Cut && cut:
			return fmt.Sprintf("the link %s is cut already", a.Link)
		case a.Op == sim.Cut:
		case a.Link == nil && ss.s.Partition() == nil && len(cuts) == 0:
			return "no partition and no cut link to heal"
		case a.Link != nil && !cut && ss.s.Partition() != nil:
			return fmt.Sprintf("the link %s is not cut (the partition is what blocks it: heal without a link ends it)", a.Link)
		case a.Link != nil && !cut:
			return fmt.Sprintf("the link %s is not cut", a.Link)
		}
	case sim.Partition:
		if sameSplit(ss.s.Partition(), a.Groups, ss.base.IDs) {
			return "the nodes are split that way already"
		}
	}
	return ""
}

// sameSplit reports whether the partition groups would make is the one in force, now: the
// same groups, in any order, the nodes groups does not name forming one more.
func sameSplit(now, groups [][]algo.ID, ids []algo.ID) bool {
	if now == nil {
		return false
	}
	named := map[algo.ID]bool{}
	var want [][]algo.ID
	for _, g := range groups {
		want = append(want, slices.Sorted(slices.Values(g)))
		for _, id := range g {
			named[id] = true
		}
	}
	var rest []algo.ID
	for _, id := range ids {
		if !named[id] {
			rest = append(rest, id)
		}
	}
	if len(rest) > 0 {
		want = append(want, slices.Sorted(slices.Values(rest)))
	}
	if len(want) != len(now) {
		return false
	}
	for _, g := range want {
		if !slices.ContainsFunc(now, func(h []algo.ID) bool { return slices.Equal(g, h) }) {
			return false
		}
	}
	return true
}

// idleNodeAction says why the step of a node action changed nothing, or returns "": crash a
// crashed node, recover or resume a live one, elect on a crashed one.
func (ss *session) idleNodeAction(ls logStep, a sim.Action) string {
	why := ls.recs[0].Note
	if why == "" {
		why = "it changed nothing"
	}
	switch a.Op {
	case sim.Crash, sim.Recover, sim.Pause, sim.Resume:
		if len(ls.recs) == 1 {
			return why
		}
	case sim.Elect:
		if len(ls.recs) == 1 && !slices.ContainsFunc(a.Nodes, func(id algo.ID) bool { return ss.view(id).Status != sim.Crashed }) {
			return why
		}
	}
	return ""
}

// view returns node id as it is now.
func (ss *session) view(id algo.ID) sim.NodeView {
	for _, n := range ss.s.Nodes() {
		if n.ID == id {
			return n
		}
	}
	return sim.NodeView{ID: id}
}

// narration returns every `say` of the latest instant that had any, in order, and that instant.
func (ss *session) narration() ([]string, time.Duration) {
	if len(ss.says) == 0 {
		return nil, 0
	}
	at := ss.steps[ss.says[len(ss.says)-1]].recs[0].At
	first := len(ss.says) - 1
	for first > 0 && ss.steps[ss.says[first-1]].recs[0].At == at {
		first--
	}
	var lines []string
	for _, i := range ss.says[first:] {
		lines = append(lines, ss.steps[i].recs[0].Action.Text)
	}
	return lines, at
}

// atBreak reports whether the last step shown is a `break`.
func (ss *session) atBreak() bool {
	return len(ss.steps) > 0 && ss.steps[len(ss.steps)-1].recs[0].Type == sim.RecBreak
}

// ended returns the verdicts on the run once it has ended, else nil. The expectations are
// judged on a replay of the same run — the scenario with the user's actions — in bulk, once.
func (ss *session) ended() *ending {
	if !ss.s.Done() {
		return nil
	}
	if ss.end == nil {
		e := &ending{sum: ss.s.Summary()}
		if len(ss.exps) > 0 {
			cfg := ss.config()
			cfg.Trace, cfg.Engine = false, sim.Inline
			if s, err := sim.New(cfg); err == nil {
				_, e.results = scenarios.Play(s, ss.exps, nil)
				s.Close()
			}
		}
		ss.end = e
	}
	return ss.end
}

// scenario returns the session as a scenario: the run as configured, the scenario's actions and
// the user's, merged in time order (the scenario's first at the same time), and the scenario's
// expectations.
func (ss *session) scenario(name, title string) *scenarios.Scenario {
	sc := scenarios.FromConfig(name, ss.base)
	sc.Title = title
	all := sc.Actions
	for _, a := range ss.user {
		all = append(all, scenarios.Step{Action: a})
	}
	slices.SortStableFunc(all, func(a, b scenarios.Step) int { return int(a.At - b.At) })
	sc.Actions = all
	sc.Expects = slices.Clone(ss.exps)
	return sc
}

// sessionFile is the text of a saved session: a comment saying where it comes from and, when
// the user acted, that the scenario's narration and expectations were written for the story
// without those actions; then the scenario in canonical form.
func (ss *session) sessionFile(from string, sc *scenarios.Scenario) string {
	var b strings.Builder
	if len(ss.user) == 0 {
		fmt.Fprintf(&b, "# A session of electsim tui: %s, played as written.\n", from)
	} else {
		fmt.Fprintf(&b, "# A session of electsim tui: %s, with these actions taken in it:\n", from)
		for _, a := range ss.user {
			fmt.Fprintf(&b, "#   at %s %s\n", algo.FormatDuration(a.At), a)
		}
		b.WriteString("# The narration (say) and the expectations are the scenario's own, written for the story\n" +
			"# without those actions: they may no longer match. electsim run on this file replays the\n" +
			"# session and says which expectations still hold.\n")
	}
	b.WriteString("\n")
	b.WriteString(scenarios.Format(sc))
	return b.String()
}

// flight is a message in flight, described: "ELECTION 1→4 in 3.4ms".
func (ss *session) flight(f sim.Flight) string {
	eta := "held: paused"
	if f.At >= 0 {
		eta = "in " + fmtDur(f.At-ss.s.Now())
	}
	return fmt.Sprintf("%s %s %s", report.Kind(f.Msg, ss.base.Algorithm, report.Plain{}), report.Link(f.Msg), eta)
}

// groups returns the partition in force, as "A: 1 2 | B: 3 4 5", and each node's group letter.
func (ss *session) groups() (string, map[algo.ID]string) {
	parts := ss.s.Partition()
	if parts == nil {
		return "", nil
	}
	letter := map[algo.ID]string{}
	text := ""
	for i, g := range parts {
		l := string(rune('A' + i%26))
		if i > 0 {
			text += " | "
		}
		text += l + ":"
		for _, id := range g {
			letter[id] = l
			text += " " + report.ID(id)
		}
	}
	return text, letter
}

// cuts describes the one-way cuts in force: "1->2 3->4".
func (ss *session) cuts() string {
	var s []string
	for _, l := range ss.s.Cuts() {
		s = append(s, l.String())
	}
	return strings.Join(s, " ")
}

// fmtDur writes a virtual duration in ms: "3.4ms".
func fmtDur(d time.Duration) string {
	return fmt.Sprintf("%.1fms", float64(d)/1e6)
}
