package algo

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Omega is an eventual leader detector, Ω, for processes that crash and recover: the algorithm
// "Elect Lower Epoch" of C. Cachin, R. Guerraoui and L. Rodrigues, Introduction to Reliable and
// Secure Distributed Programming (2nd ed., Springer 2011), chapter 2. Ω promises only that
// eventually every correct process trusts the same correct process — the abstraction on which
// Paxos-style consensus builds its progress. Until then, any number of processes may trust
// themselves.
//
// Every process keeps an epoch on stable storage and increments it at every recovery — its
// first boot included — so that a process that keeps crashing keeps raising its epoch. It
// sends HEARTBEAT with its epoch to every process, and at the end of each period trusts, among
// the processes it heard from in that period and itself, the one with the lowest epoch, ties
// broken by rank (here the lower id ranks higher). A process that crashes and recovers comes
// back with a higher epoch than those that stayed up, and stops being trusted.
//
// The period is a timeout in a partially synchronous system: too short, and a process drops a
// live leader whose heartbeat was late. So each time its leader changes — a crash, or a
// suspicion it cannot tell from one — a process lengthens its period by `timeout`: after the
// network settles, wrong suspicions die out. Here the period stops growing at `max-timeout`,
// and heartbeats go every `heartbeat`, apart from the period (the book sends one per period):
// a period that has stopped growing still hears every live process.
//
// docs/algorithms.md explains it; each method states the rule it implements.
type Omega struct {
	id   ID
	all  []ID // every process, ascending: a lower id ranks higher
	self int  // my position in all
	cfg  *omegaConfig

	epoch  uint64        // mine, on stable storage too
	leader ID            // the process I trust
	period time.Duration // my current period: timeout, grown by timeout at every change of leader
	heard  []uint64      // by position in all: the highest epoch heard in this period, 0 for none
}

type omegaConfig struct {
	heartbeat, timeout, maxTimeout time.Duration
}

// diskEpoch is the key of a process's epoch on stable storage.
const diskEpoch = "epoch"

// timerPeriod is the end of a process's period.
const timerPeriod = "period"

func omegaInfo() *Info {
	return &Info{
		Name:      "omega",
		Summary:   "an eventual leader detector Ω (Cachin, Guerraoui, Rodrigues 2011): trust the lowest (epoch, id) heard; epochs rise at every recovery",
		Kinds:     []string{KindHeartbeat},
		Routine:   []string{KindHeartbeat},
		PhaseWord: "epoch",
		Params: []Param{
			{Key: "heartbeat", Kind: DurationParam, Default: "50ms",
				Help: "every process sends HEARTBEAT with its epoch to every other at this interval"},
			{Key: "timeout", Kind: DurationParam, Default: "100ms",
				Help: "the first period: at its end a process trusts the lowest (epoch, id) it heard in it; each change of leader lengthens the period by this much"},
			{Key: "max-timeout", Kind: DurationParam, Default: "400ms",
				Help: "the period grows no longer than this"},
		},
		Recovers: true,
		// Without faults, the lowest id; after a recovery, the lowest (epoch, id) — which no id
		// names in advance: any one, for the tools.
		Winner: AnyWinner,
		Guarantees: []Guarantee{
			{Property: "eventual-leader", Faults: "yyyyyyy", Why: "once the faults are over every live process hears every other within its period, and all pick the same lowest (epoch, id)"},
			{Property: "at-most-one-leader", Faults: "yynnnnn", Why: "Ω is only eventually accurate: a recovered process trusts the top rank before it hears anyone, and a process that stops hearing the leader trusts another while it lives"},
		},
		New: func(id ID, c *Cluster) Node { return NewOmega(id, c) },
		Validate: func(c *Cluster) error {
			if cfg := newOmegaConfig(c); cfg.maxTimeout < cfg.timeout {
				return fmt.Errorf("max-timeout %s is below timeout %s: the period would start longer than it may grow", FormatDuration(cfg.maxTimeout), FormatDuration(cfg.timeout))
			}
			return nil
		},
		Warnings: func(c *Cluster) []string {
			cfg := newOmegaConfig(c)
			if cfg.maxTimeout <= cfg.heartbeat+c.MaxDelay {
				return []string{fmt.Sprintf("max-timeout %s is not more than heartbeat %s + the max delay %s: a period may pass without the leader's HEARTBEAT for ever, and the leader never settle",
					FormatDuration(cfg.maxTimeout), FormatDuration(cfg.heartbeat), FormatDuration(c.MaxDelay))}
			}
			return nil
		},
		NodeMemory: func(n int) (int64, string) { return 8 * int64(n), "the epoch heard from every process this period" },
	}
}

func newOmegaConfig(c *Cluster) *omegaConfig { return sharedConfig(c, "omega", makeOmegaConfig) }

func makeOmegaConfig(c *Cluster) *omegaConfig {
	return &omegaConfig{
		heartbeat:  c.Params.Duration("heartbeat", 50*time.Millisecond),
		timeout:    c.Params.Duration("timeout", 100*time.Millisecond),
		maxTimeout: c.Params.Duration("max-timeout", 400*time.Millisecond),
	}
}

// NewOmega returns process id of cluster c, not yet started.
func NewOmega(id ID, c *Cluster) *Omega {
	i := c.Index(id)
	if i < 0 {
		panic(fmt.Sprintf("algo: node %d is not in the cluster", id))
	}
	return &Omega{id: id, all: c.Sorted, self: i, cfg: newOmegaConfig(c)}
}

var _ Node = (*Omega)(nil)

// State reports whether I trust myself, and whom I trust. Ω has no terms.
func (o *Omega) State() State {
	if o.leader == 0 {
		return State{}
	}
	if o.leader == o.id {
		return State{Status: Leader, Leader: o.id}
	}
	return State{Status: Follower, Leader: o.leader}
}

// Start is the algorithm's initialisation and recovery, both: the epoch on stable storage goes
// up by one and is stored again; the process trusts the top rank — the lowest id — before it
// hears anyone, heartbeats, and starts its first period, of `timeout`.
func (o *Omega) Start(env Env) {
	last, _ := env.Load(diskEpoch)
	o.epoch = last + 1
	env.Store(diskEpoch, o.epoch)
	o.leader, o.period = o.all[0], o.cfg.timeout
	o.heard = make([]uint64, len(o.all))
	o.beat(env)
	env.SetTimer(timerPeriod, o.period)
	if env.Tracing() {
		env.Note("up with epoch %d (my epochs go on from stable storage); I trust %d, the top rank, until my first period of %s ends",
			o.epoch, o.leader, FormatDuration(o.period))
	}
}

// beat sends HEARTBEAT with my epoch to every other process, and again after `heartbeat`.
func (o *Omega) beat(env Env) {
	for _, j := range o.all {
		if j != o.id {
			env.Send(j, Message{Kind: KindHeartbeat, Phase: uint32(min(o.epoch, 1<<32-1))})
		}
	}
	env.SetTimer(timerHeartbeat, o.cfg.heartbeat)
}

// Receive: a HEARTBEAT from q makes q a candidate of this period, with its latest epoch (a
// higher one replaces a lower).
func (o *Omega) Receive(env Env, m Message) {
	if m.Kind != KindHeartbeat {
		return
	}
	i, ok := slices.BinarySearch(o.all, m.From)
	if ok && i != o.self && uint64(m.Phase) > o.heard[i] {
		o.heard[i] = uint64(m.Phase)
	}
}

// Timer: the heartbeat goes on; and at the end of a period the process selects, among the
// candidates heard in it and itself, the lowest epoch, then the top rank. If that is not the
// process it trusted, it trusts it and lengthens its period by `timeout` (up to max-timeout).
// Then it forgets the candidates and starts the next period.
func (o *Omega) Timer(env Env, name string) {
	switch name {
	case timerHeartbeat:
		o.beat(env)
	case timerPeriod:
		o.heard[o.self] = o.epoch
		best := -1 // by rank: of equal epochs, the first in id order
		for i, e := range o.heard {
			if e != 0 && (best < 0 || e < o.heard[best]) {
				best = i
			}
		}
		next, epoch, was := o.all[best], o.heard[best], o.leader
		heard := ""
		if next != was && env.Tracing() {
			heard = o.heardText()
		}
		clear(o.heard)
		if next != was {
			o.leader = next
			o.period = min(o.period+o.cfg.timeout, o.cfg.maxTimeout)
			if env.Tracing() {
				env.Note("in my last period I heard %s: the lowest (epoch, id) is %d's (%d, %d) — I trust it instead of %d; my period grows to %s",
					heard, next, epoch, next, was, FormatDuration(o.period))
			}
		}
		env.SetTimer(timerPeriod, o.period)
	}
}

// heardText lists the processes heard this period with their epochs: "1 (epoch 2), me (epoch 1)".
func (o *Omega) heardText() string {
	var parts []string
	for i, e := range o.heard {
		switch {
		case e == 0:
		case i == o.self:
			parts = append(parts, fmt.Sprintf("me (epoch %d)", e))
		default:
			parts = append(parts, fmt.Sprintf("%d (epoch %d)", o.all[i], e))
		}
	}
	return strings.Join(parts, ", ")
}

// Elect has no election to start: Ω only detects. The process says whom it trusts.
func (o *Omega) Elect(env Env) {
	if env.Tracing() {
		env.Note("asked to elect: Ω has no elections; I trust %d until my period ends", o.leader)
	}
}

// --- Copying and fingerprinting a node (Node.Clone, Node.AppendState): checkpoints, exploration

// Clone returns a copy with the epochs heard of its own; the ids and the timing are shared.
func (o *Omega) Clone() Node {
	c := *o
	c.heard = slices.Clone(o.heard)
	return &c
}

// AppendState writes my epoch, whom I trust, my period and the epochs heard in it.
func (o *Omega) AppendState(b []byte, now time.Duration) []byte {
	b = appendID(b, o.id)
	b = appendUint(b, o.epoch)
	b = appendID(b, o.leader)
	b = appendUint(b, uint64(o.period))
	for _, e := range o.heard {
		b = appendUint(b, e)
	}
	return b
}
