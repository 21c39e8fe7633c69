package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"electsim/algo"
	"electsim/sim"
)

// filter narrows the event log to steps that involve some nodes, or some message kinds, or
// both. Routine steps (heartbeats) show only when the filter names their kind.
type filter struct {
	text  string
	nodes []algo.ID
	kinds []string
}

// parseFilter reads "3", "ELECTION", "3 ok", "1,2 COORDINATOR"; an empty text clears it.
func parseFilter(text string, info *algo.Info) (filter, error) {
	f := filter{text: text}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' }) {
		if n, err := strconv.Atoi(w); err == nil && n > 0 {
			f.nodes = append(f.nodes, algo.ID(n))
			continue
		}
		k := strings.ToUpper(w)
		if !slices.Contains(info.Kinds, k) {
			return filter{}, fmt.Errorf("filter: %q is neither a node id nor a kind of %s (%s)", w, info.Name, strings.Join(info.Kinds, ", "))
		}
		f.kinds = append(f.kinds, k)
	}
	return f, nil
}

// match reports whether a step shows under the filter.
func (f filter) match(ls logStep, info *algo.Info) bool {
	if ls.routine {
		routine := false
		for _, k := range f.kinds {
			routine = routine || info.IsRoutine(k)
		}
		if !routine {
			return false
		}
	}
	if len(f.nodes) > 0 && !slices.ContainsFunc(ls.recs, func(r sim.Record) bool { return f.involves(r) }) {
		return false
	}
	if len(f.kinds) > 0 && !slices.ContainsFunc(ls.recs, func(r sim.Record) bool { return slices.Contains(f.kinds, r.Msg.Kind) }) {
		return false
	}
	return true
}

// involves reports whether a record concerns one of the filter's nodes.
func (f filter) involves(r sim.Record) bool {
	for _, id := range f.nodes {
		if r.Node == id || r.Msg.From == id || r.Msg.To == id {
			return true
		}
		if r.Action != nil && (slices.Contains(r.Action.Nodes, id) ||
			r.Action.Link != nil && (r.Action.Link.From == id || r.Action.Link.To == id)) {
			return true
		}
	}
	return false
}
