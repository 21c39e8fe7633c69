package algo

import (
	"fmt"
	"slices"
)

// leader-has-latest, Zab's own property (docs/algorithms.md, "Zab"): the elected leader's (epoch,
// zxid) is at least that of every server whose vote elected it. Fast Leader Election promises it
// by its order of votes — epoch, then zxid, then id — and by deciding only on a quorum's votes:
// each voter's vote only ever moves from its own history to a newer one, so whatever a quorum
// settles on is at least as new as each of them. A quorum of servers holds every transaction the
// ensemble acknowledged, so the leader has them all.
//
// The judge is a NodeWatcher: it sees each server after every input. While a server is looking,
// its history cannot change, so the judge notes it for the round the server is in; when a server
// becomes leader, it compares the leader's history with each voter's history of the round it was
// elected in. A voter the judge never saw looking in that round — one that followed the leader
// on others' word, without voting — is not judged.

// watchLatest returns a fresh judge of leader-has-latest for cluster c.
func watchLatest(c *Cluster) Watcher {
	return &latest{ids: slices.Clone(c.Sorted), servers: make([]latestServer, len(c.Sorted))}
}

// latest judges leader-has-latest.
type latest struct {
	ids     []ID // every server, ascending: servers is by index in it
	servers []latestServer
}

// server returns what the judge remembers of server id.
func (w *latest) server(id ID) *latestServer {
	i, _ := slices.BinarySearch(w.ids, id)
	return &w.servers[i]
}

// latestServer is what the judge remembers of one server: whether it led when last seen, and
// its history in the last few rounds it was looking in.
type latestServer struct {
	leading bool
	rounds  [latestRounds]latestRound
	n       int // how many of rounds are filled, the latest last
}

// latestRounds is how many of a server's rounds the judge keeps: a vote a leader counts is from
// its own round, which is rarely more than one or two behind the voter's.
const latestRounds = 4

type latestRound struct{ round, epoch, zxid uint64 }

func (w *latest) Sent(Message) (bool, []ID, string) { return false, nil, "" }

// Stepped notes a looking server's history for its round, and judges a server that has just
// become leader.
func (w *latest) Stepped(id ID, n Node) (bool, []ID, string) {
	z, ok := n.(*Zab)
	if !ok {
		return false, nil, ""
	}
	s := w.server(id)
	if z.state == zabLooking {
		s.note(latestRound{z.round, z.epoch, z.zxid})
	}
	was := s.leading
	s.leading = z.state == zabLeading
	if !s.leading || was {
		return false, nil, ""
	}
	mine := zabVote{epoch: z.epoch, zxid: z.zxid}
	for _, v := range z.electedBy {
		r, ok := w.server(v).find(z.round)
		if !ok || v == id {
			continue
		}
		if theirs := (zabVote{epoch: r.epoch, zxid: r.zxid}); theirs.epoch > mine.epoch || theirs.epoch == mine.epoch && theirs.zxid > mine.zxid {
			return true, []ID{id, v}, fmt.Sprintf("%d leads with epoch %d, zxid %d, but %d, which voted for it in round %d, has epoch %d, zxid %d",
				id, mine.epoch, mine.zxid, v, z.round, r.epoch, r.zxid)
		}
	}
	return false, nil, ""
}

// note keeps r as the server's latest round, replacing what it had for the same round.
func (s *latestServer) note(r latestRound) {
	if s.n > 0 && s.rounds[s.n-1].round == r.round {
		s.rounds[s.n-1] = r
		return
	}
	if s.n == latestRounds {
		copy(s.rounds[:], s.rounds[1:])
		s.n--
	}
	s.rounds[s.n] = r
	s.n++
}

// find returns the server's history in round, the latest such if it was looking in it twice.
func (s *latestServer) find(round uint64) (latestRound, bool) {
	for i := s.n - 1; i >= 0; i-- {
		if s.rounds[i].round == round {
			return s.rounds[i], true
		}
	}
	return latestRound{}, false
}

func (w *latest) Clone() Watcher {
	return &latest{ids: slices.Clone(w.ids), servers: slices.Clone(w.servers)}
}

func (w *latest) AppendState(b []byte) []byte {
	for _, s := range w.servers {
		b = appendBool(b, s.leading)
		b = appendUint(b, uint64(s.n))
		for _, r := range s.rounds[:s.n] {
			b = appendUint(b, r.round)
			b = appendUint(b, r.epoch)
			b = appendUint(b, r.zxid)
		}
	}
	return b
}

var _ NodeWatcher = (*latest)(nil)
