package algo

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// NodeNumber is one pair of a PerNodeParam: a number given to one node — Zab's last zxid of
// server 3, say (--set zxid=3:9).
type NodeNumber struct {
	ID ID
	N  uint64
}

// MaxNodeNumber is the largest number a PerNodeParam takes: a 32-bit counter, as
// ZooKeeper's zxid counter and epoch are.
const MaxNodeNumber = 1<<32 - 1

// NodeNumbers returns a PerNodeParam's pairs, ascending by node; nil for any other value.
func (v Value) NodeNumbers() []NodeNumber {
	if v.Numbers == "" {
		return nil
	}
	pairs, err := parseNodeNumbers(v.Numbers)
	if err != nil {
		panic(fmt.Sprintf("algo: a PerNodeParam value %q that does not parse: %v", v.Numbers, err))
	}
	return pairs
}

// NumberOf returns the number pairs gives node id, or def when they give it none.
func NumberOf(pairs []NodeNumber, id ID, def uint64) uint64 {
	if i, ok := slices.BinarySearchFunc(pairs, id, func(p NodeNumber, id ID) int { return int(p.ID - id) }); ok {
		return pairs[i].N
	}
	return def
}

// parseNodeNumbers reads "ID:N,ID:N,…": positive node ids, each once, and whole numbers from 0
// to MaxNodeNumber. The pairs come back ascending by node. The error quotes at most the pair
// it is about, shortened.
func parseNodeNumbers(text string) ([]NodeNumber, error) {
	if text == "" {
		return nil, fmt.Errorf("expected node:number pairs separated by commas, such as 1:4,2:9")
	}
	var pairs []NodeNumber
	for _, pair := range strings.Split(text, ",") {
		node, num, ok := strings.Cut(pair, ":")
		if !ok {
			return nil, fmt.Errorf("expected node:number pairs separated by commas, such as 1:4,2:9, got %s", clip(pair))
		}
		id, err := strconv.Atoi(node)
		if err != nil || id < 1 || id > 1<<30 {
			return nil, fmt.Errorf("expected a node id (a positive whole number) before the colon of %s", clip(pair))
		}
		n, err := strconv.ParseUint(num, 10, 64)
		if err != nil || n > MaxNodeNumber || num != strconv.FormatUint(n, 10) {
			return nil, fmt.Errorf("expected a whole number from 0 to %d after the colon of %s", uint64(MaxNodeNumber), clip(pair))
		}
		if i := slices.IndexFunc(pairs, func(p NodeNumber) bool { return p.ID == ID(id) }); i >= 0 {
			return nil, fmt.Errorf("node %d is given twice (%d:%d and %s): give each node once", id, id, pairs[i].N, clip(pair))
		}
		pairs = append(pairs, NodeNumber{ID: ID(id), N: n})
	}
	slices.SortFunc(pairs, func(a, b NodeNumber) int { return int(a.ID - b.ID) })
	return pairs, nil
}

// formatNodeNumbers writes pairs as parseNodeNumbers reads them: "1:4,2:9".
func formatNodeNumbers(pairs []NodeNumber) string {
	s := make([]string, len(pairs))
	for i, p := range pairs {
		s[i] = fmt.Sprintf("%d:%d", p.ID, p.N)
	}
	return strings.Join(s, ",")
}

// clip quotes a piece of the text for an error: escaped, and cut to 20 characters.
func clip(s string) string {
	if r := []rune(s); len(r) > 20 {
		s = string(r[:20]) + "…"
	}
	return strconv.Quote(s)
}

// CheckNodeNumbers says why the PerNodeParam values set on cluster c name a node that is not
// in it, naming the parameter and the node; nil when every node named is one of c's.
func (a *Info) CheckNodeNumbers(c *Cluster) error {
	for _, p := range a.Params {
		if p.Kind != PerNodeParam {
			continue
		}
		for _, pair := range c.Params.NodeNumbers(p.Key) {
			if c.Index(pair.ID) < 0 {
				return fmt.Errorf("%s: unknown node %d (nodes are %s)", p.Key, pair.ID, describeIDs(c.Sorted))
			}
		}
	}
	return nil
}

// describeIDs writes ascending ids for an error: "1..5" when they run without gaps, else the
// ids, the first twelve of them.
func describeIDs(sorted []ID) string {
	if n := len(sorted); n > 1 && sorted[n-1]-sorted[0] == ID(n-1) {
		return fmt.Sprintf("%d..%d", sorted[0], sorted[n-1])
	}
	var s []string
	for i, id := range sorted {
		if i == 12 {
			s = append(s, fmt.Sprintf("… (%d in all)", len(sorted)))
			break
		}
		s = append(s, strconv.Itoa(int(id)))
	}
	return strings.Join(s, " ")
}
