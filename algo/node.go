package algo

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// ID names a node. IDs are distinct and positive; 0 means "nobody" (for example an unknown
// leader).
type ID int

// Message is a plain value; copying it is always safe. The engine fills From and To when a node
// sends it.
type Message struct {
	Kind     string // "ELECTION", "OK", ...: upper case and stable; traces, tests and JSON use it
	From, To ID
	Value    ID     // the candidate, leader or id the message carries, when its kind carries one
	Term     uint64 // round or term; 0 where the algorithm has none
	Flag     bool   // a yes/no the kind carries, e.g. "vote granted"
	// Phase and Hop are what the ring catalog carries besides an id: the phase (or round) a
	// message belongs to and how many hops it has gone. 0 where the algorithm has none. A
	// field added here must be written by AppendTo, shown by Label, carried by the engine.
	Phase uint32
	Hop   uint32
	// Log is what an algorithm that keeps a replicated log or a versioned record carries besides
	// a term: a position in the log, the sender's commit point and entries (Raft's AppendEntries
	// and RequestVote, Paxos' PROMISE and ACCEPT, Zab's zxid). nil for every other algorithm,
	// whose sends then allocate nothing. What it points to is never changed once sent: every
	// copy of the message shares it.
	Log *LogPart
}

// LogPart is the part of a message about its sender's log.
type LogPart struct {
	// Index is a position in the log, from 1 (0: before the first entry): Raft's prevLogIndex
	// or lastLogIndex, Paxos' slot, Zab's zxid counter.
	Index uint64
	// IndexTerm is the term of the entry at Index: Raft's prevLogTerm or lastLogTerm, Zab's epoch.
	IndexTerm uint64
	// Commit is how much of its log the sender knows is committed (chosen): Raft's leaderCommit.
	Commit uint64
	// Entries are the entries it carries, in log order.
	Entries []Entry
}

// Entry is one entry of a replicated log.
type Entry struct {
	Index uint64 // its position in the log, from 1
	Term  uint64 // the term it was written in (Raft), or the round of the ballot it was accepted in (Paxos)
	By    ID     // who proposed it, where the algorithm says: a Paxos ballot is (round, proposer); 0 elsewhere
	Value uint64 // the client's write it holds
}

// AppendTo appends the log part's canonical encoding to b (see Message.AppendTo).
func (l *LogPart) AppendTo(b []byte) []byte {
	if l == nil {
		return append(b, 0)
	}
	b = append(b, 1)
	b = binary.AppendUvarint(b, l.Index)
	b = binary.AppendUvarint(b, l.IndexTerm)
	b = binary.AppendUvarint(b, l.Commit)
	b = binary.AppendUvarint(b, uint64(len(l.Entries)))
	for _, e := range l.Entries {
		b = binary.AppendUvarint(b, e.Index)
		b = binary.AppendUvarint(b, e.Term)
		b = binary.AppendVarint(b, int64(e.By))
		b = binary.AppendUvarint(b, e.Value)
	}
	return b
}

// String describes the log part for a label: "[at 4/t3, commit 2, entries 5/t3=17 6/t3=18]".
// Each entry is index/term=value, with the proposer after the term where it has one (5/t3.2=17).
func (l *LogPart) String() string {
	var in []string
	if l.Index != 0 || l.IndexTerm != 0 {
		in = append(in, fmt.Sprintf("at %d/t%d", l.Index, l.IndexTerm))
	}
	if l.Commit != 0 {
		in = append(in, fmt.Sprintf("commit %d", l.Commit))
	}
	if len(l.Entries) > 0 {
		es := make([]string, len(l.Entries))
		for i, e := range l.Entries {
			es[i] = e.String()
		}
		in = append(in, "entries "+strings.Join(es, " "))
	}
	return "[" + strings.Join(in, ", ") + "]"
}

// String writes the entry as index/term=value: "5/t3=17", or "5/t3.2=17" with its proposer.
func (e Entry) String() string {
	if e.By != 0 {
		return fmt.Sprintf("%d/t%d.%d=%d", e.Index, e.Term, e.By, e.Value)
	}
	return fmt.Sprintf("%d/t%d=%d", e.Index, e.Term, e.Value)
}

// LogHolder is what a node that keeps a replicated log implements, for the pictures: its
// entries in log order, and how many of them, from the first, it knows are committed (chosen).
// The entries returned are the node's to keep: the caller only reads them.
type LogHolder interface {
	Log() (entries []Entry, committed uint64)
}

// String is the one-line description of a message used by logs, the TUI and golden files:
// "ELECTION 1→2", with "(v)" for a carried value, " t3" for a term and " ✓" for a set flag.
func (m Message) String() string {
	return fmt.Sprintf("%s %d→%d", m.Label(), m.From, m.To)
}

// Label is the message without its ends: "ELECTION(3) t2 ✓", "PROBE(7, phase 2, hop 3)". A
// phase or hop of 0 is not shown.
func (m Message) Label() string { return m.LabelAs("phase") }

// LabelAs is Label with the phase called phaseWord — the algorithm's word for it
// (Info.PhaseWord): "MAX-UID(9, round 3)".
func (m Message) LabelAs(phaseWord string) string {
	s := m.Kind
	var in []string
	if m.Value != 0 {
		in = append(in, fmt.Sprintf("%d", m.Value))
	}
	if m.Phase != 0 {
		in = append(in, fmt.Sprintf("%s %d", phaseWord, m.Phase))
	}
	if m.Hop != 0 {
		in = append(in, fmt.Sprintf("hop %d", m.Hop))
	}
	if len(in) > 0 {
		s += "(" + strings.Join(in, ", ") + ")"
	}
	if m.Term != 0 {
		s += fmt.Sprintf(" t%d", m.Term)
	}
	if m.Flag {
		s += " ✓"
	}
	if m.Log != nil {
		s += " " + m.Log.String()
	}
	return s
}

// AppendTo appends the message's canonical encoding to b — every field, each self-delimiting, in
// a fixed order — and returns the extended slice. Two messages have equal encodings exactly when
// they are equal: what an explorer fingerprints messages in flight with, and what a node's
// AppendState writes for a message it keeps.
func (m Message) AppendTo(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(m.Kind)))
	b = append(b, m.Kind...)
	b = binary.AppendVarint(b, int64(m.From))
	b = binary.AppendVarint(b, int64(m.To))
	b = binary.AppendVarint(b, int64(m.Value))
	b = binary.AppendUvarint(b, m.Term)
	if m.Flag {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(m.Phase))
	b = binary.AppendUvarint(b, uint64(m.Hop))
	return m.Log.AppendTo(b)
}

// Env is everything a node may do. The engine implements it; a node must not keep it beyond the
// call it was handed in.
type Env interface {
	// Now is the virtual time of the input being handled.
	Now() time.Duration
	// Send sends m to node to. The engine sets m.From to the sender and m.To to to; the network
	// decides whether and when it arrives.
	Send(to ID, m Message)
	// SetTimer arranges for Timer(env, name) to be called after the given virtual duration,
	// replacing a pending timer of the same name.
	SetTimer(name string, after time.Duration)
	// CancelTimer cancels the pending timer of that name, if any.
	CancelTimer(name string)
	// Rand is the node's own random source, seeded by the engine from the run's seed.
	Rand() *rand.Rand
	// Tracing reports whether notes are being recorded. Building a note's arguments costs an
	// allocation, so algorithms call Note only when Tracing is true.
	Tracing() bool
	// Note records why the node did what it did in this step ("no OK within 50ms → I am the
	// coordinator"). The TUI and traces show it beside the state change it explains.
	Note(format string, args ...any)
	// Store writes v under key on the node's stable storage. Unlike everything else a node
	// holds, it survives a crash, as a disk would: an algorithm that must not forget a promise
	// across a crash — Raft's term and vote — keeps it there.
	Store(key string, v uint64)
	// Load reads what Store last wrote under key; ok is false if nothing was.
	Load(key string) (v uint64, ok bool)
}

// Drawer is what an Env may implement to hand out random draws itself: an explorer makes
// each draw a choice among a few values of its range (docs/properties.md, "Exhaustive
// exploration"). Draw(n) returns a number in [0, n), n > 0.
type Drawer interface {
	Draw(n int64) int64
}

// Draw returns a random number in [0, n), n > 0: env's own draw if env is a Drawer, else
// env.Rand().Int64N(n). Algorithms draw through it, so an explorer can try every value that
// matters; in a run the engine draws env.Rand().Int64N(n), as this does.
func Draw(env Env, n int64) int64 {
	if d, ok := env.(Drawer); ok {
		return d.Draw(n)
	}
	return env.Rand().Int64N(n)
}

// Node is one participant's state machine. The engine calls exactly one method at a time.
type Node interface {
	// Start boots the node, or restarts it after a crash; its state is fresh either way, and
	// only what it put on stable storage (Env.Store) is there to Load.
	Start(env Env)
	// Receive handles a message delivered by the network.
	Receive(env Env, m Message)
	// Timer handles the expiry of the named timer set with Env.SetTimer.
	Timer(env Env, name string)
	// Elect asks the node to start an election now (the scenario action `elect N`).
	Elect(env Env)
	// State reports the node's status, the leader it believes in and its term.
	State() State

	// Clone returns an independent copy of the node: handing inputs to either never changes
	// the other. What every node of the cluster reads and nobody writes — the cluster's lists,
	// the algorithm's timing — may be shared. The engine clones every node to copy a run: a
	// checkpoint to step back to, a branch an explorer tries.
	Clone() Node

	// AppendState appends to b an encoding of everything in the node's state that can change
	// what it does from now on, and returns the extended slice. Two nodes of one cluster whose
	// encodings are equal — even at different times now — behave alike: handed the same inputs
	// after the same delays, with the same stable storage and random draws, they send the same
	// messages, set the same timers and report the same states. (Their notes may still differ:
	// a note may quote a time.) It is what an explorer fingerprints a state with, to visit each
	// state once.
	//
	// The encoding is canonical: the same state gives the same bytes, whatever the order a map
	// iterates in or where the node lives in memory. The times a node keeps are written
	// relative to now — a follower that heard its leader 20ms ago encodes alike at 100ms and at
	// 300ms — and a time that can no longer matter (a deadline passed, a heartbeat older than
	// the timeout) as one value. What the engine keeps for a node — its timers, its stable
	// storage, its random source — is not the node's to encode.
	AppendState(b []byte, now time.Duration) []byte
}

// Status is what a node believes about its own role. Crashed and paused are not statuses of the
// algorithm: the engine lays them over the node's own status.
type Status uint8

// The statuses a node can be in.
const (
	Follower Status = iota
	Candidate
	Leader
)

// String returns "follower", "candidate" or "leader".
func (s Status) String() string {
	switch s {
	case Follower:
		return "follower"
	case Candidate:
		return "candidate"
	case Leader:
		return "leader"
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// State is what a node reports about itself: its status, the leader it believes in (0 =
// unknown) and its term (0 for algorithms without terms).
type State struct {
	Status Status
	Leader ID
	Term   uint64
}
