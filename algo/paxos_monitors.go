package algo

import (
	"fmt"
	"slices"
)

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
	votes    []paxosVote   // ascending by slot, ballot, value
	chosen   []paxosChoice // ascending by slot: the value chosen first in each
}

// paxosVote is one proposal and the acceptors seen holding it in its ballot.
type paxosVote struct {
	slot, ballot, value uint64
	by                  []ID // ascending
}

// paxosChoice is the value chosen first for a slot, and in which ballot by which acceptors.
type paxosChoice struct {
	slot, ballot, value uint64
	by                  []ID
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
	switch {
	case a.slot != b.slot:
		return cmpUint(a.slot, b.slot)
	case a.ballot != b.ballot:
		return cmpUint(a.ballot, b.ballot)
	}
	return cmpUint(a.value, b.value)
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// choice returns the value chosen first for slot, or nil.
func (w *paxosSafety) choice(slot uint64) *paxosChoice {
	k, found := slices.BinarySearchFunc(w.chosen, slot, func(c paxosChoice, s uint64) int { return cmpUint(c.slot, s) })
	if !found {
		return nil
	}
	return &w.chosen[k]
}

// choose records v as its slot's chosen value, and forgets every vote for that value there.
func (w *paxosSafety) choose(v *paxosVote) {
	c := paxosChoice{slot: v.slot, ballot: v.ballot, value: v.value, by: slices.Clone(v.by)}
	k, _ := slices.BinarySearchFunc(w.chosen, c.slot, func(c paxosChoice, s uint64) int { return cmpUint(c.slot, s) })
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
