package algo

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// What Paxos declares (its registry entry, parameters and timing warnings), what its messages
// carry besides a ballot, how a node is copied and fingerprinted, and how its own property is
// judged (consensus-safety); the algorithm's rules are in paxos.go.

type paxosConfig struct {
	writes, timeout      time.Duration
	backoff              bool
	backoffLo, backoffHi time.Duration
	slots                int
	keys                 [][2]string // by slot − 1: the stable-storage keys of its accepted ballot and value
}

func paxosInfo() *Info {
	return &Info{
		Name:    "paxos",
		Summary: "Multi-Paxos leadership (Lamport 2001): ballots, PREPARE/PROMISE, ACCEPT as heartbeat; no two values chosen for a slot",
		Kinds:   []string{KindPrepare, KindPromise, KindNack, KindPaxosAccept, KindAccepted, KindChosen},
		Routine: []string{KindPaxosAccept, KindAccepted, KindChosen},
		Terms:   true, // the ballot
		Params: []Param{
			{Key: "writes", Kind: DurationParam, Default: "100ms",
				Help: "the leader proposes one client write (ACCEPT to every node, its heartbeat) at this interval"},
			{Key: "timeout", Kind: DurationParam, Default: "300ms",
				Help: "a node that hears no ACCEPT for this long starts phase 1; a candidate without a majority of PROMISEs after it tries again"},
			{Key: "backoff", Kind: SwitchParam, Default: "on",
				Help: "a preempted proposer waits a random time in backoff-time before phase 1 again (off: at once)"},
			{Key: "backoff-time", Kind: RangeParam, Default: "20ms..200ms",
				Help: "the range the random backoff is drawn from"},
			{Key: "slots", Kind: CountParam, Default: "8",
				Help: "the slots of the replicated log (at most 99); when all are chosen, ACCEPTs carry only the heartbeat"},
		},
		Recovers: true,
		Quorum:   true,
		Guarantees: []Guarantee{
			{Property: PropConsensusSafety, Faults: "yyyyyyy", Why: "a value is chosen by a majority in a ballot, and every later ballot's leader learns it from the promises of a majority"},
			{Property: "one-leader-per-term", Faults: "yyyyyyy", Why: "a ballot belongs to one proposer, and it leads only its own"},
			{Property: "at-most-one-leader", Faults: "---nnn-", Why: "two proposers can both win phase 1 before either hears of the other's ballot, and a leader cut off, slow or paused still believes it leads while a higher ballot elects another"},
			{Property: PropConsensusSafety, Params: []string{"backoff=off"}, Faults: "yyyyyyy", Why: "duelling proposers stop progress, never safety"},
		},
		Monitors: []Monitor{{
			Property: PropConsensusSafety,
			Help:     "no two different values are ever chosen (accepted by a majority in one ballot) for one log slot",
			Watch:    func(c *Cluster) Watcher { return newPaxosSafety(c) },
		}},
		New: func(id ID, c *Cluster) Node { return NewPaxos(id, c) },
		Validate: func(c *Cluster) error {
			if s := c.Params.Count("slots", 8); s > paxosMaxSlots {
				return fmt.Errorf("slots %d is more than %d: a value is 100·id + slot, and two proposers' values must differ", s, paxosMaxSlots)
			}
			return nil
		},
		Warnings: func(c *Cluster) []string { return paxosWarnings(newPaxosConfig(c), c.MaxDelay) },
		NodeMemory: func(n int) (int64, string) {
			return int64(n) * 9, "who promised and what each node accepted, for a candidate or a leader"
		},
	}
}

func newPaxosConfig(c *Cluster) *paxosConfig { return sharedConfig(c, "paxos", makePaxosConfig) }

func makePaxosConfig(c *Cluster) *paxosConfig {
	lo, hi := c.Params.Range("backoff-time", 20*time.Millisecond, 200*time.Millisecond)
	cfg := &paxosConfig{
		writes:    c.Params.Duration("writes", 100*time.Millisecond),
		timeout:   c.Params.Duration("timeout", 300*time.Millisecond),
		backoff:   c.Params.Switch("backoff", true),
		backoffLo: lo, backoffHi: hi,
		slots: min(c.Params.Count("slots", 8), paxosMaxSlots),
	}
	for s := 1; s <= cfg.slots; s++ {
		cfg.keys = append(cfg.keys, [2]string{fmt.Sprintf("accepted-ballot-%d", s), fmt.Sprintf("accepted-value-%d", s)})
	}
	return cfg
}

// paxosWarnings checks what the election needs of the network: a follower hears the next
// ACCEPT before it suspects the leader, and a backoff lasts long enough for a winner's first
// ACCEPT to arrive.
func paxosWarnings(cfg *paxosConfig, maxDelay time.Duration) []string {
	var w []string
	if cfg.timeout <= cfg.writes+maxDelay {
		w = append(w, fmt.Sprintf("timeout %s is not more than writes %s + the max delay %s: followers may start phase 1 while their leader is alive",
			FormatDuration(cfg.timeout), FormatDuration(cfg.writes), FormatDuration(maxDelay)))
	}
	if cfg.backoff && cfg.backoffHi <= 2*maxDelay {
		w = append(w, fmt.Sprintf("backoff-time %s ends at no more than 2 × the max delay %s: a preempted proposer may try again before the winner's ACCEPT reaches it, and the duel go on",
			FormatRange(cfg.backoffLo, cfg.backoffHi), FormatDuration(maxDelay)))
	}
	return w
}

// Log returns what the pictures draw: the values I know are chosen, then what my acceptor has
// accepted in the slots after them.
func (p *Paxos) Log() ([]Entry, uint64) {
	out := p.chosen
	for _, e := range p.accepted[len(p.chosen):] {
		if e.Index != 0 {
			if len(out) == len(p.chosen) {
				out = slices.Clone(p.chosen)
			}
			out = append(out, e)
		}
	}
	return out, uint64(len(p.chosen))
}

// acceptedProposals is what the consensus-safety monitor reads: the proposal my acceptor last
// accepted in each slot. The caller only reads them.
func (p *Paxos) acceptedProposals() []Entry { return p.accepted }

// --- Copying and fingerprinting a node (Node.Clone, Node.AppendState): checkpoints, exploration

// Clone returns a copy of the node with slices of its own; the ids and the timing are shared.
func (p *Paxos) Clone() Node {
	c := *p
	c.accepted = slices.Clone(p.accepted)
	c.chosen = slices.Clone(p.chosen)
	c.promises = slices.Clone(p.promises)
	c.offered = slices.Clone(p.offered)
	c.log = slices.Clone(p.log)
	c.acked = slices.Clone(p.acked)
	return &c
}

// AppendState writes the acceptor (its promise, its accepted proposals), what it knows is
// chosen, its status and leader, and what only some statuses read: a candidate's ballot and
// promises, and the proposals of the ballot it last led while ACCEPTEDs may still count.
func (p *Paxos) AppendState(b []byte, now time.Duration) []byte {
	b = appendID(b, p.id)
	b = appendUint(b, p.promised)
	for _, e := range p.accepted {
		b = appendUint(b, e.Term)
		b = appendUint(b, e.Value)
	}
	b = appendEntries(b, p.chosen)
	b = appendNodeState(b, State{Status: p.status, Leader: p.leader})
	if p.status == Candidate {
		b = appendUint(b, p.ballot)
		for _, ok := range p.promises {
			b = appendBool(b, ok)
		}
		b = appendEntries(b, p.offered)
		b = appendUint(b, p.offeredChosen)
	}
	b = appendUint(b, p.led)
	if p.led != 0 {
		b = appendEntries(b, p.log)
		b = appendUint(b, p.known)
		b = appendUint(b, p.told)
		for _, a := range p.acked {
			b = appendUint(b, a)
		}
	}
	return b
}

// appendEntries writes a list of log entries, its length first.
func appendEntries(b []byte, es []Entry) []byte {
	b = appendUint(b, uint64(len(es)))
	for _, e := range es {
		b = appendUint(b, e.Index)
		b = appendUint(b, e.Term)
		b = appendID(b, e.By)
		b = appendUint(b, e.Value)
	}
	return b
}

// --- What PROMISE, ACCEPTED and CHOSEN carry

// promiseLog is what my acceptor's PROMISE carries: every proposal it has accepted, and how many
// slots I know are chosen — nothing (nil) when it has accepted nothing and knows nothing.
func (p *Paxos) promiseLog() *LogPart {
	l := &LogPart{Commit: uint64(len(p.chosen))}
	for _, e := range p.accepted {
		if e.Index != 0 {
			l.Entries = append(l.Entries, e)
		}
	}
	if l.Commit == 0 && len(l.Entries) == 0 {
		return nil
	}
	return l
}

// acceptedLog is what ACCEPTED carries: the last slot taken, with the ballot, and how many slots
// the acceptor knows are chosen — nothing (nil) for a heartbeat answered knowing none.
func acceptedLog(last, ballot, chosen uint64) *LogPart {
	switch {
	case last > 0:
		return &LogPart{Index: last, IndexTerm: ballot, Commit: chosen}
	case chosen > 0:
		return &LogPart{Commit: chosen}
	}
	return nil
}

// chosenLog is what CHOSEN carries: every value of my log known chosen.
func (p *Paxos) chosenLog() *LogPart {
	return &LogPart{Commit: p.known, Entries: p.log[:p.known:p.known]}
}

// --- consensus-safety

// PropConsensusSafety is Paxos' own property: no two different values are ever chosen for one
// slot of the log, a value being chosen when a majority of the acceptors have accepted it in one
// ballot ("Paxos Made Simple", §2.1–2.2).
const PropConsensusSafety = "consensus-safety"

// paxosAcceptor is what the consensus-safety monitor reads of a node: the proposal its acceptor
// last accepted in each slot (Index 0: none).
type paxosAcceptor interface {
	acceptedProposals() []Entry
}

// paxosSafety judges consensus-safety on the acceptors, after every input a node handles
// (an algo.NodeWatcher): every proposal it has seen an acceptor hold counts that acceptor in
// its ballot; a proposal counted by a majority is chosen, at that step; a second value chosen
// for a slot breaks the property there.
//
// It keeps every proposal not chosen that an acceptor has held — an old ballot too: a broken
// acceptor may still accept in it, and the monitor must not trust the algorithm it judges —
// and, for each slot, the value chosen first. A proposal of the chosen value cannot break
// anything and is not kept.
type paxosSafety struct {
	majority int
	votes    []paxosVote // ascending by slot, ballot, value
	chosen   []paxosVote // ascending by slot: the value chosen first in each
}

// paxosVote is one proposal and the acceptors seen holding it in its ballot; a slot's first
// chosen value is kept as the vote that chose it.
type paxosVote struct {
	slot, ballot, value uint64
	by                  []ID // ascending
}

func newPaxosSafety(c *Cluster) *paxosSafety {
	return &paxosSafety{majority: len(c.Sorted)/2 + 1}
}

var _ NodeWatcher = (*paxosSafety)(nil)

// Sent judges nothing: what the acceptors hold is the evidence.
func (w *paxosSafety) Sent(Message) (bool, []ID, string) { return false, nil, "" }

// Stepped counts node id as an acceptor of every proposal it now holds.
func (w *paxosSafety) Stepped(id ID, n Node) (broken bool, nodes []ID, detail string) {
	a, ok := n.(paxosAcceptor)
	if !ok {
		return false, nil, ""
	}
	for _, e := range a.acceptedProposals() {
		if e.Index == 0 {
			continue
		}
		if c := w.choice(e.Index); c != nil && c.value == e.Value {
			continue
		}
		v := w.vote(e.Index, e.Term, e.Value)
		if k, found := slices.BinarySearch(v.by, id); !found {
			v.by = slices.Insert(v.by, k, id)
		}
		if len(v.by) < w.majority {
			continue
		}
		if c := w.choice(e.Index); c != nil {
			nodes = append(slices.Clone(c.by), v.by...)
			slices.Sort(nodes)
			detail = fmt.Sprintf("slot %d: %d was chosen in ballot %d (accepted by %s), and now %d in ballot %d (accepted by %s)",
				e.Index, c.value, c.ballot, AndList(c.by), v.value, v.ballot, AndList(v.by))
			w.drop(v)
			return true, slices.Compact(nodes), detail
		}
		w.choose(v)
	}
	return false, nil, ""
}

// vote returns the vote for a proposal, adding it if it is new.
func (w *paxosSafety) vote(slot, ballot, value uint64) *paxosVote {
	k, found := slices.BinarySearchFunc(w.votes, paxosVote{slot: slot, ballot: ballot, value: value}, cmpVote)
	if !found {
		w.votes = slices.Insert(w.votes, k, paxosVote{slot: slot, ballot: ballot, value: value})
	}
	return &w.votes[k]
}

func cmpVote(a, b paxosVote) int {
	return cmp.Or(cmp.Compare(a.slot, b.slot), cmp.Compare(a.ballot, b.ballot), cmp.Compare(a.value, b.value))
}

// choice returns the value chosen first for slot, or nil.
func (w *paxosSafety) choice(slot uint64) *paxosVote {
	k, found := slices.BinarySearchFunc(w.chosen, slot, func(c paxosVote, s uint64) int { return cmp.Compare(c.slot, s) })
	if !found {
		return nil
	}
	return &w.chosen[k]
}

// choose records v as its slot's chosen value, and forgets every vote for that value there.
func (w *paxosSafety) choose(v *paxosVote) {
	c := *v
	c.by = slices.Clone(v.by)
	k, _ := slices.BinarySearchFunc(w.chosen, c.slot, func(c paxosVote, s uint64) int { return cmp.Compare(c.slot, s) })
	w.chosen = slices.Insert(w.chosen, k, c)
	w.votes = slices.DeleteFunc(w.votes, func(x paxosVote) bool { return x.slot == c.slot && x.value == c.value })
}

// drop forgets vote v, once it has been reported.
func (w *paxosSafety) drop(v *paxosVote) {
	x := *v
	w.votes = slices.DeleteFunc(w.votes, func(y paxosVote) bool { return cmpVote(x, y) == 0 })
}

// Clone returns a copy that shares nothing that changes.
func (w *paxosSafety) Clone() Watcher {
	c := *w
	c.votes = slices.Clone(w.votes)
	for k := range c.votes {
		c.votes[k].by = slices.Clone(c.votes[k].by)
	}
	c.chosen = slices.Clone(w.chosen)
	for k := range c.chosen {
		c.chosen[k].by = slices.Clone(c.chosen[k].by)
	}
	return &c
}

// AppendState writes the votes and each slot's chosen value (in which ballot, by whom, shows
// only in a violation's words: it is left out).
func (w *paxosSafety) AppendState(b []byte) []byte {
	b = appendUint(b, uint64(len(w.votes)))
	for _, v := range w.votes {
		b = appendUint(b, v.slot)
		b = appendUint(b, v.ballot)
		b = appendUint(b, v.value)
		b = appendUint(b, uint64(len(v.by)))
		for _, id := range v.by {
			b = appendID(b, id)
		}
	}
	b = appendUint(b, uint64(len(w.chosen)))
	for _, c := range w.chosen {
		b = appendUint(b, c.slot)
		b = appendUint(b, c.value)
	}
	return b
}
