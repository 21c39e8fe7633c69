package sim

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"electsim/algo"
	"electsim/internal/human"
)

// The properties the monitors check (docs/properties.md).
const (
	AtMostOneLeader  = "at-most-one-leader"
	OneLeaderPerTerm = "one-leader-per-term"
	Agreement        = "agreement"
)

// Violation is a property violated over an interval of virtual time, by the nodes named.
type Violation struct {
	Property string
	From, To time.Duration
	Nodes    []algo.ID
	Detail   string
}

// String writes "at-most-one-leader 1200ms–1210ms: nodes 3 4". An interval that lasts no time
// at all — one node becomes a leader and another stops at the same instant — is said in words:
// "at-most-one-leader for an instant at 614ms: nodes 1 5". A violation of the other properties
// is an event, at one time: "one-leader-per-term 300ms: nodes 2 3 (...)".
func (v Violation) String() string {
	s := fmt.Sprintf("%s %s", v.Property, human.Millis(v.From))
	switch {
	case v.To != v.From:
		s += "–" + human.Millis(v.To)
	case v.Property == AtMostOneLeader:
		s = fmt.Sprintf("%s for an instant at %s", v.Property, human.Millis(v.From))
	}
	switch len(v.Nodes) {
	case 0:
	case 1:
		s += ": node " + joinIDs(v.Nodes, " ")
	default:
		s += ": nodes " + listIDs(v.Nodes, " ")
	}
	if v.Detail != "" {
		s += " (" + v.Detail + ")"
	}
	return s
}

func joinIDs(ids []algo.ID, sep string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return strings.Join(parts, sep)
}

// metrics counts messages by kind and the run's elections.
type metrics struct {
	kinds                    []string
	sent, delivered, dropped []int64
	elections, leaderChanges int
}

func (m *metrics) init(kinds []string) {
	for _, k := range kinds {
		m.kind(k)
	}
}

// kindOf is kind for a node's Send: the kinds it declared are looked up in line, one it did not
// is added out of line.
func (m *metrics) kindOf(k string) uint16 {
	for i, x := range m.kinds {
		if sameString(x, k) {
			return uint16(i)
		}
	}
	return m.addKind(k)
}

//go:noinline
func (m *metrics) addKind(k string) uint16 { return uint16(m.kind(k)) }

// kind returns the index of a message kind, adding kinds the algorithm did not declare.
func (m *metrics) kind(k string) int {
	for i, x := range m.kinds {
		if sameString(x, k) {
			return i
		}
	}
	m.kinds = append(m.kinds, k)
	m.sent = append(m.sent, 0)
	m.delivered = append(m.delivered, 0)
	m.dropped = append(m.dropped, 0)
	return len(m.kinds) - 1
}

// monitor watches every state change for the properties and the leader metrics. Nodes with a
// role (a lease's lock service and resource) are not candidates: it leaves them out.
type monitor struct {
	s    *Sim
	role []string // by node index: "" for a candidate for leadership

	// the algorithm's own properties, each judging every message sent; those that judge the
	// nodes too, after every input, are also in nodeWatchers (the same judges)
	watchers     []watcher
	nodeWatchers []nodeWatcher

	// at-most-one-leader: live (not crashed) nodes whose status is Leader; a paused leader
	// counts, since it still believes.
	leaders    int
	split      *Violation // the interval in progress
	splitTotal time.Duration

	// one-leader-per-term
	termLeader map[uint64]algo.ID

	// agreement: belief[i] counts the live nodes that name node i their leader.
	live            int
	belief          []int32
	agreed          int32 // index+1 of the leader every live node names, 0 if none
	firstAgreed     time.Duration
	leaderless      time.Duration // total, up to leaderlessFrom
	leaderlessFrom  time.Duration // when the current leaderless stretch began
	leaderCrashedAt time.Duration // -1, or when a leader crashed with no new one agreed yet
	recoveries      []time.Duration

	violations []Violation

	// groups, for an algorithm of groups, are its groups just before each fault (groups.go).
	groups []GroupsAt
}

// watcher is one of the algorithm's own monitors in a run.
type watcher struct {
	property string
	judge    algo.Watcher
}

// nodeWatcher is one of the algorithm's own monitors that judges nodes after their inputs.
type nodeWatcher struct {
	property string
	judge    algo.NodeWatcher
}

func (m *monitor) init(s *Sim) {
	m.s = s
	m.live = len(s.nodes)
	m.role = make([]string, len(s.nodes))
	if s.cfg.Algorithm.Roles != nil {
		for id, r := range s.cfg.Algorithm.Roles(s.cluster) {
			if i := s.cluster.Index(id); i >= 0 && r != "" {
				m.role[i] = r
				m.live--
			}
		}
	}
	for _, mon := range s.cfg.Algorithm.Monitors {
		if mon.Watch != nil {
			judge := mon.Watch(s.cluster)
			m.watchers = append(m.watchers, watcher{mon.Property, judge})
			if nw, ok := judge.(algo.NodeWatcher); ok {
				m.nodeWatchers = append(m.nodeWatchers, nodeWatcher{mon.Property, nw})
			}
		}
	}
	m.belief = make([]int32, len(s.nodes))
	m.firstAgreed = -1
	m.leaderCrashedAt = -1
	if s.cfg.Algorithm.Terms {
		m.termLeader = map[uint64]algo.ID{}
	}
}

// sent shows a message just sent to the algorithm's own monitors.
func (m *monitor) sent(msg algo.Message) {
	for _, w := range m.watchers {
		if broken, nodes, detail := w.judge.Sent(msg); broken {
			slices.Sort(nodes)
			m.violations = append(m.violations, Violation{Property: w.property, From: m.s.now, To: m.s.now,
				Nodes: nodes, Detail: detail})
		}
	}
}

// stepped shows node n, which just handled an input, to the monitors that judge nodes.
func (m *monitor) stepped(n *nodeRec) {
	id := m.s.nodeID(n)
	for _, w := range m.nodeWatchers {
		if broken, nodes, detail := w.judge.Stepped(id, n.node); broken {
			slices.Sort(nodes)
			m.violations = append(m.violations, Violation{Property: w.property, From: m.s.now, To: m.s.now,
				Nodes: nodes, Detail: detail})
		}
	}
}

// changed is called after node n's state went from old to st (n is live).
func (m *monitor) changed(n *nodeRec, old, st algo.State) {
	if m.role[n.idx] != "" {
		return // not a candidate for leadership
	}
	now := m.s.now
	if st.Status == algo.Candidate && (old.Status != algo.Candidate || st.Term != old.Term) {
		m.s.metrics.elections++
	}
	wasLeader, isLeader := old.Status == algo.Leader, st.Status == algo.Leader
	switch {
	case isLeader && !wasLeader:
		m.s.metrics.leaderChanges++
		m.leaders++
		m.leaderUp(n)
	case wasLeader && !isLeader:
		m.leaders--
		m.leaderDown()
	}
	if isLeader && m.termLeader != nil && (!wasLeader || old.Term != st.Term) {
		if other, ok := m.termLeader[st.Term]; ok && other != m.s.nodeID(n) {
			m.violations = append(m.violations, Violation{Property: OneLeaderPerTerm, From: now, To: now,
				Nodes: sortedIDs(other, m.s.nodeID(n)), Detail: fmt.Sprintf("both leaders of term %d", st.Term)})
		} else {
			m.termLeader[st.Term] = m.s.nodeID(n)
		}
	}
	m.unbelieve(old.Leader)
	m.believe(st.Leader)
	m.recheck(n)
}

func sortedIDs(ids ...algo.ID) []algo.ID {
	slices.Sort(ids)
	return ids
}

// leaderUp: node n just became a leader.
func (m *monitor) leaderUp(n *nodeRec) {
	if m.leaders < 2 {
		return
	}
	if m.split == nil {
		// n is among the leaders already: its new state is recorded before the monitor runs.
		m.split = &Violation{Property: AtMostOneLeader, From: m.s.now}
		for i := range m.s.nodes {
			if n := &m.s.nodes[i]; !n.down && n.last.Status == algo.Leader && m.role[i] == "" {
				m.split.Nodes = append(m.split.Nodes, m.s.nodeID(n))
			}
		}
		return
	}
	if !slices.Contains(m.split.Nodes, m.s.nodeID(n)) {
		m.split.Nodes = append(m.split.Nodes, m.s.nodeID(n))
		slices.Sort(m.split.Nodes)
	}
}

// leaderDown: a leader stepped down or crashed.
func (m *monitor) leaderDown() {
	if m.split != nil && m.leaders < 2 {
		m.split.To = m.s.now
		m.splitTotal += m.split.To - m.split.From
		m.violations = append(m.violations, *m.split)
		m.split = nil
	}
}

func (m *monitor) believe(id algo.ID) {
	if i := m.s.cluster.Index(id); i >= 0 {
		m.belief[i]++
	}
}

func (m *monitor) unbelieve(id algo.ID) {
	if i := m.s.cluster.Index(id); i >= 0 {
		m.belief[i]--
	}
}

// valid reports whether every live node names node i, which is live and leads.
func (m *monitor) valid(i int32) bool {
	n := &m.s.nodes[i]
	return !n.down && n.last.Status == algo.Leader && int(m.belief[i]) == m.live && m.role[i] == ""
}

// recheck updates the agreed leader after node n changed. If every live node agrees, they all
// agree with n (when n is live) — so only n's leader needs checking.
func (m *monitor) recheck(n *nodeRec) {
	prev := m.agreed
	if m.agreed != 0 && !m.valid(m.agreed-1) {
		m.agreed = 0
	}
	if m.agreed == 0 {
		var cand algo.ID
		if n != nil && !n.down && m.role[n.idx] == "" {
			cand = n.last.Leader
		} else {
			for i := range m.s.nodes {
				if !m.s.nodes[i].down && m.role[i] == "" {
					cand = m.s.nodes[i].last.Leader
					break
				}
			}
		}
		if i := int32(m.s.cluster.Index(cand)); i >= 0 && m.valid(i) {
			m.agreed = i + 1
		}
	}
	now := m.s.now
	switch {
	case prev != 0 && m.agreed == 0:
		m.leaderlessFrom = now
	case prev == 0 && m.agreed != 0:
		m.leaderless += now - m.leaderlessFrom
		if m.firstAgreed < 0 {
			m.firstAgreed = now
		}
		if m.leaderCrashedAt >= 0 {
			m.recoveries = append(m.recoveries, now-m.leaderCrashedAt)
			m.leaderCrashedAt = -1
		}
	}
}

// crashed is called when node n has just crashed; old is the state it had.
func (m *monitor) crashed(n *nodeRec, old algo.State) {
	if m.role[n.idx] != "" {
		return
	}
	if old.Status == algo.Leader {
		m.leaders--
		if m.leaderCrashedAt < 0 {
			m.leaderCrashedAt = m.s.now
		}
	}
	m.unbelieve(old.Leader)
	m.live--
	m.leaderDown()
	m.recheck(nil)
}

// recovering is called when node n comes back, before it boots.
func (m *monitor) recovering(n *nodeRec) {
	if m.role[n.idx] != "" {
		return
	}
	m.live++
	m.recheck(n)
}

// agreedLeader returns the leader every live node names, or 0.
func (m *monitor) agreedLeader() algo.ID {
	if m.agreed == 0 {
		return 0
	}
	return m.s.idOf(int32(m.agreed - 1))
}
