package algo

import (
	"fmt"
	"slices"
	"time"
)

// Zab is the leader election ZooKeeper's servers run among themselves: Fast Leader Election (the
// ZooKeeper source's FastLeaderElection class and its documentation), followed by the first
// phase of Zab, the atomic broadcast protocol, in which the new leader establishes its epoch
// (F. P. Junqueira, B. C. Reed, M. Serafini, "Zab: High-performance broadcast for primary-backup
// systems", DSN 2011; A. Medeiros, "ZooKeeper's atomic broadcast protocol: Theory and
// practice", 2012).
//
// Every server has a history on disk: the zxid of the last transaction in its log and the epoch
// of the last leader it acknowledged. A vote names a server with its (epoch, zxid), and votes are
// ordered by epoch, then zxid, then server id: the server with the newest data wins, and among
// equals the highest id. A server that starts looking for a leader votes for itself and sends a
// NOTIFICATION of its vote to every server; on a better vote it adopts it and sends again. Every
// NOTIFICATION carries the sender's election round (its logical clock): a server that hears of a
// later round joins it, and ignores earlier ones. When a quorum — a majority of the ensemble —
// has voted as it does, it waits finalize-wait more; if nothing better arrives, it decides:
// leading if the vote is its own, following otherwise. A server that is following or leading
// answers a looking server with its vote and its state, so that a server that restarts joins
// the leader there is instead of starting an election of its own.
//
// The new leader then establishes an epoch: its followers tell it the last epoch they accepted
// (FOLLOWERINFO); once a quorum has, it proposes one higher than any of them (NEWEPOCH); when a
// quorum has accepted it (ACKEPOCH) the epoch is established, and its followers take it as
// theirs (NEWLEADER) — only then do their votes carry it. It PINGs its followers; a
// follower that hears no PING for timeout, and a leader that hears from less than a quorum for
// timeout, go back to looking. Only the election is modelled, not the broadcast: a server's zxid
// does not grow, and a follower is not brought up to its leader's history — only one whose log
// runs past the leader's is cut back to it (ZooKeeper's TRUNC), as what it has beyond is from
// an epoch no quorum accepted. So the next election still compares the servers' own histories.
//
// The property it promises (leader-has-latest, algo/zab_monitors.go): the leader's (epoch, zxid)
// is at least that of every server whose vote elected it — no transaction a quorum acknowledged
// is lost when leadership changes hands.
type Zab struct {
	id   ID
	all  []ID // every server, ascending
	self int  // my index in all
	cfg  *zabConfig

	// On stable storage: the epoch of the last leader I followed once it was established
	// (ZooKeeper's currentEpoch, which my votes carry), the last epoch a leader proposed that I
	// accepted (acceptedEpoch), and the zxid of the last transaction in my log. They survive a
	// crash.
	epoch, accepted, zxid uint64

	state      zabState
	round      uint64        // logicalclock: my election round
	vote       zabVote       // my proposal: whom I vote for, with its epoch and zxid
	votePart   *LogPart      // the vote's zxid and epoch as a NOTIFICATION carries them; never changed
	votes      []zabBallot   // recvset: each server's vote in my round, by index
	outside    []zabBallot   // outofelection: what servers that have decided told me, by index
	finalizing bool          // a quorum agrees with my vote: waiting finalize-wait for a better one
	wait       time.Duration // notTimeout: silence after which I send my vote again
	electedBy  []ID          // the servers whose votes made me decide, ascending (leader-has-latest reads it)
	leader     ID            // following: whom

	// leading
	peers       []zabPeer // by index
	newEpoch    uint64    // the epoch I propose, once a quorum has told me theirs (0: not yet)
	established bool      // a quorum acknowledged newEpoch
}

// zabState is a server's state in the election: looking, following or leading.
type zabState uint8

const (
	zabLooking zabState = iota
	zabFollowing
	zabLeading
)

// zabVote is a vote: a server, with the epoch and zxid of its history.
type zabVote struct {
	leader      ID
	zxid, epoch uint64
}

// zabBallot is what one server told me: its vote, its round, its state.
type zabBallot struct {
	set   bool
	vote  zabVote
	round uint64
	state zabState
}

// zabPeer is a leader's record of one server: whether it asked to follow (and with which epoch),
// whether it acknowledged the new epoch, and when it last answered.
type zabPeer struct {
	info, acked bool
	epoch       uint64
	heard       time.Duration
}

// The message kinds of Zab.
const (
	// KindNotification is a vote: the server voted for (Value), the round (Phase), the vote's zxid
	// and epoch (Log: Index and IndexTerm), and ✓ when the sender is following or leading.
	KindNotification = "NOTIFICATION"
	KindFollowerInfo = "FOLLOWERINFO" // a follower to its leader: the last epoch I accepted (Term)
	KindNewEpoch     = "NEWEPOCH"     // the leader proposes a new epoch (Term)
	KindAckEpoch     = "ACKEPOCH"     // a follower accepts the new epoch (Term)
	KindNewLeader    = "NEWLEADER"    // the epoch (Term) is established, with the leader's zxid and epoch (Log)
	// The leader's heartbeat is ZooKeeper's PING (KindPing, as the recipe's session pings):
	// Term its epoch, ✓ on a follower's answer.
)

// PropLeaderHasLatest is Zab's own property: the elected leader's (epoch, zxid) is at least that
// of every server whose vote elected it.
const PropLeaderHasLatest = "leader-has-latest"

// Timer names of Zab.
const (
	timerNotify   = "notify"   // looking: no notification for a while, send my vote again
	timerFinalize = "finalize" // looking: finalize-wait has passed with nothing better
	timerInit     = "init"     // leading: a quorum has not acknowledged my epoch in time
	timerLeader   = "leader"   // following: the leader has been silent for timeout
	// leading: the next PING is timerPing, as the recipe's candidates'
)

// Keys on stable storage.
const (
	diskZabEpoch    = "currentEpoch"
	diskZabAccepted = "acceptedEpoch"
	diskZabZxid     = "zxid"
)

// zabNotifyCap bounds the doubling of the wait between notifications: at most this many times
// finalize-wait (ZooKeeper doubles it from finalizeWait up to maxNotificationInterval).
const zabNotifyCap = 8

type zabConfig struct {
	finalize, heartbeat, timeout time.Duration
	zxids, epochs                []NodeNumber
	// better is the order of votes: ZooKeeper's totalOrderPredicate (zabVote.beats). A test
	// puts a broken order here to show leader-has-latest catching it.
	better func(a, b zabVote) bool
}

func zabInfo() *Info {
	info := &Info{
		Name:      "zab",
		Summary:   "ZooKeeper's Fast Leader Election: the newest (epoch, zxid) wins, then the highest id; a quorum decides",
		Kinds:     []string{KindNotification, KindFollowerInfo, KindNewEpoch, KindAckEpoch, KindNewLeader, KindPing},
		Routine:   []string{KindPing},
		TermWord:  "epoch",
		PhaseWord: "round",
		Params: []Param{
			{Key: "finalize-wait", Kind: DurationParam, Default: "50ms",
				Help: "a server whose vote a quorum shares waits this long for a better one before it decides (ZooKeeper: finalizeWait, 200ms)"},
			{Key: "heartbeat", Kind: DurationParam, Default: "50ms", Help: "the leader PINGs its followers at this interval"},
			{Key: "timeout", Kind: DurationParam, Default: "200ms",
				Help: "a follower that hears no PING, or a leader that hears from less than a quorum, for this long goes back to looking"},
			{Key: "zxid", Kind: PerNodeParam, Default: "0 for every server",
				Help: "the zxid of the last transaction in each server's log, as node:zxid pairs: 1:4,2:9 (servers not named have 0)"},
			{Key: "epoch", Kind: PerNodeParam, Default: "0 for every server",
				Help: "the epoch of the last leader each server acknowledged, as node:epoch pairs: 1:2,2:1 (servers not named have 0)"},
		},
		Winner:   Highest,
		Recovers: true,
		Quorum:   true,
		Guarantees: []Guarantee{
			{Property: PropLeaderHasLatest, Faults: "yyyyyyy", Why: "a quorum's votes only ever move to a newer (epoch, zxid), and the leader is what they settled on"},
			{Property: "at-most-one-leader", Faults: "yy---n-", Why: "a leader cut off, slowed or paused leads on until its timeout, while a quorum elsewhere elects another"}},
		New:      func(id ID, c *Cluster) Node { return NewZab(id, c) },
		Warnings: func(c *Cluster) []string { return zabWarnings(newZabConfig(c), c.MaxDelay) },
		Monitors: []Monitor{{
			Property: PropLeaderHasLatest,
			Help:     "the elected leader's (epoch, zxid) is at least that of every server whose vote elected it",
			Watch:    watchLatest,
		}},
		NodeMemory: func(n int) (int64, string) {
			return int64(n) * 112, "its tables of votes and followers, an entry for every server"
		},
	}
	info.Validate = info.CheckNodeNumbers
	return info
}

// zabWarnings checks the timing Fast Leader Election and the leader's heartbeat assume.
func zabWarnings(cfg *zabConfig, maxDelay time.Duration) []string {
	var w []string
	if cfg.finalize <= 2*maxDelay {
		w = append(w, fmt.Sprintf("finalize-wait %s is not more than 2 × the max delay %s: a better vote sent in answer to mine can arrive after I decided, and servers may decide on different leaders",
			FormatDuration(cfg.finalize), FormatDuration(maxDelay)))
	}
	if cfg.timeout <= cfg.heartbeat+2*maxDelay {
		w = append(w, fmt.Sprintf("timeout %s is not more than heartbeat %s + 2 × the max delay %s: a follower may give up on a leader that is alive, and a leader on followers that are",
			FormatDuration(cfg.timeout), FormatDuration(cfg.heartbeat), FormatDuration(maxDelay)))
	}
	return w
}

func newZabConfig(c *Cluster) *zabConfig {
	return sharedConfig(c, "zab", func(c *Cluster) *zabConfig {
		p := c.Params
		return &zabConfig{
			finalize:  p.Duration("finalize-wait", 50*time.Millisecond),
			heartbeat: p.Duration("heartbeat", 50*time.Millisecond),
			timeout:   p.Duration("timeout", 200*time.Millisecond),
			zxids:     p.NodeNumbers("zxid"),
			epochs:    p.NodeNumbers("epoch"),
			better:    zabVote.beats,
		}
	})
}

// NewZab returns server id of cluster c, not yet started, with nothing on its stable storage yet:
// its first boot takes its epoch and zxid from the parameters.
func NewZab(id ID, c *Cluster) *Zab {
	i := c.Index(id)
	if i < 0 {
		panic(fmt.Sprintf("algo: node %d is not in the cluster", id))
	}
	return &Zab{id: id, all: c.Sorted, self: i, cfg: newZabConfig(c)}
}

var _ Node = (*Zab)(nil)

// beats is FastLeaderElection's totalOrderPredicate: "compare epoch, then zxid, then server id"
// — vote a is better than vote b.
func (a zabVote) beats(b zabVote) bool {
	switch {
	case a.epoch != b.epoch:
		return a.epoch > b.epoch
	case a.zxid != b.zxid:
		return a.zxid > b.zxid
	}
	return a.leader > b.leader
}

func (v zabVote) String() string {
	return fmt.Sprintf("%d (epoch %d, zxid %d)", v.leader, v.epoch, v.zxid)
}

// State reports looking as a candidate, following with its leader, leading; and the server's
// epoch as its term.
func (z *Zab) State() State {
	switch z.state {
	case zabFollowing:
		return State{Status: Follower, Leader: z.leader, Term: z.epoch}
	case zabLeading:
		return State{Status: Leader, Leader: z.id, Term: z.epoch}
	}
	return State{Status: Candidate, Term: z.epoch}
}

func (z *Zab) quorum() int { return len(z.all)/2 + 1 }

func (z *Zab) own() zabVote { return zabVote{leader: z.id, zxid: z.zxid, epoch: z.epoch} }

func (z *Zab) index(id ID) int {
	i, ok := slices.BinarySearch(z.all, id)
	if !ok {
		panic(fmt.Sprintf("algo: zab server %d heard from %d, which is not in the cluster", z.id, id))
	}
	return i
}

// member reports whether id is a server of the ensemble.
func (z *Zab) member(id ID) bool {
	_, ok := slices.BinarySearch(z.all, id)
	return ok
}

// Start: the server reads its epoch and zxid from disk — on its first boot, from the
// parameters — and looks for a leader. Its election round is in memory, and starts again.
func (z *Zab) Start(env Env) {
	var ok bool
	if z.epoch, ok = env.Load(diskZabEpoch); !ok {
		z.epoch = NumberOf(z.cfg.epochs, z.id, 0)
	}
	if z.zxid, ok = env.Load(diskZabZxid); !ok {
		z.zxid = NumberOf(z.cfg.zxids, z.id, 0)
	}
	if z.accepted, ok = env.Load(diskZabAccepted); !ok {
		z.accepted = z.epoch
	}
	z.round = 0
	z.lookForLeader(env, "booted")
}

// Elect: a server that follows or leads gives that up and looks for a leader; one that is
// looking sends its vote again.
func (z *Zab) Elect(env Env) {
	if z.state == zabLooking {
		z.sendVotes(env)
		env.SetTimer(timerNotify, z.wait)
		if env.Tracing() {
			env.Note("asked to elect: I send my vote for %s again", z.vote)
		}
		return
	}
	z.lookForLeader(env, "asked to elect")
}

// lookForLeader: "update logicalclock, propose myself, send notifications" — a new round in which
// I vote for myself, with what I heard in earlier rounds forgotten.
func (z *Zab) lookForLeader(env Env, why string) {
	env.CancelTimer(timerFinalize)
	env.CancelTimer(timerInit)
	env.CancelTimer(timerPing)
	env.CancelTimer(timerLeader)
	z.state, z.leader, z.round = zabLooking, 0, z.round+1
	z.votes = resetBallots(z.votes, len(z.all))
	z.outside = resetBallots(z.outside, len(z.all))
	z.peers, z.newEpoch, z.established, z.electedBy = nil, 0, false, nil
	z.finalizing, z.wait = false, z.cfg.finalize
	z.propose(z.own())
	z.votes[z.self] = zabBallot{set: true, vote: z.vote, round: z.round}
	z.sendVotes(env)
	if env.Tracing() {
		env.Note("%s: looking, round %d — I vote for myself, epoch %d, zxid %d, and tell every server", why, z.round, z.epoch, z.zxid)
	}
	z.tally(env)
}

// resetBallots returns a table of n empty ballots, reusing b's memory.
func resetBallots(b []zabBallot, n int) []zabBallot {
	if len(b) != n {
		return make([]zabBallot, n)
	}
	clear(b)
	return b
}

// propose makes v my vote.
func (z *Zab) propose(v zabVote) {
	z.vote = v
	z.votePart = &LogPart{Index: v.zxid, IndexTerm: v.epoch}
}

// notification is my vote as a NOTIFICATION: decided (✓) unless I am looking.
func (z *Zab) notification() Message {
	return Message{Kind: KindNotification, Value: z.vote.leader, Phase: uint32(z.round), Flag: z.state != zabLooking, Log: z.votePart}
}

// sendVotes: "sendNotifications" — my vote to every other server.
func (z *Zab) sendVotes(env Env) {
	m := z.notification()
	for _, j := range z.all {
		if j != z.id {
			env.Send(j, m)
		}
	}
}

// Receive dispatches: NOTIFICATIONs to the election, the rest to the leader or its follower.
func (z *Zab) Receive(env Env, m Message) {
	switch {
	case m.Kind == KindNotification:
		z.onNotification(env, m)
	case z.state == zabLeading:
		z.onFollower(env, m)
	case z.state == zabFollowing && m.From == z.leader:
		z.onLeader(env, m)
	}
}

// ballot reads a NOTIFICATION.
func ballotOf(m Message) zabBallot {
	b := zabBallot{set: true, vote: zabVote{leader: m.Value}, round: uint64(m.Phase)}
	if m.Log != nil {
		b.vote.zxid, b.vote.epoch = m.Log.Index, m.Log.IndexTerm
	}
	switch {
	case !m.Flag:
		b.state = zabLooking
	case m.Value == m.From:
		b.state = zabLeading
	default:
		b.state = zabFollowing
	}
	return b
}

// onNotification is FastLeaderElection's receiver and its lookForLeader loop.
func (z *Zab) onNotification(env Env, m Message) {
	if !z.member(m.Value) || m.From == z.id {
		return // a vote for nobody of the ensemble, or my own: nothing to count
	}
	n := ballotOf(m)
	if z.state != zabLooking {
		// "If this server is not looking, but the one that sent the notification is, send back
		// what it believes to be the leader."
		if n.state == zabLooking {
			env.Send(m.From, z.notification())
			if env.Tracing() {
				env.Note("NOTIFICATION from %d, looking in round %d: I answer that %d leads", m.From, n.round, z.vote.leader)
			}
		}
		return
	}
	if n.state == zabLooking && n.round < z.round {
		// "If the sender is looking and in an earlier round, send back my vote."
		env.Send(m.From, z.notification())
	}
	if z.finalizing {
		// "Verify if there is any change in the proposed leader": only a better vote breaks the
		// wait; anything else is dropped, and the wait starts again.
		if !z.cfg.better(n.vote, z.vote) {
			env.SetTimer(timerFinalize, z.cfg.finalize)
			return
		}
		z.finalizing = false
		env.CancelTimer(timerFinalize)
	}
	if n.state == zabLooking {
		z.onLooking(env, m.From, n)
	} else {
		z.onDecided(env, m.From, n)
	}
	if z.state == zabLooking && !z.finalizing {
		env.SetTimer(timerNotify, z.wait)
	}
}

// onLooking: a vote from a server that is looking too.
func (z *Zab) onLooking(env Env, from ID, n zabBallot) {
	switch {
	case n.round > z.round:
		// "If notification > current, replace and send messages out": a later round, in which I
		// vote for the better of its vote and my own.
		z.round = n.round
		clear(z.votes)
		v := z.own()
		if z.cfg.better(n.vote, v) {
			v = n.vote
		}
		z.propose(v)
		z.sendVotes(env)
		if env.Tracing() {
			env.Note("NOTIFICATION from %d of round %d, later than mine: I join round %d and vote for %s", from, n.round, n.round, z.vote)
		}
	case n.round < z.round:
		if env.Tracing() {
			env.Note("NOTIFICATION from %d of round %d, earlier than mine (%d): I answer with my vote, and count it not", from, n.round, z.round)
		}
		return // "notification.electionEpoch < logicalclock": ignored
	case z.cfg.better(n.vote, z.vote):
		z.propose(n.vote)
		z.sendVotes(env)
		if env.Tracing() {
			env.Note("NOTIFICATION from %d: its vote for %s is better than mine — I vote for it too", from, n.vote)
		}
	case env.Tracing() && n.vote != z.vote:
		env.Note("NOTIFICATION from %d votes for %d: my vote for %s is better", from, n.vote.leader, z.vote)
	}
	z.votes[z.index(from)] = n
	z.votes[z.self] = zabBallot{set: true, vote: z.vote, round: z.round}
	z.tally(env)
}

// tally: "if a quorum agrees with my vote, wait finalize-wait for a better one".
func (z *Zab) tally(env Env) {
	if len(z.agreeing(z.votes, z.vote, false)) < z.quorum() {
		env.SetTimer(timerNotify, z.wait)
		return
	}
	z.finalizing = true
	env.CancelTimer(timerNotify)
	env.SetTimer(timerFinalize, z.cfg.finalize)
	if env.Tracing() {
		env.Note("%d of %d servers vote for %s in round %d, a quorum: I wait %s for a better vote",
			len(z.agreeing(z.votes, z.vote, false)), len(z.all), z.vote, z.round, FormatDuration(z.cfg.finalize))
	}
}

// agreeing returns the servers whose ballot in table agrees with vote in my round (decided:
// any round, and the same leader and epoch suffice, as ZooKeeper's Vote.equals has it for
// servers that are not looking).
func (z *Zab) agreeing(table []zabBallot, v zabVote, decided bool) []ID {
	var ids []ID
	for i, b := range table {
		switch {
		case !b.set:
		case decided && b.vote.leader == v.leader && b.vote.epoch == v.epoch:
			ids = append(ids, z.all[i])
		case !decided && b.round == z.round && b.vote == v:
			ids = append(ids, z.all[i])
		}
	}
	return ids
}

// onDecided: a vote from a server that follows or leads. "Consider all notifications from the
// same epoch together" in my round; and "before joining an established ensemble, verify that a
// majority are following the same leader" — and that the leader says it leads.
func (z *Zab) onDecided(env Env, from ID, n zabBallot) {
	if n.round == z.round {
		z.votes[z.index(from)] = n
		if ids := z.agreeing(z.votes, n.vote, true); len(ids) >= z.quorum() && z.checkLeader(z.votes, n.vote.leader, n.round) {
			z.decide(env, n.vote, ids, fmt.Sprintf("in round %d, %s follow or lead with %d", z.round, countIDs(len(ids), "server"), n.vote.leader))
			return
		}
	}
	z.outside[z.index(from)] = n
	if ids := z.agreeing(z.outside, n.vote, true); len(ids) >= z.quorum() && z.checkLeader(z.outside, n.vote.leader, n.round) {
		z.round = n.round
		z.decide(env, n.vote, ids, fmt.Sprintf("%s follow or lead with %d, which leads", countIDs(len(ids), "server"), n.vote.leader))
	}
}

// checkLeader: "in the case there is a leader elected, and a quorum supporting this leader, we
// have to check if the leader has voted and acked that it is leading" — or, for myself, that
// it was in my round.
func (z *Zab) checkLeader(table []zabBallot, leader ID, round uint64) bool {
	if leader == z.id {
		return round == z.round
	}
	b := table[z.index(leader)]
	return b.set && b.state == zabLeading
}

// decide ends the election: leading if the vote is mine, else following its server.
func (z *Zab) decide(env Env, v zabVote, voters []ID, why string) {
	env.CancelTimer(timerNotify)
	env.CancelTimer(timerFinalize)
	z.finalizing = false
	z.propose(v)
	z.electedBy = voters
	if v.leader == z.id {
		z.lead(env, why)
		return
	}
	z.state, z.leader = zabFollowing, v.leader
	env.Send(z.leader, Message{Kind: KindFollowerInfo, Term: z.accepted})
	env.SetTimer(timerLeader, z.cfg.timeout)
	if env.Tracing() {
		env.Note("%s — I follow %d: FOLLOWERINFO with the last epoch I accepted, %d", why, z.leader, z.accepted)
	}
}
