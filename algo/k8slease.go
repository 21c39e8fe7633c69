package algo

import (
	"fmt"
	"time"
)

// K8sLease is leader election as Kubernetes controllers do it: client-go's tools/leaderelection
// package, over a Lease object kept by the API server (the package's documentation; the
// coordination.k8s.io Lease's holderIdentity, leaseTransitions and resourceVersion).
//
// Two of the nodes are not candidates. The second-highest id is the API server: it keeps one
// Lease record — its holder, how many times it changed hands (leaseTransitions), and a resource
// version that every successful write makes one higher. An UPDATE names the version it was
// read at, and is applied only if the record is still at that version: a compare-and-swap. If
// someone wrote in between, the answer is 409 Conflict (CONFLICT). The highest id is a resource
// the leader writes to, as in the lease algorithm (algo/fencing.go).
//
// Every other node is a candidate, which every retry-period tries to acquire or renew the lease
// ("tryAcquireOrRenew"): it GETs the record; if the record has changed since it last looked, it
// notes when it saw the change — by its own clock: it "does not consider timestamps in the
// leader election record to be accurate", only their change. If another candidate holds the
// lease and the record has changed within the last lease-duration, it waits. Otherwise it
// UPDATEs the record to name itself — one more transition when it takes the lease over. The
// holder leads: it renews by UPDATE every retry-period (straight away, trusting the version it
// saw last: the "fast path"), and if a round of renewals has not succeeded within
// renew-deadline it stops leading.
//
// The package warns that it "does not guarantee that only one client is acting as a leader (a.k.a.
// fencing)": a holder whose process freezes, or whose clock runs slow, believes it leads past
// the moment another took over. With fencing on, its writes carry the lease's transitions count
// as a fencing token and the resource refuses a token lower than one it has accepted; client-go
// has no such thing, and fencing is off by default.
//
// The Lease lives in etcd: the API server keeps it on stable storage. A candidate's identity is
// its id, so a holder that restarts finds itself named in the record and renews at once.
type K8sLease struct {
	id       ID
	api, res ID
	role     string
	cfg      *k8sConfig
	st       State

	// a candidate
	seen      leaseRecord   // observedRecord: the record as I last saw it
	seenAt    time.Duration // observedTime: when I saw it change, by my clock
	pending   k8sRequest    // what I wait an answer to
	want      uint32        // the version my UPDATE in flight makes, if it is applied
	fast      bool          // my UPDATE in flight is the holder's fast path: on a conflict, GET and try again
	doubt     bool          // an UPDATE of mine went unanswered: GET before the next, to learn whether it was applied
	roundEnds time.Duration // leading: when the round of renewals running gives up (0: none running)

	// the API server
	rec leaseRecord // the Lease, on stable storage
}

// leaseRecord is a Lease as the API server keeps it.
type leaseRecord struct {
	holder      ID     // holderIdentity: 0 when nobody holds it
	version     uint32 // resourceVersion: 0 while there is no Lease yet
	transitions uint64 // leaseTransitions
}

// k8sRequest is what a candidate waits an answer to.
type k8sRequest uint8

const (
	k8sNone k8sRequest = iota
	k8sGet
	k8sUpdate
)

// RoleAPIServer is the role of the node that keeps the Lease.
const RoleAPIServer = "API server"

// The message kinds of K8sLease, besides the resource's WRITE, ACCEPT and REJECT. The record is
// carried as its holder (Value), its version (Phase: "version 7") and its transitions (Term).
const (
	KindGet      = "GET"      // a candidate reads the Lease
	KindLease    = "LEASE"    // the API server's answer: the record; ✓ when it answers an UPDATE that was applied
	KindUpdate   = "UPDATE"   // write the record: the new holder (Value) and transitions (Term), if it is still at version Phase
	KindConflict = "CONFLICT" // 409 Conflict: the record is no longer at that version (Phase: the version it is at)
)

// Timer names of K8sLease, besides the lease's retry (the next try) and write.
const (
	timerRequest  = "request"  // a GET or UPDATE has not been answered within retry-period: the try failed
	timerDeadline = "deadline" // leading: the round of renewals has not succeeded in time
)

// Keys on the API server's stable storage.
const (
	diskHolder      = "holder"
	diskVersion     = "version"
	diskTransitions = "transitions"
)

type k8sConfig struct {
	duration, deadline, retry, write time.Duration
	fencing                          bool
}

func k8sLeaseInfo() *Info {
	return &Info{
		Name:      "k8s-lease",
		Summary:   "client-go's leaderelection: a Lease on an API server, taken over by compare-and-swap once unchanged for lease-duration",
		Kinds:     []string{KindGet, KindLease, KindUpdate, KindConflict, KindWrite, KindAccept, KindReject},
		Routine:   []string{KindGet, KindLease, KindUpdate, KindWrite, KindAccept},
		Terms:     true, // leaseTransitions: one holder each
		TermWord:  "transitions",
		PhaseWord: "version",
		StoredIDs: []string{diskHolder}, // the API server keeps the holder's id, not a number that grows
		Params: []Param{
			{Key: "lease-duration", Kind: DurationParam, Default: "300ms",
				Help: "a candidate takes the lease over once the record has not changed for this long by its clock (client-go: LeaseDuration, 15s)"},
			{Key: "renew-deadline", Kind: DurationParam, Default: "200ms",
				Help: "the holder stops leading when a round of renewals has not succeeded within this long (client-go: RenewDeadline, 10s)"},
			{Key: "retry-period", Kind: DurationParam, Default: "40ms",
				Help: "every candidate tries to acquire or renew the lease at this interval (client-go: RetryPeriod, 2s)"},
			{Key: "write", Kind: DurationParam, Default: "50ms", Help: "the leader writes to the resource at this interval"},
			{Key: "fencing", Kind: SwitchParam, Default: "off",
				Help: "the leader's writes carry the lease's transitions as a fencing token, and the resource rejects one lower than it has accepted"},
		},
		Recovers: true,
		Guarantees: []Guarantee{
			{Property: "at-most-one-leader", Faults: "yyyy-ny", Why: "a holder frozen, or whose renewal's answer is held up, believes it leads past its successor's takeover"},
			{Property: "one-leader-per-term", Faults: "yyyyyyy", Why: "each takeover is one compare-and-swap from the version it read: one holder per transitions count"},
			{Property: PropNoStaleWrite, Faults: "y----n-", Why: "without fencing, a frozen holder's writes land after its successor's"},
			{Property: PropNoStaleWrite, Params: []string{"fencing=on"}, Faults: "yyyyyyy", Why: "the resource refuses a write whose transitions count is older than one it has accepted"}},
		New: func(id ID, c *Cluster) Node { return NewK8sLease(id, c) },
		Validate: func(c *Cluster) error {
			if len(c.Sorted) < 3 {
				return fmt.Errorf("k8s-lease needs at least 3 nodes: candidates, an API server (the second-highest id) and a resource (the highest)")
			}
			return nil
		},
		Roles: func(c *Cluster) map[ID]string {
			api, res := leaseRoles(c)
			return map[ID]string{api: RoleAPIServer, res: RoleResource}
		},
		Warnings: func(c *Cluster) []string { return k8sWarnings(newK8sConfig(c), c.MaxDelay) },
		Monitors: []Monitor{{
			Property: PropNoStaleWrite,
			Help:     "the resource never accepts a write whose token is lower than one it has already accepted",
			Watch:    func(*Cluster) Watcher { return watchStaleWrites() },
		}},
	}
}

// k8sWarnings checks what client-go's NewLeaderElector requires, and what keeps two holders
// apart: the holder gives up — renew-deadline after the round that follows its last renewal,
// a retry-period after it, plus the delay of the renewal's answer — before a candidate that saw
// that renewal can take over, lease-duration after it saw it.
func k8sWarnings(cfg *k8sConfig, maxDelay time.Duration) []string {
	var w []string
	if cfg.deadline <= cfg.retry*6/5 {
		w = append(w, fmt.Sprintf("renew-deadline %s is not more than 1.2 × retry-period %s: the holder may stop leading before a second try (client-go refuses this)",
			FormatDuration(cfg.deadline), FormatDuration(cfg.retry)))
	}
	if cfg.duration <= cfg.deadline+cfg.retry+maxDelay {
		w = append(w, fmt.Sprintf("lease-duration %s is not more than renew-deadline %s + retry-period %s + the max delay %s: a holder whose renewals fail can still lead when another candidate takes over",
			FormatDuration(cfg.duration), FormatDuration(cfg.deadline), FormatDuration(cfg.retry), FormatDuration(maxDelay)))
	}
	return w
}

func newK8sConfig(c *Cluster) *k8sConfig {
	return sharedConfig(c, "k8s-lease", func(c *Cluster) *k8sConfig {
		p := c.Params
		return &k8sConfig{
			duration: p.Duration("lease-duration", 300*time.Millisecond),
			deadline: p.Duration("renew-deadline", 200*time.Millisecond),
			retry:    p.Duration("retry-period", 40*time.Millisecond),
			write:    p.Duration("write", 50*time.Millisecond),
			fencing:  p.Switch("fencing", false),
		}
	})
}

// NewK8sLease returns node id of cluster c, not yet started: a candidate, the API server or the
// resource, by its id.
func NewK8sLease(id ID, c *Cluster) *K8sLease {
	if c.Index(id) < 0 {
		panic(fmt.Sprintf("algo: node %d is not in the cluster", id))
	}
	k := &K8sLease{id: id, cfg: newK8sConfig(c)}
	k.api, k.res = leaseRoles(c)
	switch id {
	case k.api:
		k.role = RoleAPIServer
	case k.res:
		k.role = RoleResource
	}
	return k
}

var _ Node = (*K8sLease)(nil)

// State reports a candidate's status, the holder it last saw and, while it leads, the
// transitions count it took the lease with. The API server and the resource lead and follow
// nobody: theirs is the zero State.
func (k *K8sLease) State() State { return k.st }

func (k *K8sLease) leading() bool { return k.st.Status == Leader }

// message writes a record into a message of kind.
func (r leaseRecord) message(kind string) Message {
	return Message{Kind: kind, Value: r.holder, Phase: r.version, Term: r.transitions}
}

func recordOf(m Message) leaseRecord {
	return leaseRecord{holder: m.Value, version: m.Phase, transitions: m.Term}
}

// Start: the API server reads the Lease from etcd; the resource reads the highest token it took;
// a candidate, which remembers nothing, tries at once.
func (k *K8sLease) Start(env Env) {
	switch k.role {
	case RoleAPIServer:
		holder, _ := env.Load(diskHolder)
		version, _ := env.Load(diskVersion)
		transitions, _ := env.Load(diskTransitions)
		k.rec = leaseRecord{holder: ID(holder), version: uint32(version), transitions: transitions}
		if env.Tracing() {
			if k.rec.version == 0 {
				env.Note("API server up: no Lease yet")
			} else {
				env.Note("API server up: the Lease, from etcd, is at version %d, held by %s, %d transitions", k.rec.version, holderName(k.rec.holder), k.rec.transitions)
			}
		}
	case RoleResource:
		noteStoreUp(env, k.cfg.fencing)
	default:
		k.st = State{Status: Candidate}
		k.attempt(env, "booted")
	}
}

func holderName(h ID) string {
	if h == 0 {
		return "nobody"
	}
	return fmt.Sprint(h)
}

// Elect: a candidate that does not lead tries now; the holder gives the lease up, as client-go's
// ReleaseOnCancel does — an UPDATE naming nobody, which every candidate may take over at once.
func (k *K8sLease) Elect(env Env) {
	switch {
	case k.role != "":
	case k.leading():
		k.pending, k.want, k.fast = k8sUpdate, k.seen.version+1, false
		env.Send(k.api, Message{Kind: KindUpdate, Phase: k.seen.version, Term: k.seen.transitions})
		env.SetTimer(timerRequest, k.cfg.retry)
		k.stopLeading(env, "asked to elect: I give the lease up — UPDATE naming nobody")
	default:
		k.attempt(env, "asked to elect")
	}
}

// attempt is tryAcquireOrRenew: the holder whose lease is valid by its clock UPDATEs straight
// away ("fast path for the leader to update optimistically assuming that the record observed
// last time is the current version"); anyone else GETs the record first. A try ends with its
// answer, or when a request goes unanswered for a retry-period; the next try comes a
// retry-period after.
func (k *K8sLease) attempt(env Env, why string) {
	env.CancelTimer(timerRetry)
	if k.leading() && k.seen.holder == k.id && k.valid(env) && !k.doubt {
		k.update(env, k.seen.transitions, true)
		return
	}
	k.get(env)
	if why != "" && env.Tracing() {
		env.Note("%s: GET the Lease from the API server %d", why, k.api)
	}
}

// get sends a GET.
func (k *K8sLease) get(env Env) {
	k.pending, k.fast = k8sGet, false
	env.Send(k.api, Message{Kind: KindGet})
	env.SetTimer(timerRequest, k.cfg.retry)
}

// tried ends a try that did not make me the holder: the next one comes a retry-period later.
func (k *K8sLease) tried(env Env) {
	k.pending = k8sNone
	env.CancelTimer(timerRequest)
	env.SetTimer(timerRetry, k.cfg.retry)
}

// valid is isLeaseValid: the record I last saw changed within lease-duration, by my clock.
func (k *K8sLease) valid(env Env) bool {
	return env.Now() < k.seenAt+k.cfg.duration
}

// update sends the UPDATE naming me, with transitions, expected at the version I saw.
func (k *K8sLease) update(env Env, transitions uint64, fast bool) {
	k.pending, k.want, k.fast = k8sUpdate, k.seen.version+1, fast
	env.Send(k.api, Message{Kind: KindUpdate, Value: k.id, Phase: k.seen.version, Term: transitions})
	env.SetTimer(timerRequest, k.cfg.retry)
}

// Receive dispatches by role.
func (k *K8sLease) Receive(env Env, m Message) {
	switch k.role {
	case RoleAPIServer:
		k.serve(env, m)
	case RoleResource:
		if m.Kind == KindWrite {
			serveFencedWrite(env, m, k.cfg.fencing)
		}
	default:
		k.onAnswer(env, m)
	}
}

// serve is the API server: a GET gets the record; an UPDATE is applied only if the record is
// still at the version it names — optimistic concurrency — and is answered with the new record,
// or else with 409 Conflict.
func (k *K8sLease) serve(env Env, m Message) {
	switch m.Kind {
	case KindGet:
		env.Send(m.From, k.rec.message(KindLease))
	case KindUpdate:
		if m.Phase != k.rec.version {
			env.Send(m.From, Message{Kind: KindConflict, Phase: k.rec.version})
			if env.Tracing() {
				env.Note("UPDATE from %d at version %d, but the Lease is at version %d: 409 Conflict", m.From, m.Phase, k.rec.version)
			}
			return
		}
		old := k.rec
		k.rec = leaseRecord{holder: m.Value, version: old.version + 1, transitions: m.Term}
		env.Store(diskHolder, uint64(k.rec.holder))
		env.Store(diskVersion, uint64(k.rec.version))
		env.Store(diskTransitions, k.rec.transitions)
		reply := k.rec.message(KindLease)
		reply.Flag = true
		env.Send(m.From, reply)
		if old.holder != k.rec.holder && env.Tracing() {
			env.Note("UPDATE from %d at version %d applied: the Lease, held by %s, is now held by %s — version %d, %d transitions",
				m.From, m.Phase, holderName(old.holder), holderName(k.rec.holder), k.rec.version, k.rec.transitions)
		}
	}
}

// onAnswer is a candidate hearing from the API server or the resource.
func (k *K8sLease) onAnswer(env Env, m Message) {
	switch m.Kind {
	case KindLease:
		news := k.observe(env, recordOf(m))
		switch {
		case m.Flag && k.pending == k8sUpdate && m.Phase == k.want:
			if m.Value == k.id {
				k.renewed(env)
			} else {
				k.tried(env) // my release was applied
			}
		case !m.Flag && k.pending == k8sGet:
			k.doubt = false
			k.decide(env, news)
		}
	case KindConflict:
		if k.pending != k8sUpdate {
			return
		}
		if k.fast {
			// "Failed to update lock optimistically, falling back to slow path."
			k.get(env)
			return
		}
		k.tried(env)
		if env.Tracing() {
			env.Note("409 Conflict: someone wrote the Lease first (it is at version %d); I try again in %s", m.Phase, FormatDuration(k.cfg.retry))
		}
	case KindReject:
		if k.leading() {
			k.stopLeading(env, fmt.Sprintf("REJECT of my write with token %d: a newer holder has written — my lease must be gone", m.Term))
		}
	}
}

// observe: "if the record differs from what I observed, observe it, now, by my clock". Versions
// only grow, so an older record is one that a late answer carried, and changes nothing. It
// reports whether the record names another holder than the one I saw before.
func (k *K8sLease) observe(env Env, r leaseRecord) (news bool) {
	if r.version <= k.seen.version {
		return false
	}
	news = r.holder != k.seen.holder || k.seen.version == 0
	k.seen, k.seenAt = r, env.Now()
	if k.leading() {
		return news // a holder leads until its renewals fail, whatever it sees
	}
	switch r.holder {
	case 0, k.id:
		k.st = State{Status: Candidate}
	default:
		k.st = State{Status: Follower, Leader: r.holder}
	}
	return news
}

// decide is the slow path, after a GET: "if the lock is held by another and has not yet
// expired", wait; else UPDATE it to name me — one more transition if I take it over. news says
// the GET showed a holder I had not seen: only then does the wait earn a note.
func (k *K8sLease) decide(env Env, news bool) {
	s := k.seen
	if s.holder != 0 && s.holder != k.id && k.valid(env) {
		k.tried(env)
		switch {
		case !news || !env.Tracing():
		case k.leading():
			env.Note("the Lease names %d now (version %d), not me: no renewal — but I lead on until my round of renewals gives up, at %s by my clock",
				s.holder, s.version, FormatDuration(k.roundEnds))
		default:
			env.Note("%d holds the Lease, which changed at %s by my clock: I may take it over from %s", s.holder,
				FormatDuration(k.seenAt), FormatDuration(k.seenAt+k.cfg.duration))
		}
		return
	}
	transitions := s.transitions
	if s.holder != k.id && s.version != 0 {
		transitions++
	}
	k.update(env, transitions, false)
	if !k.leading() && env.Tracing() {
		why := "there is no Lease yet"
		switch {
		case s.holder == k.id:
			why = "it names me"
		case s.holder == 0 && s.version != 0:
			why = "nobody holds it"
		case s.holder != 0:
			why = fmt.Sprintf("%d has not renewed it since %s by my clock, %s ago", s.holder, FormatDuration(k.seenAt), FormatDuration(env.Now()-k.seenAt))
		}
		env.Note("%s: UPDATE it at version %d to name me", why, s.version)
	}
}

// renewed: my UPDATE was applied. A candidate now leads; the holder's round of renewals ends,
// and the next one starts a retry-period later.
func (k *K8sLease) renewed(env Env) {
	k.tried(env)
	k.roundEnds = 0
	env.CancelTimer(timerDeadline)
	if k.leading() {
		return // routine: the lease goes on
	}
	k.st = State{Status: Leader, Leader: k.id, Term: k.seen.transitions}
	env.SetTimer(timerWrite, k.cfg.write)
	if env.Tracing() {
		env.Note("my UPDATE was applied: I hold the Lease, version %d, %d transitions — I lead, renewing every %s, and stop if a round of renewals fails for %s",
			k.seen.version, k.seen.transitions, FormatDuration(k.cfg.retry), FormatDuration(k.cfg.deadline))
	}
}

// stopLeading: "failed to renew lease … stopped leading". I follow whoever I saw last, and go
// on trying as a candidate.
func (k *K8sLease) stopLeading(env Env, why string) {
	env.CancelTimer(timerWrite)
	env.CancelTimer(timerDeadline)
	k.roundEnds = 0
	k.st = State{Status: Candidate}
	if h := k.seen.holder; h != 0 && h != k.id {
		k.st = State{Status: Follower, Leader: h}
	}
	if k.pending == k8sNone {
		env.SetTimer(timerRetry, k.cfg.retry)
	}
	if env.Tracing() {
		env.Note("%s: I stop leading", why)
	}
}

// Timer handles a candidate's timers.
func (k *K8sLease) Timer(env Env, name string) {
	if k.role != "" {
		return
	}
	switch name {
	case timerRequest:
		// A request unanswered for a retry-period has failed. If it was an UPDATE, it may yet be
		// applied, and its answer come late: the next try GETs the record first, and an answer
		// to an UPDATE is taken only while that UPDATE is the request I wait on — over a link
		// that keeps order, as one HTTP connection does, the GET's answer comes after it.
		if k.pending != k8sNone {
			k.doubt = k.doubt || k.pending == k8sUpdate
			k.pending = k8sNone
			k.attempt(env, "")
		}
	case timerRetry:
		if k.leading() && k.roundEnds == 0 {
			// A round of renewals: "PollImmediateUntil(RetryPeriod, tryAcquireOrRenew)" under a
			// timeout of RenewDeadline.
			k.roundEnds = env.Now() + k.cfg.deadline
			env.SetTimer(timerDeadline, k.cfg.deadline)
		}
		k.attempt(env, "")
	case timerDeadline:
		if k.leading() {
			k.stopLeading(env, fmt.Sprintf("no renewal succeeded within renew-deadline %s", FormatDuration(k.cfg.deadline)))
		}
	case timerWrite:
		// "The leader writes to the resource" — as long as it believes it leads.
		if k.leading() {
			if env.Tracing() && k.seen.holder != k.id {
				env.Note("I still believe I lead: my round of renewals runs until %s by my clock — though the Lease names %d", FormatDuration(k.roundEnds), k.seen.holder)
			} else if env.Tracing() && !k.valid(env) {
				env.Note("I still believe I lead: my round of renewals runs until %s by my clock — though the Lease I saw last changed at %s", FormatDuration(k.roundEnds), FormatDuration(k.seenAt))
			}
			env.Send(k.res, Message{Kind: KindWrite, Term: k.st.Term})
			env.SetTimer(timerWrite, k.cfg.write)
		}
	}
}

// --- Copying and fingerprinting a node (Node.Clone, Node.AppendState): checkpoints, exploration

// Clone returns a copy of the node: it holds no slices or maps; the timing is shared.
func (k *K8sLease) Clone() Node {
	c := *k
	return &c
}

// AppendState writes the node's id (its role follows from it) and its state. Of when it saw the
// record change, what matters is how long ago, within lease-duration; of its round's end, how
// long is left.
func (k *K8sLease) AppendState(b []byte, now time.Duration) []byte {
	b = appendID(b, k.id)
	b = appendNodeState(b, k.st)
	b = appendLeaseRecord(b, k.seen)
	b = appendRecent(b, k.seenAt, now, k.cfg.duration)
	b = append(b, byte(k.pending))
	b = appendUint(b, uint64(k.want))
	b = appendBool(b, k.fast)
	b = appendBool(b, k.doubt)
	b = appendDeadline(b, k.roundEnds, now)
	return appendLeaseRecord(b, k.rec)
}

func appendLeaseRecord(b []byte, r leaseRecord) []byte {
	b = appendID(b, r.holder)
	b = appendUint(b, uint64(r.version))
	return appendUint(b, r.transitions)
}
