// Package network is the link model of a simulated run: it decides each message's fate when it is
// sent — dropped, and why, or delivered at a virtual time — and whether a link is open when a
// message arrives.
//
// A Network knows nothing of the nodes' logic or of the event queue. It is seeded and pure: the
// same configuration, the same sequence of calls and the same *rand.Rand give the same answers.
//
// Faults it models (docs/model.md, The network): a default delay for all links, fixed or uniform
// over a range, overridden per directed link; a loss probability, global or per link; FIFO links (a
// message never overtakes an earlier one on the same directed link) unless FIFO is off; partitions
// into groups, cut both ways between groups; one-way cuts; heal.
package network
