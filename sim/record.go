package sim

import (
	"fmt"
	"time"

	"electsim/algo"
	"electsim/network"
)

// Status is a node's status as the run sees it: the algorithm's own status, or the engine's
// overlay when the node is crashed or paused.
type Status uint8

// The statuses of a node in a run.
const (
	Follower  Status = Status(algo.Follower)
	Candidate Status = Status(algo.Candidate)
	Leader    Status = Status(algo.Leader)
	Crashed   Status = 10
	Paused    Status = 11
)

// String returns "follower", "candidate", "leader", "crashed" or "paused".
func (s Status) String() string {
	switch s {
	case Crashed:
		return "crashed"
	case Paused:
		return "paused"
	}
	return algo.Status(s).String()
}

// RecordType is the type of a trace record.
type RecordType uint8

// The trace records (docs/model.md, What a trace records).
const (
	RecBoot    RecordType = iota + 1 // a node boots: at time 0, or when it resumes from a pause begun at 0
	RecSend                          // a node sends a message: its delivery time or why it was dropped at once
	RecDeliver                       // a message arrives and is handled
	RecDrop                          // a message in flight is dropped on arrival
	RecTimer                         // a timer expires
	RecState                         // a node's status, leader belief or term changed
	RecFault                         // a fault action (crash, recover, pause, ..., elect)
	RecSay                           // narration
	RecBreak                         // a demo breakpoint
)

var recordNames = [...]string{
	RecBoot: "boot", RecSend: "send", RecDeliver: "deliver", RecDrop: "drop", RecTimer: "timer",
	RecState: "state", RecFault: "fault", RecSay: "say", RecBreak: "break",
}

// String returns the record type's name in traces: "send", "deliver", ...
func (t RecordType) String() string {
	if int(t) < len(recordNames) && recordNames[t] != "" {
		return recordNames[t]
	}
	return fmt.Sprintf("record(%d)", uint8(t))
}

// Record is one entry of the trace. Which fields are set depends on Type:
//
//	boot     Node
//	send     Msg, and DeliverAt, or Reason when the network dropped it at once
//	deliver  Msg
//	drop     Msg, Reason
//	timer    Node, Timer
//	state    Node, Old, New, Leader, Term
//	fault    Action (and Node for single-node actions)
//	say      Action (its Text)
//	break    Action
//
// Note is the "why" of the node that acted, on the state record it explains or, when the step
// changed no state, on the step's first record; for a fault that did nothing it says why.
type Record struct {
	Step      int
	At        time.Duration
	Type      RecordType
	Node      algo.ID
	Msg       algo.Message
	DeliverAt time.Duration
	Reason    network.Reason
	Timer     string
	Old, New  Status
	Leader    algo.ID
	Term      uint64
	Action    *Action
	Note      string
}
