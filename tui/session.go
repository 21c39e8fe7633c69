package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"electsim/algo"
	"electsim/scenarios"
	"electsim/sim"
	"electsim/sim/export"
)

// session is one play of a scenario: the run in progress, every step it has shown, and what the
// user did. Everything on screen derives from it.
type session struct {
	base  sim.Config              // the scenario's run, with tracing
	exps  []scenarios.Expectation // the scenario's expectations, judged at the end of the run
	user  []sim.Action            // the user's actions, in the order they were taken
	s     *sim.Sim
	steps []logStep // every step so far, in order: steps[i] is step i+1

	// gen changes whenever steps shown are taken back (restart, replay): what is built from the
	// steps (the log's rows) is built again.
	gen     int
	says    []int            // the indices in steps of the narration (say) steps
	started map[algo.ID]bool // the nodes that have booted (or come back from a crash)
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

// config is the run with the user's actions: what a saved session replays.
func (ss *session) config() sim.Config {
	cfg := ss.base
	cfg.Actions = append(slices.Clone(ss.base.Actions), ss.user...)
	return cfg
}

// restart begins the run again from time 0, with the user's actions where they were taken.
func (ss *session) restart() error {
	ss.close()
	s, err := sim.New(ss.config())
	if err != nil {
		return err
	}
	ss.s, ss.steps = s, nil
	ss.gen++
	ss.end = nil
	ss.reindex()
	return nil
}

func (ss *session) close() {
	if ss.s != nil {
		ss.s.Close()
	}
}

// reindex rebuilds what is kept about the steps shown: the narration and the nodes started.
func (ss *session) reindex() {
	ss.says = ss.says[:0]
	ss.started = map[algo.ID]bool{}
	for i := range ss.steps {
		ss.index(i)
	}
}

// index notes what step i shows.
func (ss *session) index(i int) {
	for _, r := range ss.steps[i].recs {
		switch {
		case r.Type == sim.RecSay:
			ss.says = append(ss.says, i)
		case r.Type == sim.RecBoot, r.Type == sim.RecState && r.New != sim.Crashed && r.New != sim.Paused:
			ss.started[r.Node] = true
		}
	}
}

// step runs the next step and keeps it; it returns false at the end of the run.
func (ss *session) step() (logStep, bool) {
	r, ok := ss.s.Step()
	if !ok {
		return logStep{}, false
	}
	ls := logStep{recs: slices.Clone(r.Records), routine: export.Routine(r.Records, ss.base.Algorithm)}
	ss.steps = append(ss.steps, ls)
	ss.index(len(ss.steps) - 1)
	return ls, true
}

// back goes back n steps: the run is replayed from the start to that step, with the user's
// actions where they were taken. The run is deterministic, so the state is exactly the one
// shown then.
func (ss *session) back(n int) error {
	return ss.replayTo(max(0, len(ss.steps)-n))
}

// replayTo replays the run to step n.
func (ss *session) replayTo(n int) error {
	shown := ss.steps[:n]
	if err := ss.restart(); err != nil {
		return err
	}
	for range n {
		if _, ok := ss.s.Step(); !ok {
			break
		}
	}
	ss.steps = shown
	ss.reindex()
	return nil
}

// actTime is when an action the user takes now happens: at the next whole millisecond. Every
// step shown so far comes before it, as in a scenario file that schedules it then — so the
// session, saved, replays to the same trace.
func (ss *session) actTime() time.Duration {
	now := ss.s.Now()
	return (now/time.Millisecond + 1) * time.Millisecond
}

// forgets returns the user's actions that an action taken now would replace: those taken at
// its time or later, before the user stepped back to here.
func (ss *session) forgets() []sim.Action {
	at := ss.actTime()
	var out []sim.Action
	for _, u := range ss.user {
		if u.At >= at {
			out = append(out, u)
		}
	}
	return out
}

// errNothing is an action that would change nothing: it is not taken, nor saved.
type errNothing struct{ msg string }

func (e errNothing) Error() string { return e.msg }

// act schedules the user's action and runs the run up to it, so it shows at once — unless a
// break comes first: then the run stops at the break, as playback would, and the action follows
// when the presenter goes on (atBreak). Actions the user had taken at its time or later — before
// stepping back to here — are forgotten: the story goes another way now. An action that changes
// nothing (recover a live node, heal with nothing cut) is not taken: errNothing says why.
func (ss *session) act(a sim.Action) (atBreak bool, err error) {
	if ss.s.Done() {
		return false, fmt.Errorf("the run is over: ← goes back, R starts it again")
	}
	a.At = ss.actTime()
	if a.At > ss.base.RunFor {
		return false, fmt.Errorf("too late: the run ends at %s", algo.FormatDuration(ss.base.RunFor))
	}
	if why := ss.idleNetworkAction(a); why != "" {
		return false, errNothing{fmt.Sprintf("%s: %s — nothing done", a, why)}
	}
	if len(ss.forgets()) > 0 {
		ss.user = slices.DeleteFunc(ss.user, func(u sim.Action) bool { return u.At >= a.At })
		// The forgotten actions are queued in the run already: replay without them.
		if err := ss.replayTo(len(ss.steps)); err != nil {
			return false, err
		}
	}
	before := len(ss.steps)
	if err := ss.s.Schedule(a); err != nil {
		return false, err
	}
	ss.user = append(ss.user, a)
	for {
		ls, ok := ss.step()
		if !ok {
			return false, nil
		}
		r := ls.recs[0]
		if r.Action != nil && r.At == a.At && userRecord(r.Type) && r.Action.String() == a.String() {
			if why := ss.idleNodeAction(ls, a); why != "" {
				ss.user = ss.user[:len(ss.user)-1]
				if err := ss.replayTo(before); err != nil {
					return false, err
				}
				return false, errNothing{fmt.Sprintf("%s: %s — nothing done", a, why)}
			}
			return false, nil
		}
		if r.Type == sim.RecBreak {
			return true, nil
		}
	}
}

// userRecord reports whether a record of type t can be the step of a user's action: a fault, or
// the user's own say or break.
func userRecord(t sim.RecordType) bool {
	return t == sim.RecFault || t == sim.RecSay || t == sim.RecBreak
}

// idleNetworkAction says why a network action would change nothing, or returns "".
func (ss *session) idleNetworkAction(a sim.Action) string {
	cuts := ss.s.Cuts()
	switch {
	case a.Op == sim.Heal && a.Link == nil && ss.s.Partition() == nil && len(cuts) == 0:
		return "no partition and no cut link to heal"
	case a.Op == sim.Heal && a.Link != nil && !slices.Contains(cuts, *a.Link) && ss.s.Partition() != nil:
		return fmt.Sprintf("the link %s is not cut (the partition is what blocks it: heal without a link ends it)", a.Link)
	case a.Op == sim.Heal && a.Link != nil && !slices.Contains(cuts, *a.Link):
		return fmt.Sprintf("the link %s is not cut", a.Link)
	case a.Op == sim.Cut && slices.Contains(cuts, *a.Link):
		return fmt.Sprintf("the link %s is cut already", a.Link)
	}
	return ""
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
	return fmt.Sprintf("%s %s %s", export.Kind(f.Msg, ss.base.Algorithm, export.Plain{}), export.Link(f.Msg), eta)
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
			text += " " + export.ID(id)
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
