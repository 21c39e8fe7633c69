package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/network"
	"electsim/sim"
)

// ErrOver is Act's error once the run has ended: nothing more can happen in it. Stepping back,
// or starting again, makes room to act.
var ErrOver = errors.New("the run is over")

// ErrToggle is what Act's error wraps for a toggle it cannot take: toggle switches named nodes
// between paused and running, so it takes pause or resume of named nodes — not another action,
// not leader, not nodes some of which are paused and some not when the action comes.
var ErrToggle = errors.New("toggle switches named nodes between paused and running")

// checkToggle says why a, asked for with toggle, cannot be a toggle, or returns nil.
func checkToggle(a sim.Action) error {
	switch {
	case a.Op != sim.Pause && a.Op != sim.Resume:
		return fmt.Errorf("%w: it takes pause or resume of named nodes, not %s", ErrToggle, a.Op)
	case len(a.Nodes) == 0:
		return fmt.Errorf("%w: it takes the nodes to pause or resume, and %s names none", ErrToggle, a)
	case slices.Contains(a.Nodes, sim.AgreedLeader):
		return fmt.Errorf("%w: it takes the nodes by their ids, not leader (%s names whoever leads, and a resume cannot)", ErrToggle, a)
	}
	return nil
}

// toggled returns a as a pause or a resume, whichever fits its nodes now: a resume when every
// one of them is paused, a pause when none is; an error wrapping ErrToggle when some are.
func (s *Session) toggled(a sim.Action) (sim.Action, error) {
	paused := 0
	for _, id := range a.Nodes {
		if s.Node(id).Status == sim.Paused {
			paused++
		}
	}
	switch paused {
	case 0:
		a.Op = sim.Pause
	case len(a.Nodes):
		a.Op = sim.Resume
	default:
		return a, fmt.Errorf("%w: of nodes %s, %d are paused and %d not: say pause or resume", ErrToggle, strings.Trim(fmt.Sprint(a.Nodes), "[]"), paused, len(a.Nodes)-paused)
	}
	return a, nil
}

// Refused is Act's error for an action it did not take: where it happens, it would change
// nothing (recover a live node, heal with nothing cut), or it cannot happen (it names `leader`
// and no node leads then). It is neither kept among the user's actions nor saved, and the run is
// as it was before.
type Refused struct {
	Action sim.Action // the action, at the time it would have happened
	Why    string     // why: "node 1 is not crashed"
}

// Error says what was refused and why: "recover 1: node 1 is not crashed — nothing done".
func (e *Refused) Error() string { return fmt.Sprintf("%s: %s — nothing done", e.Action, e.Why) }

// Taken is what Act did with an action it took.
type Taken struct {
	// Action is the action as the session keeps it, and saves it: at its time, a toggled pause
	// or resume decided, `leader` as written.
	Action sim.Action
	// Happened is the action as the trace has it: `leader` named as the node it was, "crash
	// leader (node 5)".
	Happened sim.Action
	// AtBreak is true when a break comes first: the run stopped there, and the action happens
	// when it goes on.
	AtBreak bool
}

// ActTime is when an action the user takes now happens: at the next whole millisecond after the
// instant shown (Instant). Every step shown so far comes before it, as in a scenario file that
// schedules it then — so the session, saved, replays to the same trace.
func (s *Session) ActTime() time.Duration {
	now := s.Instant() // played on past the latest step, an action comes after what was shown
	return (now/time.Millisecond + 1) * time.Millisecond
}

// Forgets returns the user's actions that an action taken now would replace: those for its time
// or later that the user took, or saw happen, further on, before stepping back to here. An
// action taken here — at a break, waiting for the presenter to go on — stays: the new one
// follows it. A view asks before it acts when there are any.
func (s *Session) Forgets() []sim.Action {
	var out []sim.Action
	for i, u := range s.user {
		if s.replaced(i) {
			out = append(out, u)
		}
	}
	return out
}

// replaced reports whether an action taken now would replace the user's action i.
func (s *Session) replaced(i int) bool {
	return s.user[i].At >= s.ActTime() && len(s.steps) < s.shownAt[i]
}

// Act takes the user's action a: at the next whole millisecond (ActTime), after every step due
// before it, as a scenario's line would. It runs the run up to the action's step and shows it —
// unless a break comes first: then the run stops at the break, as playback would, and the action
// follows when the presenter goes on. With toggle, a is a pause or a resume, whichever fits its
// node when the action comes — toggle takes only pause or resume of named nodes, and errs
// (ErrToggle) on anything else, before anything is done. The actions the user had taken at
// its time or later, before
// stepping back to here (Forgets), are forgotten: the story goes another way now.
//
// An action is judged where it happens, not where it was asked for: the run goes on to the
// action's step to see, past a break if one comes first, and comes back. One that would change
// nothing there, or that cannot happen, is refused: the error is a *Refused. Once the run is
// over, the error is ErrOver; once the session is full (Full), an error wrapping ErrFull; a say
// of more than MaxSay characters is an error too.
func (s *Session) Act(a sim.Action, toggle bool) (Taken, error) {
	if s.run.Done() {
		return Taken{}, ErrOver
	}
	if toggle {
		if err := checkToggle(a); err != nil {
			return Taken{}, err
		}
	}
	if n := utf8.RuneCountInString(a.Text); a.Op == sim.Say && n > MaxSay {
		return Taken{}, fmt.Errorf("a say holds at most %d characters, and this one has %s: say it in several", MaxSay, human.Thousands(int64(n)))
	}
	a.At = s.ActTime()
	if a.At > s.base.RunFor {
		return Taken{}, fmt.Errorf("too late: the run ends at %s", algo.FormatDuration(s.base.RunFor))
	}
	t, err := s.act(a, toggle)
	s.cps.prune(s.user) // the copies past the action's time have run without it
	s.settle()
	return t, err
}

func (s *Session) act(a sim.Action, toggle bool) (Taken, error) {
	if err := s.forgetReplaced(); err != nil {
		return Taken{}, err
	}
	before := len(s.steps)
	brk := -1 // the first break on the way, an index into steps
	for {     // every step due before the action
		st, ok := s.stepUntil(a.At - 1)
		if !ok {
			break
		}
		if st.Records[0].Type == sim.RecBreak && brk < 0 {
			brk = len(s.steps) - 1
		}
	}
	if s.run.Done() { // a guard stopped the run on the way
		return Taken{}, errors.Join(s.replayTo(before, true), fmt.Errorf("the run stopped before %s", algo.FormatDuration(a.At)))
	}
	if why := s.Full(); why != "" { // no room for the steps on the way
		return Taken{}, errors.Join(&fullError{why}, s.replayTo(before, true))
	}
	if toggle {
		var err error
		if a, err = s.toggled(a); err != nil {
			return Taken{}, errors.Join(err, s.replayTo(before, true))
		}
	}
	// The run's own actions at that instant, and the user's taken before, come first: the
	// action's step is the one after as many steps as there are earlier actions like it.
	same := 0
	for _, b := range s.config().Actions {
		if b.At == a.At && actionKey(b) == actionKey(a) {
			same++
		}
	}
	if err := s.run.Schedule(a); err != nil {
		return Taken{}, errors.Join(err, s.replayTo(before, true))
	}
	s.user, s.shownAt = append(s.user, a), append(s.shownAt, before)
	for {
		net := s.network(a) // the network as the action finds it
		st, ok := s.stepUntil(a.At)
		if !ok {
			err := fmt.Errorf("%s did not happen at %s", a, algo.FormatDuration(a.At))
			if s.run.Done() {
				err = fmt.Errorf("the run stopped before %s", a)
			}
			if why := s.Full(); why != "" {
				err = &fullError{why}
			}
			return Taken{}, errors.Join(err, s.unact(before))
		}
		r := st.Records[0]
		mine := r.Action != nil && userRecord(r.Type) && actionKey(*r.Action) == actionKey(a)
		if mine {
			same--
		}
		if !mine || same >= 0 {
			if r.Type == sim.RecBreak && brk < 0 {
				brk = len(s.steps) - 1
			}
			continue
		}
		if why := s.whyRefused(a, *r.Action, st, net); why != "" {
			if err := s.unact(before); err != nil {
				return Taken{}, err
			}
			return Taken{}, &Refused{Action: a, Why: why}
		}
		t := Taken{Action: a, Happened: *r.Action, AtBreak: brk >= 0}
		var err error
		if t.AtBreak {
			err = s.replayTo(brk+1, true)
		}
		s.shownAt[len(s.shownAt)-1] = len(s.steps)
		return t, err
	}
}

// forgetReplaced forgets the user's actions an action taken now replaces, and makes the run go
// on with its trace: what the action causes is shown, recorded. The forgotten actions are queued
// in the run already: it is replayed without them.
func (s *Session) forgetReplaced() error {
	if len(s.Forgets()) == 0 {
		if s.traced {
			return nil
		}
		return s.trace()
	}
	var user []sim.Action
	var shownAt []int
	for i, u := range s.user {
		if !s.replaced(i) {
			user, shownAt = append(user, u), append(shownAt, s.shownAt[i])
		}
	}
	s.user, s.shownAt = user, shownAt
	s.cps.prune(s.user)
	return s.replayTo(len(s.steps), true)
}

// unact forgets the user's latest action, which did not happen, and brings the run back to step
// n, where it was asked for.
func (s *Session) unact(n int) error {
	s.user, s.shownAt = s.user[:len(s.user)-1], s.shownAt[:len(s.shownAt)-1]
	s.cps.prune(s.user)
	return s.replayTo(n, true)
}

// userRecord reports whether a record of type t can be the step of a user's action: a fault, or
// the user's own say or break.
func userRecord(t sim.RecordType) bool {
	return t == sim.RecFault || t == sim.RecSay || t == sim.RecBreak
}

// actionKey is what tells a scheduled action from another at the same instant, whether written
// as scheduled or as the trace has it: `leader` stands where the trace names the node it was, or
// where it names none because no node led; the nodes in order, for that is lost where none led.
func actionKey(a sim.Action) string {
	swap := func(ids []algo.ID) []algo.ID {
		out := slices.Clone(ids)
		for i, id := range out {
			if a.Leader > 0 && id == a.Leader {
				out[i] = sim.AgreedLeader
			}
		}
		return out
	}
	b := a
	b.Leader = 0
	b.Nodes = swap(a.Nodes)
	if a.Leader == sim.AgreedLeader && a.Op != sim.Partition {
		b.Nodes = append(b.Nodes, sim.AgreedLeader)
	}
	slices.Sort(b.Nodes)
	b.Groups = nil
	for _, g := range a.Groups {
		b.Groups = append(b.Groups, swap(g))
	}
	return b.String()
}

// netState is the network as an action finds it: the partition and the cuts in force.
type netState struct {
	groups [][]algo.ID
	cuts   []network.Link
}

// network returns the network as it is now, for a network action to be judged by; nothing for
// another.
func (s *Session) network(a sim.Action) netState {
	switch a.Op {
	case sim.Heal, sim.Cut, sim.Partition:
		return netState{s.run.Partition(), s.run.Cuts()}
	}
	return netState{}
}

// whyRefused says why the user's action a, whose step st has just been taken as happened,
// changed nothing or could not happen, or returns "". net is the network as it found it.
func (s *Session) whyRefused(a, happened sim.Action, st Step, net netState) string {
	if happened.Leader == sim.AgreedLeader { // it names `leader`, and could not happen: the run stops
		why := s.run.Summary().Halted
		if rest, ok := strings.CutPrefix(why, a.String()+": "); ok {
			why = rest
		}
		return why
	}
	if why := net.idle(happened, s.base.IDs); why != "" {
		return why
	}
	return s.idleNodeAction(st, happened)
}

// idle says why network action a would change nothing on the network as it is, or returns "".
func (n netState) idle(a sim.Action, ids []algo.ID) string {
	switch a.Op {
	case sim.Heal, sim.Cut:
		cut := a.Link != nil && slices.Contains(n.cuts, *a.Link)
		switch {
		case a.Op == sim.Cut && cut:
			return fmt.Sprintf("the link %s is cut already", a.Link)
		case a.Op == sim.Cut:
		case a.Link == nil && n.groups == nil && len(n.cuts) == 0:
			return "no partition and no cut link to heal"
		case a.Link != nil && !cut && n.groups != nil:
			return fmt.Sprintf("the link %s is not cut (the partition is what blocks it: heal without a link ends it)", a.Link)
		case a.Link != nil && !cut:
			return fmt.Sprintf("the link %s is not cut", a.Link)
		}
	case sim.Partition:
		if len(a.Groups) == 1 && len(a.Groups[0]) == len(ids) {
			return "it puts every node in one group, which splits nothing" // `leader` and the rest
		}
		if sameSplit(n.groups, a.Groups, ids) {
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

// idleNodeAction says why the step st of node action a changed nothing, or returns "": crash a
// crashed node, recover or resume a live one, elect on a crashed one.
func (s *Session) idleNodeAction(st Step, a sim.Action) string {
	why := st.Records[0].Note
	if why == "" {
		why = "it changed nothing"
	}
	switch a.Op {
	case sim.Crash, sim.Recover, sim.Pause, sim.Resume:
		if len(st.Records) == 1 {
			return why
		}
	case sim.Elect:
		if len(st.Records) == 1 && !slices.ContainsFunc(a.Nodes, func(id algo.ID) bool { return s.Node(id).Status != sim.Crashed }) {
			return why
		}
	}
	return ""
}
