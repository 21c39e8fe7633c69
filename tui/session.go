package tui

import (
	"fmt"
	"slices"
	"time"

	"electsim/algo"
	"electsim/scenarios"
	"electsim/sim"
	"electsim/sim/export"
)

// session is one play of a scenario: the run in progress, every step it has shown, and what the
// user did. Everything on screen derives from it.
type session struct {
	base  sim.Config   // the scenario's run, with tracing
	user  []sim.Action // the user's actions, in the order they were taken
	s     *sim.Sim
	steps []logStep // every step so far, in order: steps[i] is step i+1
}

// logStep is one step of the run as the event log keeps it.
type logStep struct {
	recs    []sim.Record
	routine bool // only heartbeats that changed nothing
}

func newSession(base sim.Config) (*session, error) {
	base.Trace = true
	ss := &session{base: base}
	return ss, ss.restart()
}

// restart begins the run again from time 0, with the user's actions where they were taken.
func (ss *session) restart() error {
	ss.close()
	cfg := ss.base
	cfg.Actions = append(slices.Clone(ss.base.Actions), ss.user...)
	s, err := sim.New(cfg)
	if err != nil {
		return err
	}
	ss.s, ss.steps = s, nil
	return nil
}

func (ss *session) close() {
	if ss.s != nil {
		ss.s.Close()
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
	return ls, true
}

// back goes back one step: the run is replayed from the start to the step before, with the
// user's actions where they were taken. The run is deterministic, so the state is exactly the
// one shown then.
func (ss *session) back() error {
	target := len(ss.steps) - 1
	if target < 0 {
		return nil
	}
	return ss.replayTo(target)
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
	return nil
}

// actTime is when an action the user takes now happens: at the next whole millisecond. Every
// step shown so far comes before it, as in a scenario file that schedules it then — so the
// session, saved, replays to the same trace.
func (ss *session) actTime() time.Duration {
	now := ss.s.Now()
	return (now/time.Millisecond + 1) * time.Millisecond
}

// act schedules the user's action and runs the run up to it, so it shows at once. Actions the
// user had taken after this moment — before stepping back to it — are forgotten: the story
// goes another way now.
func (ss *session) act(a sim.Action) ([]logStep, error) {
	if ss.s.Done() {
		return nil, fmt.Errorf("the run is over: R starts it again")
	}
	a.At = ss.actTime()
	if a.At > ss.base.RunFor {
		return nil, fmt.Errorf("too late: the run ends at %s", algo.FormatDuration(ss.base.RunFor))
	}
	kept := ss.user[:0]
	dropped := false
	for _, u := range ss.user {
		if u.At < a.At {
			kept = append(kept, u)
		} else {
			dropped = true
		}
	}
	ss.user = kept
	if dropped {
		// The forgotten actions are queued in the run already: replay without them.
		if err := ss.replayTo(len(ss.steps)); err != nil {
			return nil, err
		}
	}
	if err := ss.s.Schedule(a); err != nil {
		return nil, err
	}
	ss.user = append(ss.user, a)
	var shown []logStep
	for {
		ls, ok := ss.step()
		if !ok {
			return shown, nil
		}
		shown = append(shown, ls)
		if r := ls.recs[0]; r.Action != nil && r.At == a.At && r.Action.String() == a.String() {
			return shown, nil
		}
	}
}

// narration returns the latest `say` shown, and whether the last step shown is a `break`.
func (ss *session) narration() (string, bool) {
	say := ""
	for i := len(ss.steps) - 1; i >= 0; i-- {
		if r := ss.steps[i].recs[0]; r.Type == sim.RecSay {
			say = r.Action.Text
			break
		}
	}
	atBreak := len(ss.steps) > 0 && ss.steps[len(ss.steps)-1].recs[0].Type == sim.RecBreak
	return say, atBreak
}

// scenario returns the session as a scenario: the run as configured, the scenario's actions and
// the user's, merged in time order (the scenario's first at the same time). The original
// expectations are left out: the user's actions may well have changed the story.
func (ss *session) scenario(name, title string) *scenarios.Scenario {
	cfg := ss.base
	sc := scenarios.New(name)
	sc.Title = title
	sc.Algorithm = cfg.Algorithm.Name
	sc.IDs = slices.Clone(cfg.IDs)
	sc.Contig = true
	for i, id := range cfg.IDs {
		if id != algo.ID(i+1) {
			sc.Contig = false
		}
	}
	sc.Seed = cfg.Seed
	sc.Delay = cfg.Network.Delay
	sc.Drop = cfg.Network.Drop * 100
	sc.FIFO = cfg.Network.FIFO
	for _, k := range cfg.Params.Keys() {
		sc.Params = append(sc.Params, scenarios.Setting{Key: k, Value: cfg.Params[k]})
	}
	sc.RunFor = cfg.RunFor
	var all []scenarios.Step
	for _, a := range cfg.Actions {
		all = append(all, scenarios.Step{Action: a})
	}
	for _, a := range ss.user {
		all = append(all, scenarios.Step{Action: a})
	}
	slices.SortStableFunc(all, func(a, b scenarios.Step) int { return int(a.At - b.At) })
	sc.Actions = all
	return sc
}

// inFlight describes the messages in flight, soonest first: "ELECTION 1→4 in 3.4ms".
func (ss *session) inFlight(max int) ([]string, int) {
	fl := ss.s.InFlight()
	var out []string
	now := ss.s.Now()
	for i, f := range fl {
		if i == max {
			break
		}
		eta := "held: paused"
		if f.At >= 0 {
			eta = "in " + fmtDur(f.At-now)
		}
		out = append(out, fmt.Sprintf("%s %s %s", export.Kind(f.Msg, ss.base.Algorithm, export.Plain{}), export.Link(f.Msg), eta))
	}
	return out, len(fl)
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
	var s string
	for i, l := range ss.s.Cuts() {
		if i > 0 {
			s += " "
		}
		s += l.String()
	}
	return s
}

// fmtDur writes a virtual duration in ms: "3.4ms".
func fmtDur(d time.Duration) string {
	return fmt.Sprintf("%.1fms", float64(d)/1e6)
}
