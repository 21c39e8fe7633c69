package network

import (
	"encoding/binary"
	"math"
	"slices"
	"time"

	"electsim/algo"
)

// AppendState appends to b an encoding of everything in the network that can change what it
// does from now on, and returns the extended slice: the default delay and loss, the partition
// (which nodes are together, whatever the groups' numbers), the cut links, the per-link loss,
// the per-link delays unless links is false, and, when it keeps FIFO order, how long each link
// of ids must still wait before it may deliver (relative to now; a time passed is nothing).
// ids are the cluster's nodes in ascending order. Its random source is not encoded: the caller
// owns it. An explorer fingerprints a run's state with it; two networks that encode alike
// treat every message sent from now on alike.
func (n *Network) AppendState(b []byte, now time.Duration, ids []algo.ID, links bool) []byte {
	b = appendDelay(b, n.delay)
	b = binary.AppendUvarint(b, math.Float64bits(n.drop))
	b = appendFlag(b, n.fifo)
	b = appendFlag(b, n.tracking)
	// The partition, as each node's group renumbered in order of first appearance.
	b = appendFlag(b, n.group != nil)
	if n.group != nil {
		seen := make(map[int]int, 4)
		for _, id := range ids {
			g := n.group[id]
			if _, ok := seen[g]; !ok {
				seen[g] = len(seen)
			}
			b = binary.AppendUvarint(b, uint64(seen[g]))
		}
	}
	cuts := n.Cuts()
	b = binary.AppendUvarint(b, uint64(len(cuts)))
	for _, l := range cuts {
		b = appendLink(b, l)
	}
	b = binary.AppendUvarint(b, uint64(len(n.drops)))
	for _, l := range sortedLinks(n.drops) {
		b = appendLink(b, l)
		b = binary.AppendUvarint(b, math.Float64bits(n.drops[l]))
	}
	if links {
		b = binary.AppendUvarint(b, uint64(len(n.delays)))
		for _, l := range sortedLinks(n.delays) {
			b = appendLink(b, l)
			b = appendDelay(b, n.delays[l])
		}
	}
	if n.tracking {
		for _, from := range ids {
			for _, to := range ids {
				if from != to {
					b = binary.AppendUvarint(b, uint64(max(n.last.get(Link{from, to})-now, 0)))
				}
			}
		}
	}
	return b
}

// DelayOf returns the delay link l gives a message now: its own, or the default.
func (n *Network) DelayOf(l Link) Delay {
	if d, ok := n.delays[l]; ok {
		return d
	}
	return n.delay
}

func appendFlag(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendDelay(b []byte, d Delay) []byte {
	b = binary.AppendVarint(b, int64(d.Min))
	return binary.AppendVarint(b, int64(d.Max))
}

func appendLink(b []byte, l Link) []byte {
	b = binary.AppendVarint(b, int64(l.From))
	return binary.AppendVarint(b, int64(l.To))
}

// sortedLinks returns the keys of m in ascending order of (from, to).
func sortedLinks[V any](m map[Link]V) []Link {
	out := make([]Link, 0, len(m))
	for l := range m {
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b Link) int {
		if a.From != b.From {
			return int(a.From - b.From)
		}
		return int(a.To - b.To)
	})
	return out
}

// Lossy reports whether any link may lose a message at random: then Send draws from the
// network's random source.
func (n *Network) Lossy() bool {
	if n.drop > 0 {
		return true
	}
	for _, p := range n.drops {
		if p > 0 {
			return true
		}
	}
	return false
}
