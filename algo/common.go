package algo

import (
	"fmt"
	"time"
)

// What several algorithms share: message kinds, timer names, the parameters of the heartbeat
// that keeps followers following (docs/algorithms.md, the tables of each algorithm), and the
// timing assumptions an algorithm built on heartbeats and answers makes about the network.

// The message kinds Bully and Ring both send (Lowest-ID sends HEARTBEAT alone).
const (
	KindElection  = "ELECTION"  // a node asks for an election: Bully's to the higher ids, Ring's round the ring
	KindHeartbeat = "HEARTBEAT" // a leader (Lowest-ID: every node) says it is alive
)

// Timer names several algorithms use. A node's timers are named: setting one replaces the
// pending timer of that name (Env.SetTimer).
const (
	timerAnswer    = "answer"    // waiting for an answer: an OK (Bully) or an ACK (Ring)
	timerHeartbeat = "heartbeat" // a leader's next HEARTBEAT round (Raft: APPEND; Lowest-ID: every node's)
	timerSuspect   = "suspect"   // a follower's patience with a silent leader
	timerElection  = "election"  // Ring: a participant's patience with an election; Raft: the election timeout
)

// The parameters of the leader's heartbeat, which Bully and Ring share, with their defaults.
var (
	paramHeartbeat = Param{Key: "heartbeat", Kind: DurationParam, Default: "50ms",
		Help: "a leader sends HEARTBEAT to every other node at this interval"}
	paramTimeout = Param{Key: "timeout", Kind: DurationParam, Default: "150ms",
		Help: "a node suspects its leader after this long without a HEARTBEAT"}
)

// timingWarnings checks the assumptions every heartbeat-and-answer algorithm makes about the
// network: an answer comes back within answer-timeout, a heartbeat within timeout.
func timingWarnings(c *Cluster, heartbeat, timeout, answer time.Duration, answerKind string) []string {
	var w []string
	if answer <= 2*c.MaxDelay {
		w = append(w, fmt.Sprintf("answer-timeout %s is not more than 2 × the max delay %s: an %s can arrive too late, and a node that gives up waiting declares itself leader",
			FormatDuration(answer), FormatDuration(c.MaxDelay), answerKind))
	}
	if timeout <= heartbeat+c.MaxDelay {
		w = append(w, fmt.Sprintf("timeout %s is not more than heartbeat %s + the max delay %s: followers may suspect a leader that is alive when a delay rises",
			FormatDuration(timeout), FormatDuration(heartbeat), FormatDuration(c.MaxDelay)))
	}
	return w
}

// drawDuration draws a duration in [lo, hi] with algo.Draw — in whole microseconds when both
// ends are — so that an explorer can make it a choice.
func drawDuration(env Env, lo, hi time.Duration) time.Duration {
	span := hi - lo
	if span <= 0 {
		return lo
	}
	unit := time.Microsecond
	if lo%unit != 0 || span%unit != 0 {
		unit = 1
	}
	return lo + time.Duration(Draw(env, int64(span/unit)+1))*unit
}
