package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"electsim/algo"
	"electsim/scenarios"
	"electsim/session"
	"electsim/sim"
)

// filter narrows the event log to steps that involve some nodes, or some message kinds, or
// both. Routine steps (heartbeats) show only when the filter names their kind.
type filter struct {
	text  string
	nodes []algo.ID
	kinds []string
}

// parseFilter reads "3", "ELECTION", "3 ok", "1,2 COORDINATOR": node ids of the run and message
// kinds of its algorithm. An empty text clears the filter. A mistake says what is valid.
func parseFilter(text string, info *algo.Info, ids []algo.ID) (filter, error) {
	f := filter{text: strings.Join(strings.Fields(text), " ")}
	valid := func() string {
		return fmt.Sprintf("node ids (%s) and message kinds of %s (%s)", scenarios.NewMembers(ids), info.Name, strings.Join(info.Kinds, ", "))
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' }) {
		if n, err := strconv.Atoi(w); err == nil {
			if !slices.Contains(ids, algo.ID(n)) {
				return filter{}, fmt.Errorf("filter: there is no node %s; a filter takes %s", w, valid())
			}
			f.nodes = append(f.nodes, algo.ID(n))
			continue
		}
		k := strings.ToUpper(w)
		if !slices.Contains(info.Kinds, k) {
			return filter{}, fmt.Errorf("filter: %q is neither a node id nor a message kind; a filter takes %s", w, valid())
		}
		f.kinds = append(f.kinds, k)
	}
	return f, nil
}

// match reports whether a step shows under the filter.
func (f filter) match(st session.Step, info *algo.Info) bool {
	if st.Routine {
		routine := false
		for _, k := range f.kinds {
			routine = routine || info.IsRoutine(k)
		}
		if !routine {
			return false
		}
	}
	if len(f.nodes) > 0 && !slices.ContainsFunc(st.Records, func(r sim.Record) bool { return f.involves(r) }) {
		return false
	}
	if len(f.kinds) > 0 && !slices.ContainsFunc(st.Records, func(r sim.Record) bool { return slices.Contains(f.kinds, r.Msg.Kind) }) {
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
