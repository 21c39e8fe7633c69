package algo

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Raft is the leader election of D. Ongaro and J. Ousterhout, "In Search of an Understandable
// Consensus Algorithm", USENIX ATC 2014, §5.2 — the election only: there is no log, so an APPEND
// is always the empty AppendEntries RPC, the heartbeat, and every candidate's log is as good as
// any other's.
//
// Time is divided into terms, numbered with consecutive integers. Each term begins with an
// election; the winner leads for the rest of the term. A node votes at most once per term, and a
// candidate needs the votes of a majority of the whole cluster — counted against every node,
// live or not — so two candidates can never both win the same term: **at most one leader per
// term**, whatever the network and the faults do. Leader ids are not fixed: whoever wins, leads.
//
// What it does not promise is at most one leader at a time. A leader cut off from the majority
// keeps believing it leads (nothing tells it otherwise) while the majority elects a new leader
// in a higher term. The option check-quorum (Ongaro's thesis, §6.2) bounds that: a leader that
// has not heard from a majority within election-timeout's low end steps down.
//
// A crash loses a node's memory but not its disk: its term and its vote are kept on the
// stable storage the engine gives it (Env.Store), as the paper requires (Figure 2), so that no
// node can vote twice in a term by crashing in between.
//
// docs/algorithms.md explains it; each method quotes the paper's rule it implements.
type Raft struct {
	id   ID
	all  []ID // every node, ascending
	self int  // my index in all
	cfg  *raftConfig

	// Persistent state (Figure 2): currentTerm and votedFor, on the node's stable storage.
	// They survive a crash; everything below is lost with it.
	disk raftDisk

	status  Status
	leader  ID            // the leader of my current term, if I know it
	timeout time.Duration // the election timeout last drawn

	votes map[ID]bool // candidate: the nodes that granted me their vote this term, myself included

	heard []time.Duration // leader, with check-quorum: when all[i] last answered me in my term
}

// raftDisk is a node's stable storage: "Persistent state on all servers: (Updated on stable
// storage before responding to RPCs)" — currentTerm, "latest term server has seen (initialized
// to 0 on first boot, increases monotonically)", and votedFor, "candidateId that received vote
// in current term (or null if none)".
type raftDisk struct {
	term     uint64
	votedFor ID // 0: no vote in this term
}

// The message kinds of Raft.
const (
	KindRequestVote = "REQUEST_VOTE" // a candidate asks for a vote in its term
	KindVote        = "VOTE"         // the answer: Flag set when the vote is granted
	KindAppend      = "APPEND"       // the leader's empty AppendEntries (heartbeat); Flag set on the answer
)

type raftConfig struct {
	heartbeat              time.Duration
	electionLo, electionHi time.Duration
	checkQuorum            bool
}

func raftInfo() *Info {
	return &Info{
		Name:      "raft",
		Summary:   "Ongaro and Ousterhout's Raft election (2014): terms, one vote per term, a majority wins",
		Kinds:     []string{KindRequestVote, KindVote, KindAppend},
		Routine:   []string{KindAppend},
		Terms:     true,
		StoredIDs: []string{diskVotedFor},
		Params: []Param{
			{Key: "heartbeat", Kind: DurationParam, Default: "50ms",
				Help: "a leader sends APPEND to every other node at this interval"},
			{Key: "election-timeout", Kind: RangeParam, Default: "150ms..300ms",
				Help: "a follower that hears no leader for a random time in this range starts an election"},
			{Key: "check-quorum", Kind: SwitchParam, Default: "off",
				Help: "a leader that has not heard from a majority within election-timeout's low end steps down"},
		},
		Recovers: true,
		Majority: true,
		Guarantees: []Guarantee{
			{Property: "one-leader-per-term", Faults: "yyyyyyy", Why: "a leader needs a majority's votes, and a node votes once a term"},
			{Property: "at-most-one-leader", Faults: "y--n-n-", Why: "an old leader cut off or paused still believes it leads while a newer term elects another"}},
		New: func(id ID, c *Cluster) Node { return NewRaft(id, c) },
		Warnings: func(c *Cluster) []string {
			return raftWarnings(newRaftConfig(c), c.MaxDelay)
		},
	}
}

func newRaftConfig(c *Cluster) *raftConfig {
	return sharedConfig(c, "raft", makeRaftConfig)
}

func makeRaftConfig(c *Cluster) *raftConfig {
	lo, hi := c.Params.Range("election-timeout", 150*time.Millisecond, 300*time.Millisecond)
	return &raftConfig{
		heartbeat:   c.Params.Duration("heartbeat", 50*time.Millisecond),
		electionLo:  lo,
		electionHi:  hi,
		checkQuorum: c.Params.Switch("check-quorum", false),
	}
}

// raftWarnings checks the timing requirement of §5.6, "broadcastTime ≪ electionTimeout ≪ MTBF",
// as it applies here.
func raftWarnings(cfg *raftConfig, maxDelay time.Duration) []string {
	var w []string
	if cfg.electionLo <= cfg.heartbeat+maxDelay {
		w = append(w, fmt.Sprintf("election-timeout %s starts at no more than heartbeat %s + the max delay %s: followers may start elections while their leader is alive",
			FormatRange(cfg.electionLo, cfg.electionHi), FormatDuration(cfg.heartbeat), FormatDuration(maxDelay)))
	}
	switch spread := cfg.electionHi - cfg.electionLo; {
	case spread == 0:
		w = append(w, fmt.Sprintf("election-timeout %s is not random: nodes that time out together stand together, and may split the vote again and again",
			FormatDuration(cfg.electionLo)))
	case spread <= 2*maxDelay:
		w = append(w, fmt.Sprintf("election-timeout %s spreads over only %s, not more than 2 × the max delay %s: candidates that time out together may split the vote again and again",
			FormatRange(cfg.electionLo, cfg.electionHi), FormatDuration(spread), FormatDuration(maxDelay)))
	}
	if cfg.checkQuorum && cfg.electionLo <= cfg.heartbeat+2*maxDelay {
		w = append(w, fmt.Sprintf("check-quorum: election-timeout's low end %s is not more than heartbeat %s + 2 × the max delay %s: a leader may step down while a majority is alive",
			FormatDuration(cfg.electionLo), FormatDuration(cfg.heartbeat), FormatDuration(maxDelay)))
	}
	return w
}

// NewRaft returns node id of cluster c, not yet started, with a stable storage of its own that
// nothing has been written to: a node that has never run.
func NewRaft(id ID, c *Cluster) *Raft {
	i := c.Index(id)
	if i < 0 {
		panic(fmt.Sprintf("algo: node %d is not in the cluster", id))
	}
	return &Raft{id: id, all: c.Sorted, self: i, cfg: newRaftConfig(c)}
}

// The keys of currentTerm and votedFor on stable storage.
const (
	diskTerm     = "currentTerm"
	diskVotedFor = "votedFor"
)

// save writes currentTerm and votedFor to stable storage: "Updated on stable storage before
// responding to RPCs".
func (r *Raft) save(env Env) {
	env.Store(diskTerm, r.disk.term)
	env.Store(diskVotedFor, uint64(r.disk.votedFor))
}

var _ Node = (*Raft)(nil)

// State reports the node's status, the leader it knows in its current term (itself when it
// leads, 0 if none) and its current term.
func (r *Raft) State() State {
	return State{Status: r.status, Leader: r.leader, Term: r.disk.term}
}

// majority is "a majority of the servers in the full cluster": more than half of every node,
// live or not.
func (r *Raft) majority() int { return len(r.all)/2 + 1 }

// Start: "When servers start up, they begin as followers." A node that restarts after a crash
// finds its currentTerm and votedFor on stable storage, as it left them; it knows no leader.
func (r *Raft) Start(env Env) {
	term, _ := env.Load(diskTerm)
	voted, _ := env.Load(diskVotedFor)
	r.disk = raftDisk{term: term, votedFor: ID(voted)}
	env.CancelTimer(timerHeartbeat)
	r.status, r.leader = Follower, 0
	d := r.resetElectionTimer(env)
	if !env.Tracing() {
		return
	}
	if r.disk.term == 0 {
		env.Note("booted: follower of term 0, waiting %s for a leader", msText(d))
		return
	}
	env.Note("restarted: term %d and %s were on stable storage; follower, waiting %s for a leader",
		r.disk.term, r.voteText(), msText(d))
}

// voteText writes votedFor for a note: "my vote to 3", "my vote to myself", "no vote yet".
func (r *Raft) voteText() string {
	switch r.disk.votedFor {
	case 0:
		return "no vote yet"
	case r.id:
		return "my vote to myself"
	}
	return fmt.Sprintf("my vote to %d", r.disk.votedFor)
}

// grantedText writes a VOTE's flag for a note.
func grantedText(granted bool) string {
	if granted {
		return "granted"
	}
	return "refused"
}

// msText writes a duration for a note: "150ms", or "178.424ms" for a drawn timeout.
func msText(d time.Duration) string {
	if d%time.Millisecond == 0 {
		return FormatDuration(d)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.6f", float64(d)/float64(time.Millisecond)), "0"), ".") + "ms"
}

// Elect: "`elect`: start an election now" — as if the election timer had fired.
func (r *Raft) Elect(env Env) {
	why := ""
	if env.Tracing() {
		why = fmt.Sprintf("asked to elect (%s of term %d)", r.status, r.disk.term)
	}
	r.startElection(env, why)
}

// resetElectionTimer: "Raft uses randomized election timeouts to ensure that split votes are
// rare [...] election timeouts are chosen randomly from a fixed interval (e.g., 150–300ms)." A
// fresh timeout is drawn from the node's random source (Draw) every time, in whole microseconds when
// the range is.
func (r *Raft) resetElectionTimer(env Env) time.Duration {
	d := r.cfg.electionLo
	if span := r.cfg.electionHi - r.cfg.electionLo; span > 0 {
		unit := time.Microsecond
		if r.cfg.electionLo%unit != 0 || span%unit != 0 {
			unit = 1
		}
		d += time.Duration(Draw(env, int64(span/unit)+1)) * unit
	}
	r.timeout = d
	env.SetTimer(timerElection, d)
	return d
}

// startElection: "To begin an election, a follower increments its current term and transitions
// to candidate state. It then votes for itself and issues RequestVote RPCs in parallel to each
// of the other servers in the cluster." And "each candidate restarts its randomized election
// timeout at the start of an election".
func (r *Raft) startElection(env Env, why string) {
	env.CancelTimer(timerHeartbeat)
	r.disk.term++
	r.disk.votedFor = r.id
	r.save(env)
	r.status, r.leader = Candidate, 0
	if r.votes == nil {
		r.votes = map[ID]bool{}
	}
	clear(r.votes)
	r.votes[r.id] = true
	if len(r.votes) >= r.majority() {
		r.becomeLeader(env, why)
		return
	}
	for _, j := range r.all {
		if j != r.id {
			env.Send(j, Message{Kind: KindRequestVote, Term: r.disk.term})
		}
	}
	d := r.resetElectionTimer(env)
	if env.Tracing() {
		env.Note("%s: candidate for term %d — I vote for myself and ask the %s; %d of %d votes win; without them I try again in %s",
			why, r.disk.term, countIDs(len(r.all)-1, "other node"), r.majority(), len(r.all), msText(d))
	}
}

// becomeLeader: "A candidate wins an election if it receives votes from a majority of the
// servers in the full cluster for the same term. [...] Once a candidate wins an election, it
// becomes leader. It then sends heartbeat messages to all of the other servers to establish its
// authority and prevent new elections."
func (r *Raft) becomeLeader(env Env, why string) {
	env.CancelTimer(timerElection)
	r.status, r.leader = Leader, r.id
	if r.cfg.checkQuorum {
		if r.heard == nil {
			r.heard = make([]time.Duration, len(r.all))
		}
		for i := range r.heard {
			r.heard[i] = env.Now() // a new leader has a full election-timeout to hear back
		}
	}
	r.sendAppends(env)
	env.SetTimer(timerHeartbeat, r.cfg.heartbeat)
	if env.Tracing() {
		env.Note("%s — term %d: %d of %d votes → leader; APPEND to all now and every %s",
			why, r.disk.term, len(r.votes), len(r.all), FormatDuration(r.cfg.heartbeat))
	}
}

// sendAppends sends the empty APPEND, the heartbeat, to every other node.
func (r *Raft) sendAppends(env Env) {
	for _, j := range r.all {
		if j != r.id {
			env.Send(j, Message{Kind: KindAppend, Term: r.disk.term})
		}
	}
}

// Receive: "If RPC request or response contains term T > currentTerm: set currentTerm = T,
// convert to follower" — first, whatever the message. A response (VOTE, or an APPEND answer)
// has nothing more to say to a follower; a request (REQUEST_VOTE, APPEND) is then handled.
func (r *Raft) Receive(env Env, m Message) {
	if m.Term > r.disk.term {
		r.stepUp(env, m)
		if m.Kind == KindVote || m.Kind == KindAppend && m.Flag {
			return
		}
	}
	switch {
	case m.Kind == KindRequestVote:
		r.onRequestVote(env, m)
	case m.Kind == KindVote:
		r.onVote(env, m)
	case m.Kind == KindAppend && !m.Flag:
		r.onAppend(env, m)
	case m.Kind == KindAppend:
		r.onAppendAnswer(env, m)
	}
}

// stepUp: "If a candidate or leader discovers that its term is out of date, it immediately
// reverts to follower state." Any node that sees a higher term adopts it: a new term, in which
// it has not voted and knows no leader. A leader stepping down starts to wait for one; a
// follower or candidate keeps the election timer it has — only a leader's APPEND or a granted
// vote resets it.
func (r *Raft) stepUp(env Env, m Message) {
	old, was := r.disk.term, r.status
	r.disk.term, r.disk.votedFor = m.Term, 0
	r.save(env)
	r.status, r.leader = Follower, 0
	if was == Leader {
		env.CancelTimer(timerHeartbeat)
		r.resetElectionTimer(env)
	}
	if env.Tracing() {
		kind := m.Kind
		if m.Kind == KindAppend && m.Flag {
			kind = "APPEND answer"
		}
		if was == Follower {
			env.Note("%s from %d of term %d > my term %d: I move to term %d", kind, m.From, m.Term, old, m.Term)
		} else {
			env.Note("%s from %d of term %d > my term %d: my %s term is out of date, I step down to follower of term %d",
				kind, m.From, m.Term, old, was, m.Term)
		}
	}
}

// onRequestVote: "Each server will vote for at most one candidate in a given term, on a
// first-come-first-served basis." The RequestVote receiver (Figure 2): "Reply false if term <
// currentTerm. If votedFor is null or candidateId [...], grant vote." The answer carries the
// voter's term, so a candidate of an old term learns that it is out of date. "If election
// timeout elapses without receiving AppendEntries RPC from current leader or granting vote to
// candidate: convert to candidate": granting a vote resets the election timer.
func (r *Raft) onRequestVote(env Env, m Message) {
	term := r.disk.term
	switch {
	case m.Term < term:
		env.Send(m.From, Message{Kind: KindVote, Term: term})
		if env.Tracing() {
			env.Note("REQUEST_VOTE from %d for term %d < my term %d: refused", m.From, m.Term, term)
		}
	case r.disk.votedFor == 0 || r.disk.votedFor == m.From:
		again := r.disk.votedFor == m.From
		r.disk.votedFor = m.From
		r.save(env) // before the answer leaves
		env.Send(m.From, Message{Kind: KindVote, Term: term, Flag: true})
		d := r.resetElectionTimer(env)
		if env.Tracing() {
			why := "no vote yet this term"
			if again {
				why = "I voted for it already this term"
			}
			env.Note("REQUEST_VOTE from %d for term %d: granted (%s); my election timer restarts: %s",
				m.From, term, why, msText(d))
		}
	default:
		env.Send(m.From, Message{Kind: KindVote, Term: term})
		if env.Tracing() {
			env.Note("REQUEST_VOTE from %d for term %d: refused, I gave %s this term", m.From, term, r.voteText())
		}
	}
}

// onVote: "A candidate wins an election if it receives votes from a majority of the servers in
// the full cluster for the same term." Each node's vote counts once.
func (r *Raft) onVote(env Env, m Message) {
	term := r.disk.term
	switch {
	case m.Term < term:
		if env.Tracing() {
			env.Note("VOTE from %d of old term %d (mine is %d): ignored", m.From, m.Term, term)
		}
	case r.status == Leader:
		r.answered(env, m.From)
		if env.Tracing() {
			env.Note("VOTE from %d for term %d (%s): I lead this term already", m.From, term, grantedText(m.Flag))
		}
	case r.status != Candidate:
		if env.Tracing() {
			env.Note("VOTE from %d for term %d: I am not a candidate in it, ignored", m.From, term)
		}
	case !m.Flag:
		if env.Tracing() {
			env.Note("VOTE from %d for term %d: refused; %d of %d votes so far, %d win",
				m.From, term, len(r.votes), len(r.all), r.majority())
		}
	case r.votes[m.From]:
		if env.Tracing() {
			env.Note("VOTE from %d for term %d again: counted once", m.From, term)
		}
	default:
		r.votes[m.From] = true
		if len(r.votes) >= r.majority() {
			why := ""
			if env.Tracing() {
				why = fmt.Sprintf("VOTE from %d granted", m.From)
			}
			r.becomeLeader(env, why)
			return
		}
		if env.Tracing() {
			env.Note("VOTE from %d for term %d: granted; %d of %d votes, %d win",
				m.From, term, len(r.votes), len(r.all), r.majority())
		}
	}
}

// onAppend: "If the leader's term (included in its RPC) is at least as large as the
// candidate's current term, then the candidate recognizes the leader as legitimate and returns
// to follower state. If the term in the RPC is smaller than the candidate's current term, then
// the candidate rejects the RPC and continues in candidate state." A follower that hears its
// leader resets its election timer: "If election timeout elapses without receiving
// AppendEntries RPC from current leader [...]: convert to candidate". Every APPEND is answered
// with an APPEND that carries the receiver's term (Flag set: it is the answer): the leader
// counts the answers for check-quorum, and a leader of an old term learns from it that it is
// out of date.
func (r *Raft) onAppend(env Env, m Message) {
	term := r.disk.term
	switch {
	case m.Term < term:
		if env.Tracing() {
			env.Note("APPEND from %d of term %d < my term %d: ignored, and my answer tells it so", m.From, m.Term, term)
		}
	case r.status == Leader:
		// Two leaders of one term: what the one-vote-per-term rule rules out.
		if env.Tracing() {
			env.Note("APPEND from %d of my own term %d, in which I lead: two leaders of one term cannot happen — ignored", m.From, term)
		}
		return
	default:
		was, known := r.status, r.leader == m.From
		r.status, r.leader = Follower, m.From
		d := r.resetElectionTimer(env)
		if env.Tracing() {
			switch {
			case was == Candidate:
				env.Note("APPEND from %d of term %d: it won the election, I stop standing and follow it; I wait %s for the next",
					m.From, term, msText(d))
			case !known:
				env.Note("APPEND from %d of term %d: %d leads, I follow it; I wait %s for the next",
					m.From, term, m.From, msText(d))
			}
		}
	}
	env.Send(m.From, Message{Kind: KindAppend, Term: r.disk.term, Flag: true})
}

// onAppendAnswer: a leader notes when each node last answered it in its term, for
// check-quorum. An answer of a higher term has already made it step down (Receive).
func (r *Raft) onAppendAnswer(env Env, m Message) {
	if r.status == Leader && m.Term == r.disk.term {
		r.answered(env, m.From)
		return
	}
	if env.Tracing() {
		env.Note("APPEND answer from %d of term %d: I do not lead term %d now, ignored", m.From, m.Term, m.Term)
	}
}

// Timer handles the election and heartbeat timers.
func (r *Raft) Timer(env Env, name string) {
	switch name {
	case timerElection:
		// "If a follower receives no communication over a period of time called the election
		// timeout, then it assumes there is no viable leader and begins an election." And a
		// candidate that "neither wins nor loses the election [...] will time out and start a
		// new election by incrementing its term".
		if r.status == Leader {
			return
		}
		why := ""
		if env.Tracing() {
			switch {
			case r.status == Candidate:
				why = fmt.Sprintf("no majority in term %d within %s (%d of %d votes)", r.disk.term, msText(r.timeout), len(r.votes), len(r.all))
			case r.leader != 0:
				why = fmt.Sprintf("no APPEND from %d, leader of term %d, for %s", r.leader, r.disk.term, msText(r.timeout))
			default:
				why = fmt.Sprintf("no leader heard in term %d for %s", r.disk.term, msText(r.timeout))
			}
		}
		r.startElection(env, why)
	case timerHeartbeat:
		// "Leaders send periodic heartbeats (AppendEntries RPCs that carry no log entries) to
		// all followers in order to maintain their authority."
		if r.status != Leader {
			return
		}
		if r.cfg.checkQuorum && r.quorumLost(env) {
			return
		}
		r.sendAppends(env)
		env.SetTimer(timerHeartbeat, r.cfg.heartbeat)
	}
}

// quorumLost is check-quorum, at every heartbeat: "a leader steps down if an election timeout
// elapses without a successful round of heartbeats to a majority of its cluster" (Ongaro's
// thesis, §6.2; etcd's CheckQuorum). Here: a leader that has not heard from a majority, itself
// included, within election-timeout's low end steps down to follower of its term. It reports
// whether the leader stepped down.
func (r *Raft) quorumLost(env Env) bool {
	now, n := env.Now(), 1
	for i, t := range r.heard {
		if i != r.self && now-t <= r.cfg.electionLo {
			n++
		}
	}
	if n >= r.majority() {
		return false
	}
	r.status, r.leader = Follower, 0
	d := r.resetElectionTimer(env)
	if env.Tracing() {
		env.Note("check-quorum: in the last %s I heard from %d of %d nodes, myself included — fewer than %d, so I step down; I wait %s for a leader",
			FormatDuration(r.cfg.electionLo), n, len(r.all), r.majority(), msText(d))
	}
	return true
}

// answered notes, for check-quorum, that node id answered me, the leader, now.
func (r *Raft) answered(env Env, id ID) {
	if r.cfg.checkQuorum {
		r.heard[r.index(id)] = env.Now()
	}
}

// index returns the position of node id in all (every sender is a node of the cluster).
func (r *Raft) index(id ID) int {
	i, ok := slices.BinarySearch(r.all, id)
	if !ok {
		panic(fmt.Sprintf("algo: raft node %d heard from %d, which is not in the cluster", r.id, id))
	}
	return i
}

// --- Copying and fingerprinting a node (Node.Clone, Node.AppendState): checkpoints, exploration

// Clone returns a copy of the node with votes and answers of its own; the list of ids and the
// timing are shared.
func (r *Raft) Clone() Node {
	c := *r
	c.votes = maps.Clone(r.votes)
	c.heard = slices.Clone(r.heard)
	return &c
}

// AppendState writes the node's term and vote, its status and leader, and what only some
// statuses read: the votes counted, which only a candidate counts (a new election clears them),
// and when each node last answered, which only a leader with check-quorum asks (becoming leader
// resets it). The election timeout last drawn shows only in notes: it is left out.
func (r *Raft) AppendState(b []byte, now time.Duration) []byte {
	b = appendID(b, r.id)
	b = appendUint(b, r.disk.term)
	b = appendID(b, r.disk.votedFor)
	b = appendNodeState(b, State{Status: r.status, Leader: r.leader})
	if r.status == Candidate {
		b = appendUint(b, uint64(len(r.votes)))
		for _, id := range r.all {
			b = appendBool(b, r.votes[id])
		}
	}
	if r.status == Leader && r.cfg.checkQuorum {
		for _, t := range r.heard {
			b = appendRecent(b, t, now, r.cfg.electionLo)
		}
	}
	return b
}
