package algo

import (
	"fmt"
	"slices"
)

// Paxos is leader election as Multi-Paxos does it: L. Lamport, "Paxos Made Simple" (2001), for
// the two phases and their ballots, and R. van Renesse and D. Altinbuken, "Paxos Made Moderately
// Complex" (ACM Computing Surveys, 2015), for the leader that runs phase 1 once and then phase 2
// slot after slot, and for what a preempted leader does.
//
// Every node is a proposer and an acceptor. A ballot is a pair (round, proposer), ordered by
// round and then by proposer; here it is one number, as Lamport suggests ("different proposers
// choose their numbers from disjoint sets of numbers"): among n nodes, the node at position i
// (1..n, by ascending id) owns ballots i, i+n, i+2n, … — ballot (r−1)·n + i is its round r. The
// ballot is the node's term: State.Term is the highest ballot it has promised, which for a
// candidate or a leader is its own.
//
// A node that suspects the leader starts phase 1 (PREPARE, PROMISE or NACK); a majority of
// promises makes it leader of its ballot, and it drives phase 2 (ACCEPT, ACCEPTED) for a small
// log of client writes, one per `writes`: its ACCEPTs are its heartbeats. A value accepted by a
// majority in one ballot is chosen, and the leader says so (CHOSEN).
//
// Two proposers that preempt each other at once can do so for ever, and nothing is ever chosen
// ("Paxos Made Simple", §2.4): the election is what makes progress, and it takes the random
// backoff. Safety is the ballots' job: however many nodes believe they lead, no two values are
// chosen for one slot (consensus-safety), because the acceptors keep their promises and their
// accepted proposals on stable storage (Env.Store), and a new leader re-proposes what a
// majority's promises say may have been chosen.
//
// docs/algorithms.md explains it; each method quotes the rule it implements.
type Paxos struct {
	id   ID
	all  []ID // every node, ascending
	self int  // my position in all: my ballots are self+1, self+1+n, …
	cfg  *paxosConfig

	// The acceptor, kept on stable storage too: the highest ballot it has promised (or heard
	// of in a NACK), and the proposal it last accepted in each slot (Index 0: none).
	promised uint64
	accepted []Entry // by slot − 1

	// The learner: the slots it knows are chosen, from the first, with their values.
	chosen []Entry

	status Status
	leader ID // the node whose ACCEPT of the ballot I promised I last took; 0 if none

	// A proposer in phase 1 (status Candidate) of ballot `ballot`: who has promised, the
	// highest-ballot proposal the promises carried in each slot, and the most chosen slots a
	// promise reported.
	ballot        uint64
	promises      []bool  // by position in all
	offered       []Entry // by slot − 1 (Index 0: no promise carried one)
	offeredChosen uint64

	// A proposer in phase 2 of ballot `led`: its proposals, slot by slot, how many of them from
	// the first it knows are chosen, and the last slot each node has accepted in led. Kept when
	// it is preempted, so that the ACCEPTEDs still on their way tell it what was chosen.
	led   uint64
	log   []Entry
	known uint64
	acked []uint64 // by position in all
	told  uint64   // how many chosen my last ACCEPT said
}

// The message kinds of Paxos.
const (
	KindPrepare     = "PREPARE"  // phase 1a: a proposer asks for promises for its ballot (Term)
	KindPromise     = "PROMISE"  // phase 1b: the promise, with the proposals the acceptor has accepted
	KindNack        = "NACK"     // a refusal, with the higher ballot (Term) the acceptor promised
	KindPaxosAccept = "ACCEPT"   // phase 2a: the leader's proposals not yet chosen; its heartbeat
	KindAccepted    = "ACCEPTED" // phase 2b: the acceptor took them, up to slot Log.Index
	KindChosen      = "CHOSEN"   // the leader tells a node every value chosen so far
)

// Timer names of Paxos (it also uses suspect and write).
const (
	timerRound   = "round"   // a candidate's patience with phase 1
	timerBackoff = "backoff" // a preempted proposer's random wait before phase 1 again
)

// diskPromised is the key of the acceptor's promise on stable storage (each slot's accepted
// ballot and value have keys of their own: paxosConfig.keys). A client write's value is
// 100·id + slot (write): with at most 99 slots, no two proposers' values are alike.
const (
	diskPromised     = "promised"
	paxosMaxSlots    = 99
	paxosValueFactor = 100
)

// NewPaxos returns node id of cluster c, not yet started, with a stable storage of its own that
// nothing has been written to.
func NewPaxos(id ID, c *Cluster) *Paxos {
	i := c.Index(id)
	if i < 0 {
		panic(fmt.Sprintf("algo: node %d is not in the cluster", id))
	}
	cfg := newPaxosConfig(c)
	return &Paxos{id: id, all: c.Sorted, self: i, cfg: cfg, accepted: make([]Entry, cfg.slots)}
}

var _ Node = (*Paxos)(nil)
var _ LogHolder = (*Paxos)(nil)

// State reports the node's status, the leader it follows (itself when it leads) and the highest
// ballot it has promised — its own when it stands or leads.
func (p *Paxos) State() State { return State{Status: p.status, Leader: p.leader, Term: p.promised} }

// majority is more than half of every node, live or not.
func (p *Paxos) majority() int { return len(p.all)/2 + 1 }

// --- Ballots: (round, proposer) as one number

// nextBallot returns the smallest ballot of mine above b.
func (p *Paxos) nextBallot(b uint64) uint64 {
	n, i := uint64(len(p.all)), uint64(p.self+1)
	next := b/n*n + i
	if next <= b {
		next += n
	}
	return next
}

// proposerOf returns the node that owns ballot b (0 for ballot 0, which nobody owns).
func (p *Paxos) proposerOf(b uint64) ID {
	if b == 0 {
		return 0
	}
	return p.all[(b-1)%uint64(len(p.all))]
}

// ballotText writes ballot b for a note: "ballot 5 (round 2 of node 2)".
func (p *Paxos) ballotText(b uint64) string {
	if b == 0 {
		return "ballot 0"
	}
	return fmt.Sprintf("ballot %d (round %d of node %d)", b, (b-1)/uint64(len(p.all))+1, p.proposerOf(b))
}

// write is the client write node id proposes for slot s: 100·id + s, so that a reader sees
// whose it is and two proposers never propose the same value.
func write(id ID, s uint64) uint64 { return uint64(id)*paxosValueFactor + s }

// --- Boot, suspicion, phase 1

// Start: a node boots, or recovers, a follower that knows no leader. What it promised and
// accepted is on stable storage, as Paxos requires ("an acceptor must remember this
// information even if it fails and then restarts"); what it learned and proposed is not.
func (p *Paxos) Start(env Env) {
	p.promised, _ = env.Load(diskPromised)
	for s := range p.accepted {
		p.accepted[s] = Entry{}
		if b, ok := env.Load(p.cfg.keys[s][0]); ok && b > 0 {
			v, _ := env.Load(p.cfg.keys[s][1])
			p.accepted[s] = Entry{Index: uint64(s + 1), Term: b, By: p.proposerOf(b), Value: v}
		}
	}
	p.chosen, p.status, p.leader, p.ballot = nil, Follower, 0, 0
	p.led, p.log, p.known, p.told = 0, nil, 0, 0
	clear(p.promises)
	clear(p.acked)
	env.SetTimer(timerSuspect, p.cfg.timeout)
	if env.Tracing() {
		if p.promised == 0 {
			env.Note("booted: a follower; I wait %s for a leader's ACCEPT", FormatDuration(p.cfg.timeout))
		} else {
			env.Note("restarted: my promise of %s and %s were on stable storage; I wait %s for a leader's ACCEPT",
				p.ballotText(p.promised), countIDs(p.acceptedCount(), "accepted slot"), FormatDuration(p.cfg.timeout))
		}
	}
}

func (p *Paxos) acceptedCount() int {
	n := 0
	for _, e := range p.accepted {
		if e.Index != 0 {
			n++
		}
	}
	return n
}

// Elect: the scenario's `elect` starts phase 1 now, with a higher ballot, whatever the node is
// doing.
func (p *Paxos) Elect(env Env) {
	why := ""
	if env.Tracing() {
		why = fmt.Sprintf("asked to elect (%s)", p.status)
	}
	p.prepare(env, why)
}

// prepare is phase 1a: "A proposer selects a proposal number n and sends a prepare request with
// number n to a majority of acceptors." Here to every node, with the smallest ballot of mine
// above every ballot I know; my own acceptor promises it first, on stable storage.
func (p *Paxos) prepare(env Env, why string) {
	env.CancelTimer(timerSuspect)
	env.CancelTimer(timerBackoff)
	env.CancelTimer(timerWrite)
	p.ballot = p.nextBallot(p.promised)
	p.promise(env, p.ballot)
	p.status, p.leader = Candidate, 0
	if p.promises == nil {
		p.promises = make([]bool, len(p.all))
	}
	clear(p.promises)
	p.offered, p.offeredChosen = slices.Grow(p.offered[:0], p.cfg.slots)[:p.cfg.slots], 0
	clear(p.offered)
	p.onPromise(env, p.id, p.ballot, p.promiseLog())
	if p.status != Candidate {
		return // alone, I lead at once
	}
	for _, j := range p.all {
		if j != p.id {
			env.Send(j, Message{Kind: KindPrepare, Term: p.ballot})
		}
	}
	env.SetTimer(timerRound, p.cfg.timeout)
	if env.Tracing() {
		env.Note("%s: candidate with %s — PREPARE to the %s; %d of %d promises make me leader",
			why, p.ballotText(p.ballot), countIDs(len(p.all)-1, "other node"), p.majority(), len(p.all))
	}
}

// promise makes my acceptor promise ballot b, on stable storage before any answer leaves.
func (p *Paxos) promise(env Env, b uint64) {
	if b > p.promised {
		p.promised = b
		env.Store(diskPromised, b)
	}
}

// onPrepare is phase 1b: "If an acceptor receives a prepare request with number n greater than
// that of any prepare request to which it has already responded, then it responds to the
// request with a promise not to accept any more proposals numbered less than n and with the
// highest-numbered proposal (if any) that it has accepted." Here with every slot's. Otherwise
// it answers NACK with the ballot it promised — Lamport's suggestion, so that the proposer
// abandons its proposal rather than wait.
func (p *Paxos) onPrepare(env Env, m Message) {
	if m.Term <= p.promised {
		env.Send(m.From, Message{Kind: KindNack, Term: p.promised})
		if env.Tracing() {
			env.Note("PREPARE from %d with %s: I promised %s already — NACK", m.From, p.ballotText(m.Term), p.ballotText(p.promised))
		}
		return
	}
	was, mine := p.status, p.ballot
	p.promise(env, m.Term)
	env.Send(m.From, Message{Kind: KindPromise, Term: m.Term, Log: p.promiseLog()})
	if was != Follower {
		p.preempted(env, fmt.Sprintf("PREPARE from %d with %s, above my %s: I promise it", m.From, p.ballotText(m.Term), p.ballotText(mine)))
		return
	}
	p.leader = 0                  // my leader's ballot is below my promise: I will refuse its ACCEPTs
	env.CancelTimer(timerBackoff) // someone stands: I give it a whole timeout
	env.SetTimer(timerSuspect, p.cfg.timeout)
	if env.Tracing() {
		env.Note("PREPARE from %d with %s: I promise it, with %s; I wait %s for its ACCEPT",
			m.From, p.ballotText(m.Term), countIDs(p.acceptedCount(), "accepted slot"), FormatDuration(p.cfg.timeout))
	}
}

// onPromise counts a PROMISE for my ballot b — my own acceptor's too — and keeps, slot by slot,
// the highest-ballot proposal it carries: "the highest-numbered proposal among the responses".
func (p *Paxos) onPromise(env Env, from ID, b uint64, l *LogPart) {
	if p.status != Candidate || b != p.ballot {
		return // an answer to an earlier ballot of mine
	}
	i, ok := slices.BinarySearch(p.all, from)
	if !ok || p.promises[i] {
		return
	}
	p.promises[i] = true
	if l != nil {
		p.offeredChosen = max(p.offeredChosen, l.Commit)
		for _, e := range l.Entries {
			if e.Index >= 1 && e.Index <= uint64(p.cfg.slots) && e.Term > p.offered[e.Index-1].Term {
				p.offered[e.Index-1] = e
			}
		}
	}
	n := 0
	for _, ok := range p.promises {
		if ok {
			n++
		}
	}
	if n >= p.majority() {
		p.lead(env, n)
	} else if from != p.id && env.Tracing() {
		env.Note("PROMISE from %d for %s: %d of %d, %d make me leader", from, p.ballotText(b), n, len(p.all), p.majority())
	}
}

// onNack: a NACK of a ballot above mine means my proposal is abandoned — I was preempted by a
// higher ballot, which my acceptor now knows of too.
func (p *Paxos) onNack(env Env, m Message) {
	if p.status == Follower || m.Term <= p.ballot {
		return // an old refusal, or I stand no more
	}
	mine := p.ballot
	p.promise(env, m.Term)
	p.preempted(env, fmt.Sprintf("NACK from %d: it promised %s, above my %s", m.From, p.ballotText(m.Term), p.ballotText(mine)))
}

// preempted: a higher ballot has come, so mine will not be chosen. A preempted leader may
// become active again with a higher ballot (Paxos Made Moderately Complex): with backoff off
// at once — two proposers that do so can preempt each other for ever — and with backoff on
// after a random wait, in which a winner's ACCEPT makes it follow instead.
func (p *Paxos) preempted(env Env, why string) {
	env.CancelTimer(timerRound)
	env.CancelTimer(timerWrite)
	p.status, p.leader = Follower, 0
	p.forgetDone()
	p.retry(env, why+" — preempted")
}

// retry starts phase 1 again after a preemption or a failed round: at once, or after a backoff.
func (p *Paxos) retry(env Env, why string) {
	if !p.cfg.backoff {
		p.prepare(env, why+"; no backoff, so at once")
		return
	}
	d := drawDuration(env, p.cfg.backoffLo, p.cfg.backoffHi)
	env.CancelTimer(timerSuspect)
	env.SetTimer(timerBackoff, d)
	if env.Tracing() {
		env.Note("%s; I back off %s before phase 1 again, unless a leader's ACCEPT comes first", why, msText(d))
	}
}

// --- Phase 2: the leader's log

// lead: "If the proposer receives a response to its prepare requests (numbered n) from a
// majority of acceptors, then it sends an accept request to each of those acceptors for a
// proposal numbered n with a value v, where v is the value of the highest-numbered proposal
// among the responses, or is any value if the responses reported no proposals." For every slot
// at once, up to the last any promise carried: a slot none carried takes a client write of mine.
// A slot a promise says is chosen is chosen with that value, since every proposal accepted in
// its ballot or a later one has it.
func (p *Paxos) lead(env Env, promises int) {
	env.CancelTimer(timerRound)
	p.status, p.leader, p.led = Leader, p.id, p.ballot
	last := len(p.chosen)
	for s, e := range p.offered {
		if e.Index != 0 {
			last = max(last, s+1)
		}
	}
	p.log = make([]Entry, last, p.cfg.slots)
	adopted := 0
	for s := range p.log {
		v := write(p.id, uint64(s+1))
		switch {
		case s < len(p.chosen):
			v = p.chosen[s].Value
		case p.offered[s].Index != 0:
			v = p.offered[s].Value
			adopted++
		}
		p.log[s] = Entry{Index: uint64(s + 1), Term: p.led, By: p.id, Value: v}
	}
	p.known = min(max(uint64(len(p.chosen)), p.offeredChosen), uint64(last))
	if p.known > uint64(len(p.chosen)) {
		p.chosen = slices.Clone(p.log[:p.known])
	}
	if p.acked == nil {
		p.acked = make([]uint64, len(p.all))
	}
	clear(p.acked)
	if env.Tracing() {
		what := "no proposal"
		switch {
		case uint64(last) > p.known:
			what = fmt.Sprintf("proposals up to slot %d, %d known chosen: I propose slots %d to %d again in my ballot, %d with a value a promise carried",
				last, p.known, p.known+1, last, adopted)
		case last > 0:
			what = fmt.Sprintf("proposals up to slot %d, all known chosen", last)
		}
		env.Note("%d of %d promises for %s → leader; they carried %s", promises, len(p.all), p.ballotText(p.led), what)
	}
	p.propose(env)
	env.SetTimer(timerWrite, p.cfg.writes)
}

// propose is phase 2a, at once on leading and every `writes` after: a new client write when
// every slot I proposed is chosen and the log has room for it, and ACCEPT to every node with
// every proposal of mine not yet known chosen — with none, ACCEPT is the heartbeat alone. My
// own acceptor accepts them first.
func (p *Paxos) propose(env Env) {
	if p.known == uint64(len(p.log)) && len(p.log) < p.cfg.slots {
		s := uint64(len(p.log) + 1)
		p.log = append(p.log, Entry{Index: s, Term: p.led, By: p.id, Value: write(p.id, s)})
		if env.Tracing() {
			env.Note("a client write: I propose %d for slot %d in %s", write(p.id, s), s, p.ballotText(p.led))
		}
	}
	pending := p.log[p.known:len(p.log):len(p.log)] // shared by the messages: never changed
	for _, e := range pending {
		p.acceptEntry(env, p.led, e)
	}
	p.acked[p.self] = uint64(len(p.log))
	l := &LogPart{Index: uint64(len(p.log)), IndexTerm: p.led, Commit: p.known, Entries: pending}
	p.told = p.known
	for _, j := range p.all {
		if j != p.id {
			env.Send(j, Message{Kind: KindPaxosAccept, Term: p.led, Log: l})
		}
	}
	p.learn(env)
}

// acceptEntry makes my acceptor accept proposal e in ballot b, on stable storage.
func (p *Paxos) acceptEntry(env Env, b uint64, e Entry) {
	s := e.Index - 1
	e.Term, e.By = b, p.proposerOf(b)
	if p.accepted[s] == e {
		return
	}
	p.accepted[s] = e
	env.Store(p.cfg.keys[s][0], b)
	env.Store(p.cfg.keys[s][1], e.Value)
}

// onAccept is phase 2b: "If an acceptor receives an accept request for a proposal numbered n,
// it accepts the proposal unless it has already responded to a prepare request having a number
// greater than n." It answers ACCEPTED, with the last slot it took and how many it knows are
// chosen. And it follows the sender: a leader it hears from is what the election is for — a
// candidate stops standing, a preempted proposer stops waiting to stand again.
func (p *Paxos) onAccept(env Env, m Message) {
	if m.Term < p.promised {
		env.Send(m.From, Message{Kind: KindNack, Term: p.promised})
		if env.Tracing() {
			env.Note("ACCEPT from %d with %s: I promised %s — NACK", m.From, p.ballotText(m.Term), p.ballotText(p.promised))
		}
		return
	}
	p.promise(env, m.Term)
	last := uint64(0)
	if m.Log != nil {
		for _, e := range m.Log.Entries {
			if e.Index >= 1 && e.Index <= uint64(p.cfg.slots) {
				p.acceptEntry(env, m.Term, e)
				last = e.Index
			}
		}
	}
	env.Send(m.From, Message{Kind: KindAccepted, Term: m.Term, Log: acceptedLog(last, m.Term, uint64(len(p.chosen)))})
	was, known := p.status, p.leader == m.From
	env.CancelTimer(timerRound)
	env.CancelTimer(timerWrite)
	env.CancelTimer(timerBackoff)
	p.status, p.leader = Follower, m.From
	env.SetTimer(timerSuspect, p.cfg.timeout)
	if !env.Tracing() {
		return
	}
	switch {
	case was == Leader:
		env.Note("ACCEPT from %d with %s, above my %s: it leads now, I follow it", m.From, p.ballotText(m.Term), p.ballotText(p.led))
	case was == Candidate:
		env.Note("ACCEPT from %d with %s: it won, I stop standing and follow it", m.From, p.ballotText(m.Term))
	case !known:
		env.Note("ACCEPT from %d with %s: %d leads, I follow it; I wait %s for the next", m.From, p.ballotText(m.Term), m.From, FormatDuration(p.cfg.timeout))
	}
}

// onAccepted counts what each acceptor took in my ballot led — after I was preempted too: a
// value accepted by a majority is chosen whoever leads now. A node that knows fewer chosen
// values than my last ACCEPT said are chosen — it missed a CHOSEN — is told them again.
func (p *Paxos) onAccepted(env Env, m Message) {
	if p.led == 0 || m.Term != p.led {
		return
	}
	i, ok := slices.BinarySearch(p.all, m.From)
	if !ok {
		return
	}
	var l LogPart
	if m.Log != nil {
		l = *m.Log
	}
	p.acked[i] = max(p.acked[i], min(l.Index, uint64(len(p.log))))
	if !p.learn(env) && p.status == Leader && l.Commit < p.told {
		env.Send(m.From, Message{Kind: KindChosen, Term: p.led, Log: p.chosenLog()})
	}
}

// learn: "a value is chosen when a large enough set of acceptors have accepted it" — a
// majority. It finds the slots of my log accepted by a majority in ballot led, and tells every node
// of them. It reports whether it did.
func (p *Paxos) learn(env Env) bool {
	before := p.known
	for s := p.known + 1; s <= uint64(len(p.log)); s++ {
		n := 0
		for _, a := range p.acked {
			if a >= s {
				n++
			}
		}
		if n < p.majority() {
			break
		}
		p.known = s
	}
	if p.known == before {
		return false
	}
	if p.known > uint64(len(p.chosen)) {
		p.chosen = slices.Clone(p.log[:p.known])
	}
	l := p.chosenLog()
	for _, j := range p.all {
		if j != p.id {
			env.Send(j, Message{Kind: KindChosen, Term: p.led, Log: l})
		}
	}
	if env.Tracing() {
		e := p.log[p.known-1]
		env.Note("slot %d chosen: %d, accepted by a majority in %s — CHOSEN to every node", e.Index, e.Value, p.ballotText(p.led))
	}
	if p.status != Leader {
		p.forgetDone()
	}
	return true
}

// forgetDone forgets the proposals of a ballot I lead no more once all of them are known
// chosen: no ACCEPTED can tell me more.
func (p *Paxos) forgetDone() {
	if p.known == uint64(len(p.log)) {
		p.led, p.log, p.known, p.told = 0, nil, 0, 0
		clear(p.acked)
	}
}

// onChosen: a distinguished learner, "each of which can then inform all the learners when a
// value has been chosen" — here the leader. A chosen value stays chosen: whichever ballot's leader tells it, a node
// learns the values it did not know.
func (p *Paxos) onChosen(env Env, m Message) {
	if m.Log == nil || len(m.Log.Entries) <= len(p.chosen) || len(m.Log.Entries) > p.cfg.slots {
		return
	}
	for k, e := range m.Log.Entries {
		if e.Index != uint64(k+1) {
			return // not a log from the first slot on
		}
	}
	p.chosen = slices.Clone(m.Log.Entries)
}

// Receive dispatches a message by kind.
func (p *Paxos) Receive(env Env, m Message) {
	switch m.Kind {
	case KindPrepare:
		p.onPrepare(env, m)
	case KindPromise:
		p.onPromise(env, m.From, m.Term, m.Log)
	case KindNack:
		p.onNack(env, m)
	case KindPaxosAccept:
		p.onAccept(env, m)
	case KindAccepted:
		p.onAccepted(env, m)
	case KindChosen:
		p.onChosen(env, m)
	}
}

// Timer handles the four timers: suspicion, a round of phase 1, the backoff, the next write.
func (p *Paxos) Timer(env Env, name string) {
	switch name {
	case timerSuspect:
		// A node that suspects the leader starts phase 1 with a higher ballot.
		if p.status == Follower {
			why := fmt.Sprintf("no leader's ACCEPT for %s", FormatDuration(p.cfg.timeout))
			if p.leader != 0 {
				why = fmt.Sprintf("no ACCEPT from %d, my leader, for %s", p.leader, FormatDuration(p.cfg.timeout))
			}
			p.prepare(env, why)
		}
	case timerRound:
		if p.status == Candidate {
			p.status = Follower
			p.retry(env, fmt.Sprintf("phase 1 of %s failed: no majority of promises in %s", p.ballotText(p.ballot), FormatDuration(p.cfg.timeout)))
		}
	case timerBackoff:
		if p.status == Follower && p.leader == 0 {
			p.prepare(env, "backed off, and heard no leader meanwhile")
		}
	case timerWrite:
		if p.status == Leader {
			p.propose(env)
			env.SetTimer(timerWrite, p.cfg.writes)
		}
	}
}
