package algo

import (
	"fmt"
	"slices"
	"time"
)

// Lease is leadership by lease, the pattern of cloud systems — ZooKeeper, etcd, Kubernetes
// leases, Chubby (M. Burrows, "The Chubby lock service for loosely-coupled distributed systems",
// OSDI 2006) — and the fencing tokens that make it safe (M. Kleppmann, "How to do distributed
// locking", 2016).
//
// Two of the nodes are not candidates. The second-highest id is the lock service: it grants a
// lease — the right to lead for a time-to-live (TTL) — to one candidate at a time, each new
// lease with a fencing token higher than any before. The highest id is the shared resource that
// the leader writes to. The other nodes are candidates: each tries to ACQUIRE the lease, and the
// one that holds it leads, RENEWs it before it runs out, and WRITEs to the resource every so
// often, each write carrying its token.
//
// A holder believes it leads until its own clock says the lease has run out. But a holder that
// freezes — a long garbage-collection pause, a suspended VM — has no clock running: when it
// wakes it carries on where it was, writing as the leader, while the lock service, seeing the
// lease expire, has long granted a new one to someone else. Two nodes believe they lead. The
// fencing token is what saves the data: the resource remembers the highest token it has
// accepted and, with fencing on, rejects a write that carries a lower one. With fencing off it
// accepts it — a stale write, which the no-stale-write monitor catches.
//
// A holder counts its lease on its own clock, from when it asked. That is safe only while clocks
// keep time: a holder whose clock runs slow believes its lease past the lock service's expiry.
// The margin gives the lease up early, by the holder's clock: with every clock's rate within
// 1 ± ρ, a margin of at least ttl · 2ρ/(1+ρ) keeps the holder from leading past the lock
// service's lease (docs/algorithms.md).
//
// What must survive a crash is on stable storage: the lock service's last token granted, the
// resource's highest token accepted, and each candidate's last request number — so that a GRANT
// answering a request from before a candidate's crash never matches one it sends after.
type Lease struct {
	id        ID
	lock, res ID // the lock service and the resource
	role      string
	cfg       *leaseConfig
	st        State

	// a candidate
	token      uint64        // the fencing token of the lease I hold
	holdsUntil time.Duration // when my lease runs out, by my clock
	seq        ID            // the number of my last ACQUIRE or RENEW, kept on stable storage too
	before     ID            // the number of the last request of my lives before a crash, if any
	asked      []request     // my requests of the last TTL: a GRANT runs from when I asked

	// the lock service
	holder  ID            // who holds the lease, 0 if nobody
	granted uint64        // the token of the holder's lease
	expires time.Duration // when it runs out, by the service's clock
	grace   time.Duration // after a crash, it grants nothing before this
}

// request is one ACQUIRE or RENEW a candidate sent: its number and when.
type request struct {
	seq ID
	at  time.Duration
}

// The roles of the two nodes that are not candidates.
const (
	RoleLockService = "lock service"
	RoleResource    = "resource"
)

// The message kinds of Lease.
const (
	KindAcquire = "ACQUIRE" // a candidate asks the lock service for the lease: request number Value
	KindGrant   = "GRANT"   // the lease or its renewal, answering request Value, with its fencing token (Term)
	KindDeny    = "DENY"    // someone else holds it (Value), or my lease is gone
	KindRenew   = "RENEW"   // the holder extends its lease: request number Value
	KindWrite   = "WRITE"   // the leader writes to the resource, with its token (Term)
	KindAccept  = "ACCEPT"  // the resource took the write (Term: its token)
	KindReject  = "REJECT"  // the resource refused it: a newer token has written since
)

// Timer names of Lease.
const (
	timerRenew  = "renew"
	timerWrite  = "write"
	timerExpire = "expire"
	timerRetry  = "retry"
)

// Keys on stable storage.
const (
	diskLastToken = "last-token" // lock service: the last fencing token granted
	diskAccepted  = "accepted"   // resource: the highest token it has accepted
	diskRequest   = "request"    // candidate: the number of its last ACQUIRE or RENEW
)

// PropNoStaleWrite is Lease's own property: the resource never accepts a write whose token is
// lower than one it has already accepted.
const PropNoStaleWrite = "no-stale-write"

type leaseConfig struct {
	ttl, renew, write, retry time.Duration
	margin                   time.Duration // the holder's lease ends this long before ttl, by its clock
	fencing                  bool
}

func leaseInfo() *Info {
	return &Info{
		Name:    "lease",
		Summary: "a lock service grants a lease with a fencing token; the resource rejects stale tokens",
		Kinds:   []string{KindAcquire, KindGrant, KindDeny, KindRenew, KindWrite, KindAccept, KindReject},
		// The holder's steady work — renewing, writing — is routine: timelines fold it, as
		// they fold heartbeats, unless a step changes something or has something to say.
		Routine:  []string{KindRenew, KindGrant, KindWrite, KindAccept},
		Terms:    true, // the fencing token: one holder per token
		TermWord: "token",
		Params: []Param{
			{Key: "ttl", Kind: DurationParam, Default: "300ms", Help: "how long a lease lasts without renewal"},
			{Key: "renew", Kind: DurationParam, Default: "100ms", Help: "the holder renews its lease at this interval"},
			{Key: "write", Kind: DurationParam, Default: "50ms", Help: "the leader writes to the resource at this interval"},
			{Key: "retry", Kind: DurationParam, Default: "100ms", Help: "a candidate that does not hold the lease asks again after this long"},
			{Key: "fencing", Kind: SwitchParam, Default: "on", Help: "the resource rejects a write whose token is lower than one it accepted"},
			{Key: "margin", Kind: DurationParam, Default: "0", Help: "the holder gives its lease up this long before the ttl runs out by its clock: room for clocks that drift"},
		},
		Recovers: true,
		Guarantees: []Guarantee{
			{Property: "at-most-one-leader", Faults: "yyyyyny", Why: "a holder paused past its lease still believes it holds it when it wakes"},
			{Property: "no-stale-write", Faults: "yyyyyyy", Why: "the resource refuses a write with a token older than one it has seen"},
			{Property: "no-stale-write", Params: []string{"fencing=off"}, Faults: "y----n-", Why: "without fencing, a paused holder's late write lands after its successor's"}},
		New: func(id ID, c *Cluster) Node { return NewLease(id, c) },
		Validate: func(c *Cluster) error {
			if len(c.Sorted) < 3 {
				return fmt.Errorf("lease needs at least 3 nodes: candidates, a lock service (the second-highest id) and a resource (the highest)")
			}
			if cfg := newLeaseConfig(c); cfg.margin >= cfg.ttl {
				return fmt.Errorf("margin %s is not below ttl %s: the holder would give its lease up before it had it", FormatDuration(cfg.margin), FormatDuration(cfg.ttl))
			}
			return nil
		},
		Roles: func(c *Cluster) map[ID]string {
			lock, res := leaseRoles(c)
			return map[ID]string{lock: RoleLockService, res: RoleResource}
		},
		Warnings: func(c *Cluster) []string {
			cfg := newLeaseConfig(c)
			var w []string
			switch {
			case cfg.margin == 0 && cfg.renew+2*c.MaxDelay >= cfg.ttl:
				w = append(w, fmt.Sprintf("renew %s + 2 × the max delay %s is not below ttl %s: the holder's renewals can arrive too late, and it loses the lease while it still writes",
					FormatDuration(cfg.renew), FormatDuration(c.MaxDelay), FormatDuration(cfg.ttl)))
			case cfg.margin > 0 && cfg.renew+2*c.MaxDelay >= cfg.ttl-cfg.margin:
				w = append(w, fmt.Sprintf("renew %s + 2 × the max delay %s is not below ttl %s − margin %s: the holder's renewals can arrive too late, and it gives the lease up while it still writes",
					FormatDuration(cfg.renew), FormatDuration(c.MaxDelay), FormatDuration(cfg.ttl), FormatDuration(cfg.margin)))
			}
			return w
		},
		Monitors: []Monitor{{
			Property: PropNoStaleWrite,
			Help:     "the resource never accepts a write whose token is lower than one it has already accepted",
			Watch:    func(*Cluster) Watcher { return watchStaleWrites() },
		}},
	}
}

// leaseRoles returns the lock service (the second-highest id) and the resource (the highest).
func leaseRoles(c *Cluster) (lock, res ID) {
	n := len(c.Sorted)
	return c.Sorted[n-2], c.Sorted[n-1]
}

func newLeaseConfig(c *Cluster) *leaseConfig {
	return sharedConfig(c, "lease", makeLeaseConfig)
}

func makeLeaseConfig(c *Cluster) *leaseConfig {
	p := c.Params
	return &leaseConfig{
		ttl:     p.Duration("ttl", 300*time.Millisecond),
		renew:   p.Duration("renew", 100*time.Millisecond),
		write:   p.Duration("write", 50*time.Millisecond),
		retry:   p.Duration("retry", 100*time.Millisecond),
		margin:  p.Duration("margin", 0),
		fencing: p.Switch("fencing", true),
	}
}

// NewLease returns node id of cluster c, not yet started: a candidate, the lock service or the
// resource, by its id.
func NewLease(id ID, c *Cluster) *Lease {
	if c.Index(id) < 0 {
		panic(fmt.Sprintf("algo: node %d is not in the cluster", id))
	}
	l := &Lease{id: id, cfg: newLeaseConfig(c)}
	l.lock, l.res = leaseRoles(c)
	switch id {
	case l.lock:
		l.role = RoleLockService
	case l.res:
		l.role = RoleResource
	}
	return l
}

var _ Node = (*Lease)(nil)

// State reports a candidate's status, the holder it last heard of and, while it leads, its token
// (its term). The lock service and the resource lead nobody and follow nobody: their State is
// always the zero State, and their notes say what they do.
func (l *Lease) State() State { return l.st }

// Start: a candidate asks for the lease at once; the lock service and the resource wait.
func (l *Lease) Start(env Env) {
	switch l.role {
	case RoleLockService:
		// Who held the lease was in memory, and is lost. If a lease was ever granted, its
		// holder may still believe it leads: grant nothing until a whole TTL has passed, and
		// any lease from before the crash has run out (Chubby's grace period).
		l.holder, l.expires, l.grace = 0, 0, 0
		last, _ := env.Load(diskLastToken)
		if last > 0 {
			l.grace = env.Now() + l.cfg.ttl
		}
		if env.Tracing() {
			if last > 0 {
				env.Note("lock service up after a crash: the last token granted was %d; I grant nothing until %s, when any lease from before has run out",
					last, FormatDuration(l.grace))
			} else {
				env.Note("lock service up: no lease granted yet")
			}
		}
	case RoleResource:
		noteStoreUp(env, l.cfg.fencing)
	default:
		// My request numbers go on from where they were before a crash: a GRANT still on its
		// way to my previous life answers a number I will never use again.
		last, _ := env.Load(diskRequest)
		l.seq, l.before = ID(last), ID(last)
		l.acquire(env, "booted")
	}
}

// Elect: a candidate that does not hold the lease asks for it now.
func (l *Lease) Elect(env Env) {
	if l.role == "" && l.st.Status != Leader {
		l.acquire(env, "asked to elect")
	}
}

// acquire: a candidate asks the lock service for the lease, and tries again after retry if it
// hears nothing.
func (l *Lease) acquire(env Env, why string) {
	// A node that knows who holds the lease only asks whether it is free yet: it follows
	// the holder meanwhile. One that knows of no holder is a candidate.
	status := Candidate
	if l.st.Leader != 0 {
		status = Follower
	}
	l.st = State{Status: status, Leader: l.st.Leader}
	env.Send(l.lock, Message{Kind: KindAcquire, Value: l.ask(env)})
	env.SetTimer(timerRetry, l.cfg.retry)
	if env.Tracing() {
		env.Note("%s: ACQUIRE %d to the lock service %d", why, l.seq, l.lock)
	}
}

// ask numbers a new request sent now, writes the number to stable storage, and remembers when
// it was sent, forgetting requests older than a TTL: a GRANT of one of those would be over
// already.
func (l *Lease) ask(env Env) ID {
	now := env.Now()
	l.seq++
	env.Store(diskRequest, uint64(l.seq))
	l.asked = slices.DeleteFunc(l.asked, func(r request) bool { return r.at+l.cfg.ttl <= now })
	l.asked = append(l.asked, request{seq: l.seq, at: now})
	return l.seq
}

// Receive dispatches by role.
func (l *Lease) Receive(env Env, m Message) {
	switch l.role {
	case RoleLockService:
		l.serveLock(env, m)
	case RoleResource:
		l.serveWrite(env, m)
	default:
		l.onAnswer(env, m)
	}
}

// serveLock is the lock service: "grant the lease to one client at a time; a new lease gets a
// fencing token higher than any granted before; a lease not renewed within its TTL expires".
func (l *Lease) serveLock(env Env, m Message) {
	now := env.Now()
	if l.holder != 0 && now >= l.expires {
		if env.Tracing() {
			env.Note("the lease of %d ran out at %s", l.holder, FormatDuration(l.expires))
		}
		l.holder = 0
	}
	switch {
	case (m.Kind == KindAcquire || m.Kind == KindRenew) && now < l.grace:
		env.Send(m.From, Message{Kind: KindDeny}) // DENY naming nobody: I do not know who holds it
		if env.Tracing() {
			env.Note("%s from %d: I am recovering and grant nothing until %s; DENY", m.Kind, m.From, FormatDuration(l.grace))
		}
	case m.Kind == KindAcquire && (l.holder == 0 || l.holder == m.From):
		last, _ := env.Load(diskLastToken)
		token := last
		if l.holder != m.From {
			token++ // a new lease: a new, higher token
			env.Store(diskLastToken, token)
		}
		l.holder, l.expires = m.From, now+l.cfg.ttl
		l.granted = token
		env.Send(m.From, Message{Kind: KindGrant, Value: m.Value, Term: token})
		if env.Tracing() {
			env.Note("ACQUIRE from %d: lease granted with token %d, until %s", m.From, token, FormatDuration(l.expires))
		}
	case m.Kind == KindRenew && l.holder == m.From:
		l.expires = now + l.cfg.ttl
		env.Send(m.From, Message{Kind: KindGrant, Value: m.Value, Term: l.granted}) // routine: no note
	case m.Kind == KindAcquire || m.Kind == KindRenew:
		env.Send(m.From, Message{Kind: KindDeny, Value: l.holder})
		if env.Tracing() {
			if l.holder == 0 {
				env.Note("%s from %d: it holds no lease; DENY", m.Kind, m.From)
			} else {
				env.Note("%s from %d: %d holds the lease until %s; DENY", m.Kind, m.From, l.holder, FormatDuration(l.expires))
			}
		}
	}
}

// serveWrite is the resource: "remember the highest token accepted; with fencing, reject a
// write that carries a lower one".
func (l *Lease) serveWrite(env Env, m Message) {
	if m.Kind != KindWrite {
		return
	}
	serveFencedWrite(env, m, l.cfg.fencing)
}

// onAnswer is a candidate hearing from the lock service or the resource.
func (l *Lease) onAnswer(env Env, m Message) {
	switch m.Kind {
	case KindGrant:
		l.onGrant(env, m.Value, m.Term)
	case KindDeny:
		if l.st.Status == Leader {
			// While my lease runs by my clock nobody else can hold one: the lock service
			// grants no new lease before mine has run out there, which is later. So a DENY
			// now refuses a renewal (or answers an old request): my lease still runs to its
			// end, and then I stop — unless a renewal is granted before.
			if env.Tracing() {
				env.Note("DENY (%s): no renewal, but my lease still runs until %s by my clock", holderText(m.Value), FormatDuration(l.holdsUntil))
			}
			return
		}
		l.st = State{Status: Follower, Leader: m.Value}
		env.SetTimer(timerRetry, l.cfg.retry)
		if env.Tracing() {
			env.Note("DENY: %s; I ask again in %s", holderText(m.Value), FormatDuration(l.cfg.retry))
		}
	case KindReject:
		if l.st.Status == Leader {
			l.stepDown(env, 0, fmt.Sprintf("REJECT of my write with token %d: a newer token has written — my lease must be gone", m.Term))
		} else if env.Tracing() {
			env.Note("REJECT of my write with token %d: the fence held; I had stopped leading already", m.Term)
		}
	case KindAccept:
		if l.st.Status != Leader && env.Tracing() {
			env.Note("ACCEPT of a write with token %d I sent while I believed I led", m.Term)
		}
	}
}

func holderText(h ID) string {
	if h == 0 {
		return "the lock service names no holder"
	}
	return fmt.Sprintf("%d holds the lease", h)
}

// onGrant: a new lease makes me the leader; a renewal extends mine. Either way my lease runs
// from the moment I sent the request this GRANT answers — the safe side of my clock: the lock
// service started its TTL later, when the request arrived. A GRANT that comes so late that its
// lease is already over is ignored.
func (l *Lease) onGrant(env Env, seq ID, token uint64) {
	i := slices.IndexFunc(l.asked, func(r request) bool { return r.seq == seq })
	if i < 0 && seq <= l.before {
		if env.Tracing() {
			env.Note("GRANT for my request %d with token %d: I sent it before I crashed, and it answers none of my requests since; ignored", seq, token)
		}
		return
	}
	if i < 0 || l.asked[i].at+l.cfg.ttl-l.cfg.margin <= env.Now() {
		if env.Tracing() {
			env.Note("GRANT for my request %d with token %d: it arrived after the lease it gives ran out; ignored", seq, token)
		}
		return
	}
	until := l.asked[i].at + l.cfg.ttl - l.cfg.margin
	renewal := l.st.Status == Leader && token == l.token
	if renewal && until <= l.holdsUntil {
		return // an older renewal, overtaken by a newer one
	}
	l.token, l.holdsUntil = token, until
	env.CancelTimer(timerRetry)
	env.SetTimer(timerExpire, l.holdsUntil-env.Now())
	if renewal {
		return // routine: the lease goes on, nothing to say
	}
	l.st = State{Status: Leader, Leader: l.id, Term: token}
	env.SetTimer(timerRenew, l.cfg.renew)
	env.SetTimer(timerWrite, l.cfg.write)
	if env.Tracing() {
		env.Note("GRANT with token %d: I hold the lease until %s by my clock — I lead", token, FormatDuration(l.holdsUntil))
	}
}

// stepDown: my lease is gone; I ask for it again later.
func (l *Lease) stepDown(env Env, holder ID, why string) {
	env.CancelTimer(timerRenew)
	env.CancelTimer(timerWrite)
	env.CancelTimer(timerExpire)
	l.st = State{Status: Follower, Leader: holder}
	env.SetTimer(timerRetry, l.cfg.retry)
	if env.Tracing() {
		env.Note("%s: I stop leading", why)
	}
}

// Timer handles a candidate's four timers.
func (l *Lease) Timer(env Env, name string) {
	if l.role != "" {
		return
	}
	switch name {
	case timerRenew:
		// "The holder renews its lease before it runs out."
		if l.st.Status == Leader {
			env.Send(l.lock, Message{Kind: KindRenew, Value: l.ask(env)})
			env.SetTimer(timerRenew, l.cfg.renew)
		}
	case timerWrite:
		// "The leader writes to the resource with its token." It writes as long as it
		// believes it leads: that belief is all it has.
		if l.st.Status == Leader {
			if env.Tracing() && env.Now() >= l.holdsUntil {
				env.Note("the write I was about to make when I froze: I still believe I lead with token %d — my lease ran out at %s, but the timer that would tell me is overdue too, and fires after this one",
					l.token, FormatDuration(l.holdsUntil))
			}
			env.Send(l.res, Message{Kind: KindWrite, Term: l.token})
			env.SetTimer(timerWrite, l.cfg.write)
		}
	case timerExpire:
		// "A holder believes it leads while its local lease has not expired."
		if l.st.Status == Leader {
			l.stepDown(env, 0, fmt.Sprintf("my lease with token %d ran out at %s by my clock", l.token, FormatDuration(l.holdsUntil)))
		}
	case timerRetry:
		if l.st.Status != Leader {
			l.acquire(env, "retry")
		}
	}
}

// --- Copying and fingerprinting a node (Node.Clone, Node.AppendState): checkpoints, exploration

// Clone returns a copy of the node with requests of its own; the timing is shared.
func (l *Lease) Clone() Node {
	c := *l
	c.asked = slices.Clone(l.asked)
	return &c
}

// AppendState writes the node's id (its role follows from it) and its state. Of its deadlines —
// the end of its lease, the lease it granted, the grace after a crash — what matters is how
// long is left, or that they have passed; of its requests, only those whose GRANT would still
// give a lease, as onGrant treats the others as never asked.
func (l *Lease) AppendState(b []byte, now time.Duration) []byte {
	b = appendID(b, l.id)
	b = appendNodeState(b, l.st)
	// a candidate
	b = appendUint(b, l.token)
	b = appendDeadline(b, l.holdsUntil, now)
	b = appendID(b, l.seq)
	b = appendID(b, l.before)
	var live []request
	for _, r := range l.asked {
		if r.at+l.cfg.ttl > now {
			live = append(live, r)
		}
	}
	b = appendUint(b, uint64(len(live)))
	for _, r := range live {
		b = appendID(b, r.seq)
		b = appendDeadline(b, r.at+l.cfg.ttl, now)
	}
	// the lock service
	b = appendID(b, l.holder)
	b = appendUint(b, l.granted)
	b = appendDeadline(b, l.expires, now)
	return appendDeadline(b, l.grace, now)
}
