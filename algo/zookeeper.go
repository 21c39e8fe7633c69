package algo

import (
	"fmt"
	"slices"
	"time"
)

// ZooKeeper is leader election by ZooKeeper's recipe of ephemeral sequential znodes (P. Hunt,
// M. Konar, F. P. Junqueira, B. Reed, "ZooKeeper: wait-free coordination for Internet-scale
// systems", USENIX ATC 2010, §2.4; the ZooKeeper documentation's "Recipes and Solutions",
// Leader Election), with the fencing token of M. Kleppmann, "How to do distributed locking", 2016.
//
// The highest id is the coordination service. It keeps a session for each client — alive as
// long as the client PINGs it within the session timeout — and the znodes of the election, each
// with a sequence number higher than any before. A znode is ephemeral: when its session expires,
// the service deletes it. The service also keeps the data the leader writes (the data store).
//
// Every other node is a candidate. It opens a session and CREATEs a znode; the candidate whose
// znode has the lowest sequence number leads. Every other candidate watches only the znode just
// below its own (its predecessor): when that znode is deleted, the service NOTIFYs the one
// candidate watching it, which asks again (WATCH) whether its own znode is now the lowest, and
// if not, watches its new predecessor. So a leader's death wakes exactly one candidate. With
// watch=leader every candidate watches the leader's znode instead, and its deletion wakes them
// all: the herd effect. The others learn who leads from the service's answer to each PING.
//
// A session the service expires — its client crashed, paused, or was cut off from the service —
// takes its znode with it. A paused leader does not know: when it wakes, it still believes it
// leads until it hears otherwise (an EXPIRED answer to its PING, or a REJECT of its write). The
// znode's sequence number is the leader's fencing token: every WRITE carries it, and the data
// store, with fencing on, rejects a token lower than one it has accepted.
type ZooKeeper struct {
	id      ID
	service ID
	cfg     *zkConfig
	st      State

	// a candidate
	session uint64 // the number of my session, kept on stable storage so that no life reuses one
	seq     uint64 // the sequence number of my znode — my token — once the service says it is the lowest

	// the coordination service
	sessions []zkSession
	znodes   []znode       // ascending sequence numbers
	watches  []zkWatch     // each fires once
	grace    time.Duration // after a crash, the service names no leader before this
}

// zkSession is a client's session at the service: it expires unless renewed before expires.
type zkSession struct {
	owner   ID
	num     uint64
	expires time.Duration // by the service's clock
}

// znode is an ephemeral sequential znode of the election.
type znode struct {
	seq     uint64
	owner   ID
	session uint64
}

// zkWatch is a watch set by watcher (in its session) on the znode with sequence number seq.
type zkWatch struct {
	watcher ID
	session uint64
	seq     uint64
}

// RoleCoordination is the role of ZooKeeper's service node.
const RoleCoordination = "coordination service"

// The message kinds of ZooKeeper. Every message between a candidate and the service carries the
// candidate's session number in Term: an answer to an earlier session — or to an earlier life's,
// still on its way — is told apart. The service's answers CREATED and PONG say in Flag whether
// the asker's znode is the lowest: if so, Value is its sequence number, the asker's token as
// leader; if not, Value is the leader, the owner of the lowest znode (0: none).
const (
	KindCreate  = "CREATE"  // a candidate creates its ephemeral sequential znode
	KindCreated = "CREATED" // the znode is made: ✓ and its number (Value), or who leads (Value)
	KindPing    = "PING"    // a candidate keeps its session alive
	KindPong    = "PONG"    // the service answers a PING or a WATCH, as CREATED
	KindWatch   = "WATCH"   // a candidate whose watch fired asks again whether its znode is the lowest, and watches anew
	KindNotify  = "NOTIFY"  // a watch fired: the znode Value, which the candidate watched, was deleted
	KindDelete  = "DELETE"  // a leader resigns: it deletes its znode
	KindExpired = "EXPIRED" // the service knows no such session of the asker: it expired, with its znode
)

// The watch modes.
const (
	WatchPredecessor = "predecessor"
	WatchLeader      = "leader"
)

// Timer names of ZooKeeper.
const (
	timerPing     = "ping"     // a candidate's next PING
	timerLost     = "lost"     // a candidate has heard nothing from the service for a session timeout
	timerSessions = "sessions" // the service's next session expiry
)

// Keys on stable storage.
const (
	diskSession = "session"  // candidate: the number of its last session
	diskLastSeq = "last-seq" // service: the last sequence number given
)

type zkConfig struct {
	timeout, ping, write time.Duration
	herd, fencing        bool
}

func zooKeeperInfo() *Info {
	return &Info{
		Name:     "zookeeper",
		Summary:  "ephemeral sequential znodes in a coordination service: the lowest leads, each watches its predecessor",
		Kinds:    []string{KindCreate, KindCreated, KindWatch, KindNotify, KindDelete, KindExpired, KindPing, KindPong, KindWrite, KindAccept, KindReject},
		Routine:  []string{KindPing, KindPong, KindWrite, KindAccept},
		Answers:  []string{KindCreated, KindPong},
		Terms:    true, // the znode's sequence number: one owner each
		TermWord: "token",
		Params: []Param{
			{Key: "session", Kind: DurationParam, Default: "300ms", Help: "the service expires a session not pinged for this long, and deletes its znode"},
			{Key: "ping", Kind: DurationParam, Default: "100ms", Help: "a candidate pings the service at this interval"},
			{Key: "write", Kind: DurationParam, Default: "50ms", Help: "the leader writes to the data store at this interval"},
			{Key: "watch", Kind: ChoiceParam, Default: WatchPredecessor, Choices: []string{WatchPredecessor, WatchLeader},
				Help: "predecessor: each candidate watches the znode just below its own; leader: every candidate watches the leader's (the herd effect)"},
			{Key: "fencing", Kind: SwitchParam, Default: "on", Help: "the data store rejects a write whose token is lower than one it accepted"},
		},
		Recovers: true,
		Guarantees: []Guarantee{
			{Property: "at-most-one-leader", Faults: "yyyynny", Why: "a leader whose session expired while it was paused, or whose service's answers are late, believes it leads until it hears otherwise"},
			{Property: "no-stale-write", Faults: "yyyyyyy", Why: "the data store refuses a write whose znode number is older than one it has accepted"},
			{Property: "no-stale-write", Params: []string{"fencing=off"}, Faults: "y----n-", Why: "without fencing, a paused leader's late write lands after its successor's"}},
		New: func(id ID, c *Cluster) Node { return NewZooKeeper(id, c) },
		Validate: func(c *Cluster) error {
			if len(c.Sorted) < 2 {
				return fmt.Errorf("zookeeper needs at least 2 nodes: candidates and a coordination service (the highest id)")
			}
			return nil
		},
		Roles: func(c *Cluster) map[ID]string {
			return map[ID]string{c.Sorted[len(c.Sorted)-1]: RoleCoordination}
		},
		Warnings: func(c *Cluster) []string {
			cfg := newZKConfig(c)
			if cfg.ping+2*c.MaxDelay >= cfg.timeout {
				return []string{fmt.Sprintf("ping %s + 2 × the max delay %s is not below session %s: a live candidate's PING can arrive too late, and the service expires its session and deletes its znode",
					FormatDuration(cfg.ping), FormatDuration(c.MaxDelay), FormatDuration(cfg.timeout))}
			}
			return nil
		},
		Monitors: []Monitor{{
			Property: PropNoStaleWrite,
			Help:     "the data store never accepts a write whose token is lower than one it has already accepted",
			Watch:    func(*Cluster) Watcher { return &staleWrites{store: "the data store"} },
		}},
	}
}

func newZKConfig(c *Cluster) *zkConfig {
	return sharedConfig(c, "zookeeper", func(c *Cluster) *zkConfig {
		p := c.Params
		return &zkConfig{
			timeout: p.Duration("session", 300*time.Millisecond),
			ping:    p.Duration("ping", 100*time.Millisecond),
			write:   p.Duration("write", 50*time.Millisecond),
			herd:    p.Choice("watch", WatchPredecessor) == WatchLeader,
			fencing: p.Switch("fencing", true),
		}
	})
}

// NewZooKeeper returns node id of cluster c, not yet started: the coordination service (the
// highest id) or a candidate.
func NewZooKeeper(id ID, c *Cluster) *ZooKeeper {
	if c.Index(id) < 0 {
		panic(fmt.Sprintf("algo: node %d is not in the cluster", id))
	}
	return &ZooKeeper{id: id, service: c.Sorted[len(c.Sorted)-1], cfg: newZKConfig(c)}
}

var _ Node = (*ZooKeeper)(nil)

func (z *ZooKeeper) isService() bool { return z.id == z.service }

// State reports a candidate's status, the leader it last heard of and, while it leads, its
// token. The service leads nobody and follows nobody: its State is the zero State.
func (z *ZooKeeper) State() State { return z.st }

// Start: the service starts empty (a crash loses its sessions and znodes: every client's
// session is gone); a candidate opens a new session and creates its znode.
func (z *ZooKeeper) Start(env Env) {
	if z.isService() {
		// A real ensemble keeps its sessions in a replicated log; this one loses them. A leader
		// from before the crash may still believe it leads: name no leader until a whole
		// session timeout has passed, by when its client has given up (after two thirds of it).
		z.sessions, z.znodes, z.watches, z.grace = nil, nil, nil, 0
		last, _ := env.Load(diskLastSeq)
		if last > 0 {
			z.grace = env.Now() + z.cfg.timeout
		}
		if env.Tracing() {
			if last > 0 {
				env.Note("coordination service up after a crash, its sessions and znodes lost: I name no leader until %s, when any leader from before has given up", FormatDuration(z.grace))
			} else {
				env.Note("coordination service up: no sessions; the next znode gets sequence number 1")
			}
		}
		return
	}
	last, _ := env.Load(diskSession)
	z.session = last
	z.create(env, "booted")
	env.SetTimer(timerPing, z.cfg.ping)
}

// create opens a new session and creates a znode in it.
func (z *ZooKeeper) create(env Env, why string) {
	z.session++
	env.Store(diskSession, z.session)
	z.seq = 0
	z.st = State{Status: Candidate}
	env.Send(z.service, Message{Kind: KindCreate, Term: z.session})
	env.SetTimer(timerLost, z.lostAfter())
	if env.Tracing() {
		env.Note("%s: session %d; CREATE my znode at the service %d", why, z.session, z.service)
	}
}

// Elect: a leader resigns — it DELETEs its znode and creates a new one, in a new session, at the
// back of the line. A candidate is in line already (or its CREATE is on its way).
func (z *ZooKeeper) Elect(env Env) {
	switch {
	case z.isService():
	case z.st.Status == Leader:
		env.Send(z.service, Message{Kind: KindDelete, Term: z.session})
		env.CancelTimer(timerWrite)
		if env.Tracing() {
			env.Note("asked to elect: I resign — DELETE my znode %d, and go to the back of the line", z.seq)
		}
		z.create(env, "resigned")
	default:
		if env.Tracing() {
			env.Note("asked to elect: my znode is in line already (or my CREATE on its way)")
		}
	}
}

// Receive dispatches by role.
func (z *ZooKeeper) Receive(env Env, m Message) {
	if z.isService() {
		z.expireSessions(env)
		z.serve(env, m)
		z.armSessions(env)
		return
	}
	switch m.Kind {
	case KindCreated, KindPong:
		if m.Term != z.session {
			return // an answer to an earlier session's message, or an earlier life's
		}
		z.heard(env)
		z.follow(env, m)
	case KindNotify:
		if m.Term != z.session {
			return
		}
		z.heard(env)
		env.Send(z.service, Message{Kind: KindWatch, Term: z.session})
		if env.Tracing() {
			env.Note("NOTIFY: znode %d, which I watched, is gone; WATCH: is mine the lowest now?", m.Value)
		}
	case KindExpired:
		if m.Term != z.session {
			return // an older session's, replaced already
		}
		z.stepDown(env, fmt.Sprintf("EXPIRED: the service expired my session %d, and my znode with it", m.Term))
		z.create(env, "a new session")
	case KindReject:
		if z.st.Status == Leader {
			z.stepDown(env, fmt.Sprintf("REJECT of my write with token %d: a newer token has written — my znode must be gone", m.Term))
		} else if env.Tracing() {
			env.Note("REJECT of my write with token %d: the fence held; I had stopped leading already", m.Term)
		}
	case KindAccept:
		if z.st.Status != Leader && env.Tracing() {
			env.Note("ACCEPT of a write with token %d I sent while I believed I led", m.Term)
		}
	}
}

// heard: the service answered, so my session is alive. Like ZooKeeper's client library, I give
// up on it after two thirds of the session timeout without an answer: the service counts its
// timeout from my last PING's arrival, earlier than the answer's.
func (z *ZooKeeper) heard(env Env) { env.SetTimer(timerLost, z.lostAfter()) }

func (z *ZooKeeper) lostAfter() time.Duration { return z.cfg.timeout * 2 / 3 }

// follow: the service's answer m says whether my znode is the lowest — then I lead, with its
// sequence number as my token — and if not, who leads. The lowest may be a znode of an earlier
// session of mine, which its expiry will delete: then nobody leads yet.
func (z *ZooKeeper) follow(env Env, m Message) {
	what := m.Kind
	if m.Flag {
		if z.st.Status == Leader {
			return
		}
		z.seq = uint64(m.Value)
		z.st = State{Status: Leader, Leader: z.id, Term: z.seq}
		env.SetTimer(timerWrite, z.cfg.write)
		if env.Tracing() {
			env.Note("%s: my znode %d is the lowest — I lead, with token %d", what, z.seq, z.seq)
		}
		return
	}
	leader := m.Value
	if leader == z.id {
		leader = 0 // an earlier session's znode of mine
	}
	switch {
	case z.st.Status == Leader:
		z.stepDown(env, fmt.Sprintf("%s: my znode is not the lowest", what))
		z.st.Leader = leader
	case z.st.Leader != leader || z.st.Status == Candidate && leader != 0:
		z.st = State{Status: Follower, Leader: leader}
		if leader == 0 {
			z.st.Status = Candidate
		}
		if env.Tracing() {
			switch {
			case m.Value == z.id:
				env.Note("%s: the lowest znode is an earlier session's of mine — nobody leads until it expires", what)
			case leader == 0:
				env.Note("%s: no znode is lowest yet", what)
			default:
				env.Note("%s: %d owns the lowest znode — it leads", what, leader)
			}
		}
	}
}

// stepDown: I no longer lead.
func (z *ZooKeeper) stepDown(env Env, why string) {
	wasLeader := z.st.Status == Leader
	env.CancelTimer(timerWrite)
	z.st = State{Status: Candidate}
	if wasLeader && env.Tracing() {
		env.Note("%s: I stop leading", why)
	}
}

// Timer handles a candidate's timers and the service's session expiry.
func (z *ZooKeeper) Timer(env Env, name string) {
	if z.isService() {
		if name == timerSessions {
			z.expireSessions(env)
			z.armSessions(env)
		}
		return
	}
	switch name {
	case timerPing:
		env.Send(z.service, Message{Kind: KindPing, Term: z.session})
		env.SetTimer(timerPing, z.cfg.ping)
	case timerWrite:
		// "The leader writes with its token" — as long as it believes it leads.
		if z.st.Status == Leader {
			env.Send(z.service, Message{Kind: KindWrite, Term: z.seq})
			env.SetTimer(timerWrite, z.cfg.write)
		}
	case timerLost:
		// The client's side of a session: no answer for a whole session timeout means the
		// service has probably expired it. A leader stops leading; the PINGs go on.
		if z.st.Status == Leader {
			z.stepDown(env, fmt.Sprintf("no answer from the service for %s by my clock: my session may have expired", FormatDuration(z.lostAfter())))
		}
	}
}

// --- the coordination service

// serve answers a candidate's message.
func (z *ZooKeeper) serve(env Env, m Message) {
	if m.Kind == KindWrite {
		z.serveWrite(env, m)
		return
	}
	s := z.findSession(m.From, m.Term)
	switch {
	case m.Kind == KindCreate:
		if s < 0 {
			z.sessions = append(z.sessions, zkSession{owner: m.From, num: m.Term})
			s = len(z.sessions) - 1
		}
		z.sessions[s].expires = env.Now() + z.cfg.timeout
		seq := z.znodeOf(m.From, m.Term)
		if seq == 0 {
			last, _ := env.Load(diskLastSeq)
			seq = last + 1
			env.Store(diskLastSeq, seq)
			z.znodes = append(z.znodes, znode{seq: seq, owner: m.From, session: m.Term})
		}
		watched := z.setWatch(m.From, m.Term, seq)
		env.Send(m.From, z.answer(KindCreated, m.Term, seq, env.Now()))
		if env.Tracing() {
			env.Note("CREATE from %d: znode %d in session %d; %s", m.From, seq, m.Term, z.watchText(m.From, watched))
		}
	case s < 0:
		env.Send(m.From, Message{Kind: KindExpired, Term: m.Term})
		if env.Tracing() {
			env.Note("%s from %d: I know no session %d of it — it expired, and its znode with it", m.Kind, m.From, m.Term)
		}
	case m.Kind == KindPing:
		z.sessions[s].expires = env.Now() + z.cfg.timeout
		env.Send(m.From, z.answer(KindPong, m.Term, z.znodeOf(m.From, m.Term), env.Now())) // routine: no note
	case m.Kind == KindWatch:
		z.sessions[s].expires = env.Now() + z.cfg.timeout
		seq := z.znodeOf(m.From, m.Term)
		watched := z.setWatch(m.From, m.Term, seq)
		env.Send(m.From, z.answer(KindPong, m.Term, seq, env.Now()))
		if env.Tracing() {
			env.Note("WATCH from %d: %s", m.From, z.watchText(m.From, watched))
		}
	case m.Kind == KindDelete:
		if seq := z.znodeOf(m.From, m.Term); seq != 0 {
			if env.Tracing() {
				env.Note("DELETE from %d: znode %d deleted", m.From, seq)
			}
			z.deleteZnode(env, seq)
		}
	}
}

// serveWrite is the data store: "remember the highest token accepted; with fencing, reject a
// write that carries a lower one".
func (z *ZooKeeper) serveWrite(env Env, m Message) {
	serveFencedWrite(env, m, z.cfg.fencing)
}

// findSession returns the index of owner's session num, or -1.
func (z *ZooKeeper) findSession(owner ID, num uint64) int {
	return slices.IndexFunc(z.sessions, func(s zkSession) bool { return s.owner == owner && s.num == num })
}

// znodeOf returns the sequence number of the znode of owner's session num, or 0.
func (z *ZooKeeper) znodeOf(owner ID, num uint64) uint64 {
	for _, n := range z.znodes {
		if n.owner == owner && n.session == num {
			return n.seq
		}
	}
	return 0
}

// answer is the service's answer of kind (CREATED or PONG) to session num, whose znode is seq
// (0: none), at now: whether seq is the lowest, and then its number, or else who leads — nobody
// while the service recovers from a crash.
func (z *ZooKeeper) answer(kind string, num, seq uint64, now time.Duration) Message {
	if now < z.grace {
		return Message{Kind: kind, Term: num}
	}
	if seq != 0 && len(z.znodes) > 0 && z.znodes[0].seq == seq {
		return Message{Kind: kind, Value: ID(seq), Term: num, Flag: true}
	}
	return Message{Kind: kind, Value: z.leader(), Term: num}
}

// leader returns the owner of the lowest znode, or 0 when there is none.
func (z *ZooKeeper) leader() ID {
	if len(z.znodes) == 0 {
		return 0
	}
	return z.znodes[0].owner
}

// setWatch replaces the watches of owner's session num with one on the znode its znode seq must
// watch — the one just below it, or with watch=leader the lowest — and returns that znode's
// index, or -1 when seq is the lowest (its owner leads, and watches nothing).
func (z *ZooKeeper) setWatch(owner ID, num, seq uint64) int {
	z.watches = slices.DeleteFunc(z.watches, func(w zkWatch) bool { return w.watcher == owner && w.session == num })
	i := slices.IndexFunc(z.znodes, func(n znode) bool { return n.seq == seq })
	if i <= 0 {
		return -1
	}
	target := i - 1
	if z.cfg.herd {
		target = 0
	}
	z.watches = append(z.watches, zkWatch{watcher: owner, session: num, seq: z.znodes[target].seq})
	return target
}

func (z *ZooKeeper) watchText(owner ID, watched int) string {
	if watched < 0 {
		return "it is the lowest: " + fmt.Sprint(owner) + " leads"
	}
	n := z.znodes[watched]
	return fmt.Sprintf("%d watches znode %d of %d", owner, n.seq, n.owner)
}

// deleteZnode deletes znode seq and fires the watches on it: a NOTIFY to each watcher.
func (z *ZooKeeper) deleteZnode(env Env, seq uint64) {
	z.znodes = slices.DeleteFunc(z.znodes, func(n znode) bool { return n.seq == seq })
	var fired []ID
	z.watches = slices.DeleteFunc(z.watches, func(w zkWatch) bool {
		if w.seq != seq {
			return false
		}
		env.Send(w.watcher, Message{Kind: KindNotify, Value: ID(seq), Term: w.session})
		fired = append(fired, w.watcher)
		return true
	})
	if env.Tracing() && len(fired) > 0 {
		env.Note("znode %d deleted: its watch fires, NOTIFY to %s", seq, AndList(fired))
	}
}

// expireSessions expires the sessions not renewed in time: their znodes are deleted, and their
// own watches forgotten.
func (z *ZooKeeper) expireSessions(env Env) {
	now := env.Now()
	for i := 0; i < len(z.sessions); {
		s := z.sessions[i]
		if s.expires > now {
			i++
			continue
		}
		z.sessions = slices.Delete(z.sessions, i, i+1)
		z.watches = slices.DeleteFunc(z.watches, func(w zkWatch) bool { return w.watcher == s.owner && w.session == s.num })
		seq := z.znodeOf(s.owner, s.num)
		if env.Tracing() {
			env.Note("session %d of %d expired at %s: nothing from it for %s; its znode %d is deleted", s.num, s.owner, FormatDuration(s.expires), FormatDuration(z.cfg.timeout), seq)
		}
		if seq != 0 {
			z.deleteZnode(env, seq)
		}
	}
}

// armSessions sets the service's timer for the next session to expire.
func (z *ZooKeeper) armSessions(env Env) {
	if len(z.sessions) == 0 {
		env.CancelTimer(timerSessions)
		return
	}
	next := z.sessions[0].expires
	for _, s := range z.sessions[1:] {
		next = min(next, s.expires)
	}
	env.SetTimer(timerSessions, max(next-env.Now(), 0))
}

// --- Copying and fingerprinting a node (Node.Clone, Node.AppendState)

// Clone returns a copy with lists of its own; the timing is shared.
func (z *ZooKeeper) Clone() Node {
	c := *z
	c.sessions = slices.Clone(z.sessions)
	c.znodes = slices.Clone(z.znodes)
	c.watches = slices.Clone(z.watches)
	return &c
}

// AppendState writes the node's id (its role follows from it), its state, and the service's
// sessions (each with how long it has left), znodes and watches, in the order kept — the order
// they were made in, which is part of what the service does next.
func (z *ZooKeeper) AppendState(b []byte, now time.Duration) []byte {
	b = appendID(b, z.id)
	b = appendNodeState(b, z.st)
	b = appendUint(b, z.session)
	b = appendUint(b, z.seq)
	b = appendUint(b, uint64(len(z.sessions)))
	for _, s := range z.sessions {
		b = appendID(b, s.owner)
		b = appendUint(b, s.num)
		b = appendDeadline(b, s.expires, now)
	}
	b = appendUint(b, uint64(len(z.znodes)))
	for _, n := range z.znodes {
		b = appendUint(b, n.seq)
		b = appendID(b, n.owner)
		b = appendUint(b, n.session)
	}
	b = appendUint(b, uint64(len(z.watches)))
	for _, w := range z.watches {
		b = appendID(b, w.watcher)
		b = appendUint(b, w.session)
		b = appendUint(b, w.seq)
	}
	return appendDeadline(b, z.grace, now)
}
