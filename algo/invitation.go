package algo

import (
	"fmt"
	"slices"
	"time"
)

// Invitation is the invitation algorithm of H. Garcia-Molina, "Elections in a Distributed
// Computing System", IEEE Transactions on Computers C-31(1), 1982, §5: the election for a
// network that can partition, where Bully's promise of one coordinator in all cannot be kept.
// Every node belongs to a group, named by the node that formed it and that node's counter
// (i‖Counter in the paper, written 5·2 here), and the group has one coordinator. A coordinator
// periodically looks for other coordinators (AreYouCoordinator) and, when it finds some, waits
// a time that depends on its priority, then invites them and its own members into a new group
// (Invitation, Accept, Ready). A member periodically checks that its coordinator is there
// (AreYouThere) and, hearing nothing, recovers into a group of its own. During a partition each
// side has its own group and coordinator; after the heal the groups merge.
//
// A node reports its group in its State: Leader is its coordinator, Term the group's counter
// (the group is named by its coordinator). The rules are those of docs/algorithms.md
// (Invitation); each method quotes the rule it implements.
type Invitation struct {
	id   ID
	all  []ID // every node, ascending
	rank int  // how many nodes have a higher id (higher priority) than mine
	cfg  *invitationConfig

	state   invState
	coord   ID     // S(i).c: my coordinator
	group   group  // S(i).g: my group's name
	counter uint64 // Counter: the groups I have formed (kept on stable storage too)
	up      []ID   // UpSet: as coordinator, my group's members but me, ascending
	found   []ID   // as coordinator during Check: the other coordinators that answered, ascending
	waiting bool   // as member: an ARE-YOU-THERE is unanswered
}

// invState is S(i).s, the paper's state of a node (Down is the engine's crash).
type invState uint8

const (
	invNormal   invState = iota // in a group, with its coordinator
	invElection                 // forming or joining a new group: waiting for ACCEPTs or READY
)

// group is the name of a group: the node that formed it and that node's counter.
type group struct {
	by ID
	n  uint64
}

// String writes the group as "5·2".
func (g group) String() string { return fmt.Sprintf("%d·%d", g.by, g.n) }

// The message kinds of the invitation algorithm. Each carries a group: its Value is the node
// that formed it, its Term that node's counter.
const (
	KindAreYouCoordinator = "ARE-YOU-COORDINATOR" // a coordinator looks for others
	KindCoordinatorAnswer = "AYC-ANSWER"          // ✓: yes, I coordinate this group
	KindAreYouThere       = "ARE-YOU-THERE"       // a member checks its coordinator
	KindThereAnswer       = "AYT-ANSWER"          // ✓: yes, I coordinate this group and you are in it
	KindInvitation        = "INVITATION"          // join this new group; answered by ACCEPT (lease.go's kind)
	KindReady             = "READY"               // the group is formed: carry on
)

// The timers of the invitation algorithm.
const (
	timerCheck    = "check"     // a coordinator's next Check
	timerCheckEnd = "check-end" // a coordinator's wait for answers to ARE-YOU-COORDINATOR
	timerMerge    = "merge"     // a coordinator's priority wait before it invites the others
	timerAccepts  = "accepts"   // a forming coordinator's wait for ACCEPTs
	timerReady    = "ready"     // a joining member's wait for READY
	timerThere    = "there"     // a member's next ARE-YOU-THERE, or its wait for the answer
)

type invitationConfig struct {
	check, there, answer, mergeWait time.Duration
}

// The invitation algorithm's parameters, with their defaults (docs/algorithms.md).
var (
	paramCheck = Param{Key: "check", Kind: DurationParam, Default: "200ms",
		Help: "a coordinator looks for other coordinators (ARE-YOU-COORDINATOR) at this interval"}
	paramThere = Param{Key: "there", Kind: DurationParam, Default: "100ms",
		Help: "a member asks its coordinator ARE-YOU-THERE at this interval"}
	paramInvAnswer = Param{Key: "answer-timeout", Kind: DurationParam, Default: "50ms",
		Help: "wait this long for an answer; a new group waits 2× for ACCEPTs, a joining member 3× for READY; must exceed 2× the max delay"}
	paramMergeWait = Param{Key: "merge-wait", Kind: DurationParam, Default: "30ms",
		Help: "a coordinator that found others waits this long for each node of higher priority (id) before it invites them"}
)

func invitationInfo() *Info {
	return &Info{
		Name:       "invitation",
		Summary:    "Garcia-Molina's invitation election (1982): groups with one coordinator each, which merge when they meet",
		Kinds:      []string{KindAreYouCoordinator, KindCoordinatorAnswer, KindInvitation, KindAccept, KindReady, KindAreYouThere, KindThereAnswer},
		Routine:    []string{KindAreYouCoordinator, KindCoordinatorAnswer, KindAreYouThere, KindThereAnswer},
		Answers:    []string{KindCoordinatorAnswer, KindThereAnswer},
		Params:     []Param{paramCheck, paramThere, paramInvAnswer, paramMergeWait},
		TermWord:   "group number",
		Topologies: []string{Complete},
		Recovers:   true,
		Winner:     Highest,
		Groups:     true,
		Monitors: []Monitor{
			{Property: OneCoordinatorPerGroup, Help: "no two nodes coordinate the same group: every message that names a group's coordinator names the same one",
				Watch: func(*Cluster) Watcher { return watchGroupCoordinators() }},
			{Property: EventualMerge, Help: "at the end of the run every live node is in one group under one live coordinator",
				Final: judgeMerged},
		},
		Guarantees: []Guarantee{
			{Property: OneCoordinatorPerGroup, Faults: "yyyyyyy",
				Why: "a group's name is its coordinator's id and a counter kept on stable storage: no other node can coordinate it"},
			{Property: EventualMerge, Faults: "yyyyyyy",
				Why: "once faults stop, coordinators find each other by ARE-YOU-COORDINATOR and the highest invites the rest"},
		},
		New: func(id ID, c *Cluster) Node { return NewInvitation(id, c) },
		Warnings: func(c *Cluster) []string {
			cfg := newInvitationConfig(c)
			var w []string
			if cfg.answer <= 2*c.MaxDelay {
				w = append(w, fmt.Sprintf("answer-timeout %s is not more than 2 × the max delay %s: a coordinator's answer can arrive too late, and a member that gives up waiting leaves its group",
					FormatDuration(cfg.answer), FormatDuration(c.MaxDelay)))
			}
			return w
		},
	}
}

// The invitation algorithm's own properties (docs/properties.md).
const (
	OneCoordinatorPerGroup = "one-coordinator-per-group"
	EventualMerge          = "eventual-merge"
)

func newInvitationConfig(c *Cluster) *invitationConfig {
	return sharedConfig(c, "invitation", func(c *Cluster) *invitationConfig {
		p := c.Params
		return &invitationConfig{
			check:     p.Duration("check", 200*time.Millisecond),
			there:     p.Duration("there", 100*time.Millisecond),
			answer:    p.Duration("answer-timeout", 50*time.Millisecond),
			mergeWait: p.Duration("merge-wait", 30*time.Millisecond),
		}
	})
}

// NewInvitation returns node id of cluster c, not yet started.
func NewInvitation(id ID, c *Cluster) *Invitation {
	i := c.Index(id)
	if i < 0 {
		panic(fmt.Sprintf("algo: node %d is not in the cluster", id))
	}
	return &Invitation{id: id, all: c.Sorted, rank: len(c.Sorted) - 1 - i, cfg: newInvitationConfig(c)}
}

var _ Node = (*Invitation)(nil)

// State reports the node's status — leader when it coordinates its group, candidate while a
// group is being formed — its coordinator, and its group's counter as the term.
func (v *Invitation) State() State {
	st := State{Status: Follower, Leader: v.coord, Term: v.group.n}
	switch {
	case v.state == invElection:
		st.Status = Candidate
	case v.coord == v.id:
		st.Status = Leader
	}
	return st
}

// groupMsg is a message of kind carrying my group.
func (v *Invitation) groupMsg(kind string, g group) Message {
	return Message{Kind: kind, Value: g.by, Term: g.n}
}

// Start: "Boot / recover: Recovery — form a group of my own."
func (v *Invitation) Start(env Env) {
	v.counter, _ = env.Load("counter")
	v.recovery(env, "booted")
}

// recovery: "Recovery: Counter := Counter + 1; S(i).g := i‖Counter; S(i).c := i; UpSet := ∅;
// S(i).s := Normal — a group of one, which I coordinate; Check at the next interval."
func (v *Invitation) recovery(env Env, why string) {
	for _, t := range []string{timerCheckEnd, timerMerge, timerAccepts, timerReady, timerThere} {
		env.CancelTimer(t)
	}
	v.newGroup(env)
	v.up, v.found, v.waiting = nil, nil, false
	v.state = invNormal
	env.SetTimer(timerCheck, v.cfg.check)
	if env.Tracing() {
		env.Note("%s: I form group %s of my own and coordinate it", why, v.group)
	}
}

// newGroup: "Counter := Counter + 1; S(i).g := i‖Counter; S(i).c := i." The counter is on
// stable storage, so a node that crashes never names a group twice.
func (v *Invitation) newGroup(env Env) {
	v.counter++
	env.Store("counter", v.counter)
	v.group, v.coord = group{v.id, v.counter}, v.id
}

// Elect: "`elect`: a coordinator runs Check now; a member asks its coordinator now."
func (v *Invitation) Elect(env Env) {
	switch {
	case v.state != invNormal:
	case v.coord == v.id:
		v.check(env)
	default:
		v.areYouThere(env)
	}
}

// check: "Check (a coordinator, every check): send AreYouCoordinator to every other node and
// wait answer-timeout for the answers."
func (v *Invitation) check(env Env) {
	env.CancelTimer(timerCheck)
	v.found = nil
	for _, j := range v.all {
		if j != v.id {
			env.Send(j, v.groupMsg(KindAreYouCoordinator, v.group))
		}
	}
	env.SetTimer(timerCheckEnd, v.cfg.answer)
}

// checkEnd: "If nobody answered yes, Check again later. Otherwise wait merge-wait for each
// node of higher priority than mine, then Merge: the highest coordinator invites at once, a
// lower one gives it time to invite me first."
func (v *Invitation) checkEnd(env Env) {
	if len(v.found) == 0 {
		env.SetTimer(timerCheck, v.cfg.check)
		return
	}
	wait := time.Duration(v.rank) * v.cfg.mergeWait
	if env.Tracing() {
		who, them := AndList(v.found)+" coordinate too", "them"
		when := "in " + FormatDuration(wait) + ", time for a higher coordinator to invite me first"
		if len(v.found) == 1 {
			who, them = AndList(v.found)+" coordinates too", "it"
		}
		if wait == 0 {
			when = "at once: no node has a higher priority"
		}
		env.Note("%s: I will invite %s %s", who, them, when)
	}
	env.SetTimer(timerMerge, wait)
}

// merge: "Merge: S(i).s := Election; a new group i‖Counter; send Invitation to the coordinators
// found and to my members; wait 2 × answer-timeout for their Accepts."
func (v *Invitation) merge(env Env) {
	invite := mergeIDs(v.found, v.up)
	if len(invite) == 0 { // nobody to invite after all
		env.SetTimer(timerCheck, v.cfg.check)
		return
	}
	v.newGroup(env)
	v.state, v.up, v.found = invElection, nil, nil
	for _, j := range invite {
		env.Send(j, v.groupMsg(KindInvitation, v.group))
	}
	env.SetTimer(timerAccepts, 2*v.cfg.answer)
	if env.Tracing() {
		env.Note("I form group %s and invite %s", v.group, AndList(invite))
	}
}

// accepts: "When the Accepts are in: S(i).s := Normal; send Ready to every member who
// accepted."
func (v *Invitation) accepts(env Env) {
	v.state = invNormal
	for _, j := range v.up {
		env.Send(j, v.groupMsg(KindReady, v.group))
	}
	env.SetTimer(timerCheck, v.cfg.check)
	if env.Tracing() {
		env.Note("group %s is formed: %s", v.group, membersText(v.id, v.up))
	}
}

// areYouThere: "A member, every there: send AreYouThere to my coordinator and wait
// answer-timeout."
func (v *Invitation) areYouThere(env Env) {
	env.Send(v.coord, v.groupMsg(KindAreYouThere, v.group))
	v.waiting = true
	env.SetTimer(timerThere, v.cfg.answer)
}

// Receive handles the seven kinds of message.
func (v *Invitation) Receive(env Env, m Message) {
	g := group{m.Value, m.Term}
	switch m.Kind {
	case KindAreYouCoordinator:
		// "On AreYouCoordinator: answer yes if S(i).s = Normal and S(i).c = i."
		yes := v.state == invNormal && v.coord == v.id
		a := v.groupMsg(KindCoordinatorAnswer, v.group)
		a.Flag = yes
		env.Send(m.From, a)
	case KindCoordinatorAnswer:
		// "Check collects the coordinators that answer yes."
		if m.Flag && v.state == invNormal && v.coord == v.id && !slices.Contains(v.found, m.From) {
			v.found = mergeIDs(v.found, []ID{m.From})
		}
	case KindAreYouThere:
		// "On AreYouThere(g) from j: answer yes if I coordinate group g and j is in it."
		a := v.groupMsg(KindThereAnswer, g)
		a.Flag = v.coord == v.id && v.group == g && slices.Contains(v.up, m.From)
		env.Send(m.From, a)
	case KindThereAnswer:
		v.onThereAnswer(env, m, g)
	case KindInvitation:
		v.onInvitation(env, m, g)
	case KindAccept:
		v.onAccept(env, m, g)
	case KindReady:
		// "On Ready(g) from j: if I am joining group g, coordinated by j: S(i).s := Normal."
		if v.state == invElection && v.group == g && v.coord == m.From && v.coord != v.id {
			v.state = invNormal
			env.CancelTimer(timerReady)
			env.SetTimer(timerThere, v.cfg.there)
			if env.Tracing() {
				env.Note("READY: I am in group %s, coordinated by %d", g, m.From)
			}
		}
	}
}

// onThereAnswer: "An answer no from my coordinator, or none within answer-timeout: Recovery."
func (v *Invitation) onThereAnswer(env Env, m Message, g group) {
	if !v.waiting || v.state != invNormal || v.coord == v.id || m.From != v.coord || g != v.group {
		return // an answer to a question I no longer ask
	}
	v.waiting = false
	if m.Flag {
		env.SetTimer(timerThere, v.cfg.there)
		return
	}
	v.recovery(env, fmt.Sprintf("%d says I am not in its group %s", m.From, g))
}

// onInvitation: "On Invitation(g) from j: if S(i).s ≠ Normal, ignore it. Otherwise S(i).s :=
// Election; if I was a coordinator, forward the invitation to my members; S(i).c := the
// group's coordinator; S(i).g := g; send Accept to it and wait 3 × answer-timeout for Ready."
func (v *Invitation) onInvitation(env Env, m Message, g group) {
	if v.state != invNormal || g.by == v.id {
		if env.Tracing() {
			env.Note("INVITATION to group %s ignored: I am forming or joining a group", g)
		}
		return
	}
	wasCoord, members := v.coord == v.id, v.up
	for _, t := range []string{timerCheck, timerCheckEnd, timerMerge, timerThere} {
		env.CancelTimer(t)
	}
	v.state, v.coord, v.group = invElection, g.by, g
	v.up, v.found, v.waiting = nil, nil, false
	if wasCoord {
		for _, j := range members {
			env.Send(j, v.groupMsg(KindInvitation, g))
		}
	}
	env.Send(g.by, v.groupMsg(KindAccept, g))
	env.SetTimer(timerReady, 3*v.cfg.answer)
	if env.Tracing() {
		if wasCoord && len(members) > 0 {
			env.Note("INVITATION from %d: I join group %s and pass the invitation to my members %s", m.From, g, AndList(members))
		} else {
			env.Note("INVITATION from %d: I join group %s", m.From, g)
		}
	}
}

// onAccept: "On Accept(g) from j while I form group g: UpSet := UpSet ∪ {j}." One that comes
// after the group is formed is welcomed with its Ready at once.
func (v *Invitation) onAccept(env Env, m Message, g group) {
	if v.coord != v.id || v.group != g || slices.Contains(v.up, m.From) {
		return
	}
	v.up = mergeIDs(v.up, []ID{m.From})
	if v.state == invNormal {
		env.Send(m.From, v.groupMsg(KindReady, g))
	}
}

// Timer handles the invitation algorithm's timers.
func (v *Invitation) Timer(env Env, name string) {
	switch name {
	case timerCheck:
		if v.state == invNormal && v.coord == v.id {
			v.check(env)
		}
	case timerCheckEnd:
		if v.state == invNormal && v.coord == v.id {
			v.checkEnd(env)
		}
	case timerMerge:
		if v.state == invNormal && v.coord == v.id {
			v.merge(env)
		}
	case timerAccepts:
		if v.state == invElection && v.coord == v.id {
			v.accepts(env)
		}
	case timerReady:
		// "No Ready within 3 × answer-timeout: Recovery."
		if v.state == invElection && v.coord != v.id {
			v.recovery(env, fmt.Sprintf("no READY for group %s", v.group))
		}
	case timerThere:
		if v.state != invNormal || v.coord == v.id {
			return
		}
		if !v.waiting {
			v.areYouThere(env)
			return
		}
		// "No answer to AreYouThere within answer-timeout: Recovery."
		v.recovery(env, fmt.Sprintf("my coordinator %d did not answer ARE-YOU-THERE", v.coord))
	}
}

// mergeIDs returns the ids in a or b, ascending, each once.
func mergeIDs(a, b []ID) []ID {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// membersText writes a group's members: "me alone", "me, 1 and 2".
func membersText(me ID, up []ID) string {
	if len(up) == 0 {
		return fmt.Sprintf("%d alone", me)
	}
	return AndList(mergeIDs([]ID{me}, up))
}

// --- Copying and fingerprinting a node (Node.Clone, Node.AppendState)

// Clone returns a copy of the node that shares no list it changes.
func (v *Invitation) Clone() Node {
	c := *v
	c.up, c.found = slices.Clone(v.up), slices.Clone(v.found)
	return &c
}

// AppendState writes the node's id, state, coordinator, group, counter, members, the
// coordinators found by a Check under way and whether an ARE-YOU-THERE is unanswered.
func (v *Invitation) AppendState(b []byte, now time.Duration) []byte {
	b = appendID(b, v.id)
	b = append(b, byte(v.state))
	b = appendID(b, v.coord)
	b = appendID(b, v.group.by)
	b = appendUint(b, v.group.n)
	b = appendUint(b, v.counter)
	for _, list := range [][]ID{v.up, v.found} {
		b = appendUint(b, uint64(len(list)))
		for _, id := range list {
			b = appendID(b, id)
		}
	}
	return appendBool(b, v.waiting)
}
