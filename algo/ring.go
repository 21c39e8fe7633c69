package algo

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// Ring is the ring election of E. Chang and R. Roberts, "An improved algorithm for
// decentralized extrema-finding in circular configurations of processes", Communications of the
// ACM 22(5), 1979: the nodes sit on a logical ring (the scenario's ring order), messages go one
// way round it, and the highest id wins. Every node that starts an election sends its own id
// round the ring; a node passes on only ids higher than its own, so every id but the highest is
// swallowed somewhere, and the highest comes back to its owner, which is then elected.
//
// The paper assumes no failures. To survive them this node adds three things, none of which
// changes what happens when nothing fails:
//
//   - Every ELECTION and ELECTED hop is acknowledged. A node that hears no ACK from its
//     successor within answer-timeout suspects it and passes the message to the next node
//     round the ring instead. It skips a suspect until it hears from it again, or for a while
//     (suspicion, below) — long enough for an election to get round past it, short enough that
//     a node that recovers is tried again. Skipping is progress: it restarts the election
//     timer, so that a node busy finding its way round dead nodes does not give up.
//   - Every election has a round number, carried in the message's Term. A node that hears of a
//     newer round joins it, forgetting the old one; a message of an older round is stale:
//     ELECTED is dropped, and ELECTION — someone asking for an election — starts a new round
//     unless one is already under way. Without rounds, the leftovers of elections interrupted by
//     crashes and partitions would keep restarting each other.
//   - Within a round a node passes each candidate's ELECTION and each ELECTED on once: a lost
//     ACK can make a message go round twice (the successor may have got it after all).
//
// With `set ack off` the first goes — no ACKs, no skipping — and the node is the paper's: what
// `electsim bench` measures, and what a dead successor stops.
//
// On the ring topology a node can send to its successor alone, so it is the paper's algorithm
// there: no ACKs (`set ack on` is refused), no heartbeats, one election from boot.
//
// The leader sends HEARTBEAT to every node, as in Bully. The rules are those of
// docs/algorithms.md (Ring); each method quotes the rule it implements.
type Ring struct {
	// The fields an ELECTION passing through touches come first (docs/performance.md).
	cfg         *ringConfig          // the ring order and timing, shared by every node
	suspect     map[ID]time.Duration // successors that did not ACK, skipped until the time given
	id          ID
	next        ID     // my neighbour round the ring: my successor while I suspect nobody
	round       uint64 // the newest election round I know of
	leader      ID     // the leader I know of, 0 if none
	status      Status
	participant bool // I have taken part in this round
	lapDone     bool // my own ELECTED has come back round this round

	pos       int   // my position in the ring
	passed    idSet // candidates whose ELECTION I passed on (or sent) this round, with ACKs on
	announced idSet // leaders whose ELECTED I passed on (or sent) this round
	pending   []hop // ELECTION and ELECTED sent and not yet acknowledged, oldest first
}

// hop is a message sent to the successor, waiting for its ACK.
type hop struct {
	to     ID
	m      Message
	sentAt time.Duration
}

// The message kinds of Ring besides ELECTION and HEARTBEAT, which Bully sends too (common.go).
const (
	KindElected = "ELECTED"
	KindAck     = "ACK"
)

type ringConfig struct {
	ring                                 []ID // every node, in ring order
	heartbeat, timeout, answer, election time.Duration
	suspicion                            time.Duration // how long a successor that did not ACK is skipped
	ack                                  bool          // hops are acknowledged, and dead successors skipped
	// watch: the leader sends HEARTBEAT to every node and followers watch for it. Only on the
	// complete topology: on a ring a node can send to its successor alone, and runs the paper's
	// algorithm — no ACKs, no heartbeats — which elects once and assumes nothing fails.
	watch bool
}

func ringInfo() *Info {
	return &Info{
		Name:    "ring",
		Summary: "Chang and Roberts' ring election (1979): the highest id wins, messages go one way round",
		Kinds:   []string{KindElection, KindElected, KindAck, KindHeartbeat},
		Routine: []string{KindHeartbeat, KindAck},
		Params: []Param{paramHeartbeat, paramTimeout,
			{Key: "answer-timeout", Kind: DurationParam, Default: "50ms",
				Help: "wait this long for the successor's ACK before skipping it; must exceed 2× the max delay"},
			{Key: "election-timeout", Kind: DurationParam, Default: "(2n+2) × the max delay",
				Help: "a participant that sees no ELECTED for this long starts the election again"},
			{Key: "ack", Kind: SwitchParam, Default: "on",
				Help: "off: no ACKs — the paper's algorithm, which assumes no node fails; a dead successor stops the election until election-timeout (off, and no heartbeats, on the ring topology)"}},
		Topologies: []string{Complete, UniRing},
		Validate: func(c *Cluster) error {
			if v, ok := c.Params["ack"]; ok && v.On && !c.Topology.IsComplete() {
				return fmt.Errorf("ring: ack on needs the complete topology (a node that skips a dead successor sends to a node that is not its neighbour); on the %s topology ack is off", c.Topology.Name())
			}
			return nil
		},
		Recovers: true,
		Winner:   Highest,
		Guarantees: []Guarantee{{Property: "at-most-one-leader", Faults: "yynnnn-",
			Why: "an election round a part of the ring elects a leader there while the old one still leads elsewhere"}},
		New: func(id ID, c *Cluster) Node { return NewRing(id, c) },
		Warnings: func(c *Cluster) []string {
			cfg := newRingConfig(c)
			w := timingWarnings(c, cfg.heartbeat, cfg.timeout, cfg.answer, "ACK")
			if round := time.Duration(2*len(c.Ring)) * c.MaxDelay; cfg.election <= round {
				w = append(w, fmt.Sprintf("election-timeout %s is not more than 2n × the max delay (%s): participants may give up before ELECTED can come round, and start again",
					FormatDuration(cfg.election), FormatDuration(round)))
			}
			return w
		},
	}
}

func newRingConfig(c *Cluster) *ringConfig {
	return sharedConfig(c, "ring", makeRingConfig)
}

func makeRingConfig(c *Cluster) *ringConfig {
	p := c.Params
	cfg := &ringConfig{
		ring:      c.Ring,
		heartbeat: p.Duration("heartbeat", 50*time.Millisecond),
		timeout:   p.Duration("timeout", 150*time.Millisecond),
		answer:    p.Duration("answer-timeout", 50*time.Millisecond),
		// Long enough for the highest id to go round (n hops) and ELECTED after it (n hops).
		election: p.Duration("election-timeout", time.Duration(2*len(c.Ring)+2)*max(c.MaxDelay, time.Millisecond)),
		ack:      p.Switch("ack", c.Topology.IsComplete()),
		watch:    c.Topology.IsComplete(),
	}
	// Long enough to skip past every other node once; at least a few follower timeouts.
	cfg.suspicion = max(4*cfg.timeout, time.Duration(len(c.Ring)+1)*cfg.answer)
	return cfg
}

// NewRing returns node id of cluster c, not yet started.
func NewRing(id ID, c *Cluster) *Ring {
	pos := c.RingPos(id)
	if pos < 0 {
		panic(fmt.Sprintf("algo: node %d is not in the cluster", id))
	}
	cfg := newRingConfig(c)
	return &Ring{id: id, next: cfg.ring[(pos+1)%len(cfg.ring)], pos: pos, cfg: cfg}
}

var _ Node = (*Ring)(nil)

// State reports the node's status, the leader it knows of (0 if none) and term 0: rounds are
// the node's own business.
func (r *Ring) State() State { return State{Status: r.status, Leader: r.leader} }

// Start: "Boot / recover: initiate."
func (r *Ring) Start(env Env) { r.initiate(env, "booted") }

// Elect: "`elect`: initiate."
func (r *Ring) Elect(env Env) { r.initiate(env, "asked to elect") }

// initiate: "participant = true, status Candidate, send ELECTION(me) to the successor" — in a
// new round.
func (r *Ring) initiate(env Env, why string) {
	env.CancelTimer(timerSuspect)
	env.CancelTimer(timerHeartbeat)
	r.status, r.leader = Candidate, 0
	r.enter(r.round + 1)
	r.participant = true
	r.passed.add(r.id)
	to := r.pass(env, Message{Kind: KindElection, Value: r.id, Term: r.round})
	env.SetTimer(timerElection, r.cfg.election)
	if env.Tracing() {
		env.Note("%s: I start election round %d — ELECTION(%d) to my successor %d", why, r.round, r.id, to)
	}
}

// enter makes round the current one, forgetting everything about the rounds before it.
func (r *Ring) enter(round uint64) {
	r.round = round
	r.participant = false
	r.lapDone = false
	r.passed.clear()
	r.announced.clear()
}

// Receive handles ELECTION, ELECTED, ACK and HEARTBEAT. Every ELECTION and ELECTED is
// acknowledged first. Hearing from a node clears any suspicion of it.
func (r *Ring) Receive(env Env, m Message) {
	delete(r.suspect, m.From)
	switch m.Kind {
	case KindElection:
		r.acknowledge(env, m)
		r.onElection(env, m.Value, m.Term)
	case KindElected:
		r.acknowledge(env, m)
		r.onElected(env, m.Value, m.Term)
	case KindAck:
		r.onAck(env, m)
	case KindHeartbeat:
		r.onHeartbeat(env, m.From)
	}
}

// acknowledge answers an ELECTION or ELECTED hop with ACK, unless ACKs are off.
func (r *Ring) acknowledge(env Env, m Message) {
	if r.cfg.ack {
		env.Send(m.From, Message{Kind: KindAck, Value: m.Value, Term: m.Term})
	}
}

// onElection: "x > me: forward ELECTION(x), participant = true. x < me: if not a participant,
// send ELECTION(me) and participant = true; else swallow it. x = me: I am elected: status
// Leader, participant = false, send ELECTED(me)."
//
// Before the paper's three cases come two of the additions that keep the ring sane when nodes
// fail (see Ring): an ELECTION of a round that is over is old news (electionRound), and within
// a round a copy is swallowed (electionCopy).
func (r *Ring) onElection(env Env, x ID, round uint64) {
	why, goOn := r.electionRound(env, x, round)
	if !goOn || r.electionCopy(env, why, x) {
		return
	}
	switch {
	case x > r.id:
		r.participant = true
		if r.cfg.ack {
			r.passed.add(x) // only ACKs lost and resent make copies to swallow
		}
		to := r.pass(env, Message{Kind: KindElection, Value: x, Term: r.round})
		env.SetTimer(timerElection, r.cfg.election)
		if env.Tracing() {
			env.Note("%sELECTION(%d) > me (%d): passed on to %d", why, x, r.id, to)
		}
	case x < r.id:
		if !r.participant {
			r.sendOwnElection(env, why, x)
		} else if env.Tracing() {
			env.Note("%sELECTION(%d) < me (%d), already a participant: swallowed", why, x, r.id)
		}
	default: // x = me
		env.CancelTimer(timerElection)
		env.CancelTimer(timerSuspect)
		r.participant = false
		r.announced.add(r.id)
		r.status, r.leader = Leader, r.id
		to := r.pass(env, Message{Kind: KindElected, Value: r.id, Term: r.round})
		if r.cfg.watch {
			env.SetTimer(timerHeartbeat, r.cfg.heartbeat)
		}
		if env.Tracing() {
			env.Note("%smy ELECTION(%d) came all the way round: I am elected — ELECTED(%d) to %d", why, r.id, r.id, to)
		}
	}
}

// electionRound places an ELECTION(x) of the given round. A newer round is joined. A round
// that is over — an older one, or mine after its ELECTED — is old news: a late copy, or a node
// that recovered and asks for an election. A node with an election under way swallows it; an
// idle node holds a new round for it, unless x could not beat the leader it already has. It
// reports whether the ELECTION goes on to the paper's cases, and, when it began a new round,
// why, for the note.
func (r *Ring) electionRound(env Env, x ID, round uint64) (why string, goOn bool) {
	switch {
	case round > r.round:
		r.enter(round)
	case round < r.round && r.participant:
		if env.Tracing() {
			env.Note("ELECTION(%d) of round %d, older than round %d, which is under way: swallowed", x, round, r.round)
		}
		return "", false
	case round < r.round || r.over():
		if l := r.leader; l != 0 && x <= l {
			if env.Tracing() {
				env.Note("ELECTION(%d) of round %d, which is over: swallowed, %d could not beat my leader %d", x, round, x, l)
			}
			return "", false
		}
		r.enter(r.round + 1)
		why = fmt.Sprintf("ELECTION(%d) of round %d, which is over, and no leader it could not beat: round %d begins — ", x, round, r.round)
		if x == r.id {
			// My own id, moved into a new round: it has not gone round in it, so it starts
			// out now.
			r.sendOwnElection(env, why, x)
			return "", false
		}
	}
	return why, true
}

// electionCopy swallows an ELECTION(x) this node has seen already this round, and reports
// whether it did: a candidate it passed on (only a lost ACK, and the message sent again, makes
// such a copy), or its own id after it was elected.
func (r *Ring) electionCopy(env Env, why string, x ID) bool {
	switch {
	case x > r.id && r.cfg.ack && r.passed.has(x):
		if env.Tracing() {
			env.Note("%sELECTION(%d) again this round: a copy I already passed on, swallowed", why, x)
		}
	case x == r.id && r.announced.has(r.id):
		if env.Tracing() {
			env.Note("%smy ELECTION(%d) came round again, but I was elected this round already: swallowed", why, x)
		}
	default:
		return false
	}
	return true
}

// sendOwnElection: "send ELECTION(me) and participant = true" — for an ELECTION(x) of a round
// this node had no part in yet.
func (r *Ring) sendOwnElection(env Env, why string, x ID) {
	r.participant = true
	r.passed.add(r.id)
	to := r.pass(env, Message{Kind: KindElection, Value: r.id, Term: r.round})
	env.SetTimer(timerElection, r.cfg.election)
	if env.Tracing() {
		env.Note("%sELECTION(%d) and I had not taken part: ELECTION(%d) to %d", why, x, r.id, to)
	}
}

// over reports whether the current round has ended here: its ELECTED has been passed on, or
// has come back to its leader.
func (r *Ring) over() bool { return !r.participant && !r.announced.empty() }

// onElected: "participant = false, leader = x, status Follower (unless x = me); forward it
// unless x = me (the round ends back at the leader: n ELECTED messages)." A node higher than x
// does not follow it — the highest id is to win, and x was elected by an election it had no
// part in: it swallows the ELECTED and, unless it already follows a leader above itself,
// starts an election of its own.
func (r *Ring) onElected(env Env, x ID, round uint64) {
	if x == r.id {
		// My own ELECTED: the end of my lap, or a copy, or the news of a round I was not
		// elected in (I crashed and came back since).
		if round == r.round && r.announced.has(x) && !r.lapDone {
			r.lapDone = true
			if env.Tracing() {
				env.Note("ELECTED(%d) came back round: every node knows", x)
			}
		} else if env.Tracing() {
			env.Note("ELECTED(%d) of round %d: a copy, or news of an election before my crash — dropped", x, round)
		}
		return
	}
	switch {
	case round > r.round:
		r.enter(round)
	case round < r.round:
		if env.Tracing() {
			env.Note("ELECTED(%d) of round %d, older than round %d: stale, dropped", x, round, r.round)
		}
		return
	}
	switch {
	case r.announced.has(x):
		if env.Tracing() {
			env.Note("ELECTED(%d) again this round: a copy I already passed on, swallowed", x)
		}
		return
	case x < r.id && r.status != Leader && r.leader < r.id:
		r.initiate(env, fmt.Sprintf("ELECTED(%d), but I am higher and had no part in that election", x))
		return
	case x < r.id:
		if env.Tracing() {
			env.Note("ELECTED(%d), but I am higher and %d leads: swallowed", x, r.leader)
		}
		return
	}
	env.CancelTimer(timerElection)
	env.CancelTimer(timerHeartbeat)
	if r.cfg.watch {
		env.SetTimer(timerSuspect, r.cfg.timeout)
	}
	r.participant = false
	r.announced.add(x)
	r.status, r.leader = Follower, x
	to := r.pass(env, Message{Kind: KindElected, Value: x, Term: r.round})
	if env.Tracing() {
		env.Note("ELECTED(%d): %d leads; passed on to %d", x, x, to)
	}
}

// pass sends m to the successor — the next node round the ring that is not suspected — and,
// with ACKs on, waits for its ACK. It returns the node it sent to.
func (r *Ring) pass(env Env, m Message) ID {
	to := r.successor(env.Now())
	env.Send(to, m)
	if !r.cfg.ack {
		return to // the paper's ring: nobody fails, nobody waits
	}
	r.pending = append(r.pending, hop{to: to, m: m, sentAt: env.Now()})
	if len(r.pending) == 1 {
		env.SetTimer(timerAnswer, r.cfg.answer)
	}
	return to
}

// successor is the next node round the ring that is not suspected at time now. When every
// other node is suspected, it is the node itself: its message comes straight back.
func (r *Ring) successor(now time.Duration) ID {
	if len(r.suspect) == 0 {
		return r.next // nobody suspected: my neighbour
	}
	for k := 1; k < len(r.cfg.ring); k++ {
		next := r.cfg.ring[(r.pos+k)%len(r.cfg.ring)]
		if until, ok := r.suspect[next]; !ok || until <= now {
			return next
		}
	}
	return r.id
}

// onAck: the oldest message waiting on the ACK's sender, with the value and round the ACK
// echoes, has arrived.
func (r *Ring) onAck(env Env, ack Message) {
	for i, h := range r.pending {
		if h.to == ack.From && h.m.Value == ack.Value && h.m.Term == ack.Term {
			r.pending = append(r.pending[:i], r.pending[i+1:]...)
			break
		}
	}
	r.armAnswer(env)
}

// armAnswer sets the answer timer for the oldest message still waiting, or cancels it.
func (r *Ring) armAnswer(env Env) {
	if len(r.pending) == 0 {
		env.CancelTimer(timerAnswer)
		return
	}
	env.SetTimer(timerAnswer, max(r.pending[0].sentAt+r.cfg.answer-env.Now(), 0))
}

// onAnswerTimeout: "No ACK within answer-timeout ⇒ mark the successor suspect and resend to the
// next one round the ring." Messages of rounds that are over are not sent again.
func (r *Ring) onAnswerTimeout(env Env) {
	// A message of a round that is over needs no answer any more: let it go, suspect nobody.
	stale := false
	for len(r.pending) > 0 && r.pending[0].m.Term != r.round {
		r.pending = r.pending[1:]
		stale = true
	}
	if len(r.pending) == 0 {
		return
	}
	if stale && r.pending[0].sentAt+r.cfg.answer > env.Now() {
		r.armAnswer(env) // the oldest message still waiting is not overdue yet
		return
	}
	dead := r.pending[0].to
	if r.suspect == nil {
		r.suspect = map[ID]time.Duration{}
	}
	r.suspect[dead] = env.Now() + r.cfg.suspicion
	var resend []Message
	kept := r.pending[:0]
	for _, h := range r.pending {
		switch {
		case h.to != dead:
			kept = append(kept, h)
		case h.m.Term == r.round:
			resend = append(resend, h.m)
		}
	}
	r.pending = kept
	to := r.successor(env.Now())
	for _, m := range resend {
		r.pass(env, m)
	}
	r.armAnswer(env)
	if r.participant && len(resend) > 0 {
		env.SetTimer(timerElection, r.cfg.election)
	}
	if env.Tracing() {
		env.Note("no ACK from %d within %s → I suspect it and skip to %d", dead, FormatDuration(r.cfg.answer), to)
	}
}

// onHeartbeat: "a node that hears HEARTBEAT from a leader higher than its own follows it; a
// leader that hears one from a higher leader steps down; from a lower one, answers with its own
// HEARTBEAT." A HEARTBEAT from my leader renews my patience with it. A node never defers to a
// leader lower than itself — the highest id is to win: if it has no leader above itself, it
// starts an election (or lets the one it is in run on).
func (r *Ring) onHeartbeat(env Env, k ID) {
	switch {
	case r.status == Leader && k < r.id:
		env.Send(k, Message{Kind: KindHeartbeat})
		if env.Tracing() {
			env.Note("HEARTBEAT from lower leader %d: I lead, so I answer with my own", k)
		}
	case k < r.id && r.leader < r.id && !r.participant:
		r.initiate(env, fmt.Sprintf("HEARTBEAT from %d, a leader lower than me", k))
	case k < r.id && r.leader < r.id:
		if env.Tracing() {
			env.Note("HEARTBEAT from %d: ignored, I am higher and an election is running", k)
		}
	case r.leader == k:
		env.SetTimer(timerSuspect, r.cfg.timeout)
	case r.leader == 0 || k > r.leader:
		wasLeader := r.status == Leader
		env.CancelTimer(timerHeartbeat)
		env.CancelTimer(timerElection)
		env.SetTimer(timerSuspect, r.cfg.timeout)
		r.participant = false
		r.status, r.leader = Follower, k
		if env.Tracing() {
			if wasLeader {
				env.Note("HEARTBEAT from %d, a higher leader: I step down and follow it", k)
			} else {
				env.Note("HEARTBEAT from %d: it leads, and it is higher than any leader I knew", k)
			}
		}
	default:
		if env.Tracing() {
			env.Note("HEARTBEAT from %d: ignored, I follow %d, which is higher", k, r.leader)
		}
	}
}

// Timer handles the four timers of Ring.
func (r *Ring) Timer(env Env, name string) {
	switch name {
	case timerAnswer:
		r.onAnswerTimeout(env)
	case timerElection:
		// "Participant timeout: a participant that sees no ELECTED initiates again."
		if r.participant {
			r.initiate(env, fmt.Sprintf("no ELECTED within %s", FormatDuration(r.cfg.election)))
		}
	case timerHeartbeat:
		if r.status == Leader {
			for _, j := range r.cfg.ring {
				if j != r.id {
					env.Send(j, Message{Kind: KindHeartbeat})
				}
			}
			env.SetTimer(timerHeartbeat, r.cfg.heartbeat)
		}
	case timerSuspect:
		// "suspicion works as in Bully": a follower that hears nothing from its leader for
		// timeout starts an election.
		if r.status == Follower {
			r.initiate(env, fmt.Sprintf("no HEARTBEAT from %d for %s", r.leader, FormatDuration(r.cfg.timeout)))
		}
	}
}

// --- Copying and fingerprinting a node (Node.Clone, Node.AppendState): checkpoints, exploration

// Clone returns a copy of the node that shares with it only the ring order and timing.
func (r *Ring) Clone() Node {
	c := *r
	c.suspect = maps.Clone(r.suspect)
	c.passed, c.announced = r.passed.clone(), r.announced.clone()
	c.pending = slices.Clone(r.pending)
	return &c
}

// AppendState writes the node's round and what it knows of it, the suspects it still skips and
// the hops waiting for an ACK. Its successor and place in the ring follow from its id; whether
// its ELECTED has come back round (lapDone) shows only in notes.
func (r *Ring) AppendState(b []byte, now time.Duration) []byte {
	b = appendID(b, r.id)
	b = appendNodeState(b, State{Status: r.status, Leader: r.leader})
	b = appendUint(b, r.round)
	b = appendBool(b, r.participant)
	b = r.passed.appendTo(b)
	b = r.announced.appendTo(b)
	// A suspicion that has run out is as good as none (successor skips only those still
	// running), and stays run out: it is left out.
	var suspects []ID
	for id, until := range r.suspect {
		if until > now {
			suspects = append(suspects, id)
		}
	}
	slices.Sort(suspects) // not the map's order
	b = appendUint(b, uint64(len(suspects)))
	for _, id := range suspects {
		b = appendID(b, id)
		b = appendDeadline(b, r.suspect[id], now)
	}
	// Of a hop's send time, what matters is when its ACK is overdue.
	b = appendUint(b, uint64(len(r.pending)))
	for _, h := range r.pending {
		b = appendID(b, h.to)
		b = appendMessage(b, h.m)
		b = appendDeadline(b, h.sentAt+r.cfg.answer, now)
	}
	return b
}
