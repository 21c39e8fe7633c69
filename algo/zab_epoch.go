package algo

import (
	"fmt"
	"slices"
	"time"
)

// What a Zab server does once the election is decided (algo/zab.go): the leader establishes a new
// epoch with a quorum of followers — each follower first accepts it (acceptedEpoch), and takes it
// as its own (currentEpoch, the epoch its votes carry) only once the leader has established it
// — then PINGs them; each side gives up on the other after timeout, and looks for a leader
// again.

// lead: I won. "The prospective leader waits for a quorum of followers to connect and tell it
// their epochs", and gives up if none does within timeout.
func (z *Zab) lead(env Env, why string) {
	z.state, z.leader = zabLeading, z.id
	z.peers = make([]zabPeer, len(z.all))
	z.peers[z.self] = zabPeer{info: true, acked: true, epoch: z.accepted, heard: env.Now()}
	z.newEpoch, z.established = 0, false
	env.SetTimer(timerInit, z.cfg.timeout)
	if env.Tracing() {
		env.Note("%s — I lead, with epoch %d and zxid %d; I wait for a quorum of FOLLOWERINFO to choose a new epoch", why, z.epoch, z.zxid)
	}
	z.proposeEpoch(env)
}

// proposeEpoch: once a quorum (me included) has told me its accepted epoch, "propose e' greater
// than any epoch in the quorum", accept it myself, and send it to everyone who asked to follow.
func (z *Zab) proposeEpoch(env Env) {
	if z.newEpoch != 0 || z.count(func(p zabPeer) bool { return p.info }) < z.quorum() {
		return
	}
	highest := uint64(0)
	for _, p := range z.peers {
		if p.info {
			highest = max(highest, p.epoch)
		}
	}
	z.newEpoch = highest + 1
	z.accepted = z.newEpoch
	env.Store(diskZabAccepted, z.accepted)
	for i, p := range z.peers {
		if p.info && i != z.self {
			z.sendNewEpoch(env, z.all[i])
		}
	}
	if env.Tracing() {
		env.Note("a quorum asked to follow me, the highest epoch among us %d: I propose epoch %d — NEWEPOCH", highest, z.newEpoch)
	}
	z.establish(env)
}

func (z *Zab) sendNewEpoch(env Env, to ID) {
	env.Send(to, Message{Kind: KindNewEpoch, Term: z.newEpoch})
}

// sendNewLeader tells a follower that acknowledged my epoch that it is established, with my
// history: it takes the epoch as its own, and cuts its log back to mine where it runs past it.
func (z *Zab) sendNewLeader(env Env, to ID) {
	env.Send(to, Message{Kind: KindNewLeader, Term: z.epoch, Log: &LogPart{Index: z.zxid, IndexTerm: z.epoch}})
}

// establish: once a quorum (me included) has acknowledged the new epoch it is mine: I keep it
// on disk as my current epoch, tell those who acknowledged it (NEWLEADER), and start PINGing.
func (z *Zab) establish(env Env) {
	if z.established || z.newEpoch == 0 || z.count(func(p zabPeer) bool { return p.acked }) < z.quorum() {
		return
	}
	z.established = true
	z.epoch = z.newEpoch
	env.Store(diskZabEpoch, z.epoch)
	env.CancelTimer(timerInit)
	for i, p := range z.peers {
		if p.acked && i != z.self {
			z.sendNewLeader(env, z.all[i])
		}
	}
	z.ping(env)
	if env.Tracing() {
		env.Note("a quorum acknowledged epoch %d: it is established; I PING my followers every %s", z.epoch, FormatDuration(z.cfg.heartbeat))
	}
}

// count returns how many servers' records satisfy f.
func (z *Zab) count(f func(zabPeer) bool) int {
	n := 0
	for _, p := range z.peers {
		if f(p) {
			n++
		}
	}
	return n
}

// onFollower is the leader hearing from a server.
func (z *Zab) onFollower(env Env, m Message) {
	i := z.index(m.From)
	p := &z.peers[i]
	switch {
	case m.Kind == KindFollowerInfo:
		p.info, p.acked, p.heard, p.epoch = true, false, env.Now(), m.Term
		if env.Tracing() {
			env.Note("FOLLOWERINFO from %d, which accepted epoch %d last", m.From, p.epoch)
		}
		if z.newEpoch != 0 {
			z.sendNewEpoch(env, m.From) // a latecomer: the epoch chosen already
			return
		}
		z.proposeEpoch(env)
	case m.Kind == KindAckEpoch && p.info && m.Term == z.newEpoch:
		p.acked, p.heard = true, env.Now()
		if z.established {
			z.sendNewLeader(env, m.From) // a latecomer: the epoch is established already
			return
		}
		z.establish(env)
	case m.Kind == KindPing && m.Flag && p.acked:
		p.heard = env.Now()
	}
}

// onLeader is a follower hearing from its leader.
func (z *Zab) onLeader(env Env, m Message) {
	switch m.Kind {
	case KindNewEpoch:
		// "If newEpoch > acceptedEpoch, accept it; if it is less, the leader is out of date."
		if m.Term < z.accepted {
			z.lookForLeader(env, fmt.Sprintf("NEWEPOCH %d from %d is older than the epoch I accepted, %d", m.Term, m.From, z.accepted))
			return
		}
		z.accepted = m.Term
		env.Store(diskZabAccepted, z.accepted)
		env.Send(m.From, Message{Kind: KindAckEpoch, Term: z.accepted})
		env.SetTimer(timerLeader, z.cfg.timeout)
		if env.Tracing() && z.epoch != z.accepted {
			env.Note("NEWEPOCH %d from my leader %d: I accept it — ACKEPOCH; my votes still carry epoch %d until it is established", m.Term, m.From, z.epoch)
		} else if env.Tracing() {
			env.Note("NEWEPOCH %d from my leader %d: my epoch already — ACKEPOCH", m.Term, m.From)
		}
	case KindNewLeader:
		if m.Term != z.accepted {
			z.lookForLeader(env, fmt.Sprintf("NEWLEADER %d from %d is not the epoch I accepted, %d", m.Term, m.From, z.accepted))
			return
		}
		old, truncated := z.epoch, false
		z.epoch = m.Term
		env.Store(diskZabEpoch, z.epoch)
		if m.Log != nil && z.zxid > m.Log.Index {
			// TRUNC: what my log has beyond the leader's is from an epoch no quorum accepted.
			z.zxid, truncated = m.Log.Index, true
			env.Store(diskZabZxid, z.zxid)
		}
		env.SetTimer(timerLeader, z.cfg.timeout)
		if env.Tracing() {
			cut := ""
			if truncated {
				cut = fmt.Sprintf("; my log ran past the leader's, and is cut back to zxid %d (TRUNC)", z.zxid)
			}
			if old == z.epoch {
				env.Note("NEWLEADER %d from %d: the epoch is established, and mine already%s", m.Term, m.From, cut)
			} else {
				env.Note("NEWLEADER %d from %d: the epoch is established — my epoch goes from %d to %d%s", m.Term, m.From, old, z.epoch, cut)
			}
		}
	case KindPing:
		if !m.Flag {
			env.Send(m.From, Message{Kind: KindPing, Term: m.Term, Flag: true})
			env.SetTimer(timerLeader, z.cfg.timeout)
		}
	}
}

// ping sends PING to every follower that acknowledged the epoch, and sets the next round.
func (z *Zab) ping(env Env) {
	for i, p := range z.peers {
		if p.acked && i != z.self {
			env.Send(z.all[i], Message{Kind: KindPing, Term: z.epoch})
		}
	}
	env.SetTimer(timerPing, z.cfg.heartbeat)
}

// Timer handles the election's timers and the leader's and follower's patience.
func (z *Zab) Timer(env Env, name string) {
	switch {
	case name == timerNotify && z.state == zabLooking && !z.finalizing:
		// "Sends more notifications if haven't received enough; exponential backoff."
		z.sendVotes(env)
		z.wait = min(2*z.wait, zabNotifyCap*z.cfg.finalize)
		env.SetTimer(timerNotify, z.wait)
	case name == timerFinalize && z.state == zabLooking && z.finalizing:
		z.decide(env, z.vote, z.agreeing(z.votes, z.vote, false),
			fmt.Sprintf("nothing better for %s after a quorum voted for %s in round %d", FormatDuration(z.cfg.finalize), z.vote, z.round))
	case name == timerInit && z.state == zabLeading && !z.established:
		z.lookForLeader(env, fmt.Sprintf("no quorum acknowledged a new epoch within %s", FormatDuration(z.cfg.timeout)))
	case name == timerPing && z.state == zabLeading:
		now := env.Now()
		z.peers[z.self].heard = now // I hear myself
		synced := z.count(func(p zabPeer) bool { return p.acked && now-p.heard <= z.cfg.timeout })
		if synced < z.quorum() {
			z.lookForLeader(env, fmt.Sprintf("only %s answered within %s, fewer than a quorum of %d", countIDs(synced, "server"), FormatDuration(z.cfg.timeout), z.quorum()))
			return
		}
		z.ping(env)
	case name == timerLeader && z.state == zabFollowing:
		z.lookForLeader(env, fmt.Sprintf("nothing from my leader %d for %s", z.leader, FormatDuration(z.cfg.timeout)))
	}
}

// --- Copying and fingerprinting a node (Node.Clone, Node.AppendState): checkpoints, exploration

// Clone returns a copy with tables of its own; the membership, the timing and the vote's log
// part (never changed once made) are shared.
func (z *Zab) Clone() Node {
	c := *z
	c.votes = slices.Clone(z.votes)
	c.outside = slices.Clone(z.outside)
	c.peers = slices.Clone(z.peers)
	c.electedBy = slices.Clone(z.electedBy)
	return &c
}

// AppendState writes the server's history, its state and round, its vote and what it waits for,
// the tables its state reads — the votes while looking, the followers while leading, when each
// last answered as how long ago within timeout. Who elected it is left out: only the monitor
// reads it, at the step it decides.
func (z *Zab) AppendState(b []byte, now time.Duration) []byte {
	b = appendID(b, z.id)
	b = appendUint(b, z.epoch)
	b = appendUint(b, z.accepted)
	b = appendUint(b, z.zxid)
	b = append(b, byte(z.state))
	b = appendUint(b, z.round)
	b = appendZabVote(b, z.vote)
	b = appendID(b, z.leader)
	switch z.state {
	case zabLooking:
		b = appendBool(b, z.finalizing)
		b = appendUint(b, uint64(z.wait))
		for _, t := range [][]zabBallot{z.votes, z.outside} {
			for _, x := range t {
				b = appendBool(b, x.set)
				if x.set {
					b = appendZabVote(b, x.vote)
					b = appendUint(b, x.round)
					b = append(b, byte(x.state))
				}
			}
		}
	case zabLeading:
		b = appendUint(b, z.newEpoch)
		b = appendBool(b, z.established)
		for _, p := range z.peers {
			b = appendBool(b, p.info)
			b = appendBool(b, p.acked)
			b = appendUint(b, p.epoch)
			b = appendRecent(b, p.heard, now, z.cfg.timeout)
		}
	}
	return b
}

func appendZabVote(b []byte, v zabVote) []byte {
	b = appendID(b, v.leader)
	b = appendUint(b, v.zxid)
	return appendUint(b, v.epoch)
}
