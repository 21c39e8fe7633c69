package network

import (
	"maps"
	"math/rand/v2"
	"slices"
)

// Clone returns a copy of n that shares nothing with it, drawing from rng: for the copy to
// decide every message's fate as n would, rng must be in the state n's own source is in (a copy
// of its PCG). The engine clones the network to copy a run.
func (n *Network) Clone(rng *rand.Rand) *Network {
	c := *n
	c.rng = rng
	c.group = maps.Clone(n.group)
	c.cuts = maps.Clone(n.cuts)
	c.delays = maps.Clone(n.delays)
	c.drops = maps.Clone(n.drops)
	c.last.table = slices.Clone(n.last.table)
	c.last.m = maps.Clone(n.last.m)
	return &c
}
