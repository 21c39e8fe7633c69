package sim

import (
	"fmt"
	"strings"

	"electsim/algo"
	"electsim/internal/human"
)

// resolveLeader returns the action a is at this instant: a copy naming the node that leads in
// AgreedLeader's place, for the trace to show. When no node leads — or the action names that
// node's id besides — the run stops here: it returns nil, having recorded the step and why.
func (s *Sim) resolveLeader(a *Action) *Action {
	leader := s.monitor.agreedLeader()
	switch {
	case leader == 0 && s.now == 0 && a.After == 0 && !s.booted():
		s.refuse(a, fmt.Sprintf("%s: no node leads at 0ms — the actions of 0ms come before the nodes boot", a))
		return nil
	case leader == 0:
		s.refuse(a, fmt.Sprintf("%s: no node leads at %s — %s", a, algo.FormatDuration(s.now), s.whyNoLeader()))
		return nil
	}
	r, err := a.resolve(leader)
	if err != nil {
		s.refuse(a, err.Error())
		return nil
	}
	return &r
}

// refuse stops the run at the action a, which cannot happen, saying why: in the trace, on the
// action's step, and in Summary.Halted, with the action in Summary.HaltAction.
func (s *Sim) refuse(a *Action, why string) {
	s.halted = why
	s.haltAction = a
	u := a.unresolved()
	r := Record{Type: RecFault, Action: &u, Note: why + "; the run stops here"}
	if len(u.Nodes) == 1 {
		r.Node = u.Nodes[0]
	}
	s.emit(r)
}

// whyNoLeader says why the live nodes agree on no leader: whom they name, in a few groups.
func (s *Sim) whyNoLeader() string {
	var names []algo.ID // whom each group names, in the order first met
	who := map[algo.ID][]algo.ID{}
	live := 0
	for i := range s.nodes {
		n := &s.nodes[i]
		if n.down || s.monitor.role[i] != "" {
			continue
		}
		live++
		if _, ok := who[n.last.Leader]; !ok {
			names = append(names, n.last.Leader)
		}
		who[n.last.Leader] = append(who[n.last.Leader], s.nodeID(n))
	}
	switch {
	case live == 0:
		return "every node that could lead is crashed"
	case len(names) == 1 && names[0] == 0:
		return "no live node names a leader"
	}
	var parts []string
	for i, l := range names {
		if i == maxListed {
			parts = append(parts, fmt.Sprintf("… %s more leaders named", human.Thousands(int64(len(names)-maxListed))))
			break
		}
		parts = append(parts, s.naming(who[l], l))
	}
	return "the live nodes do not all name one live leader: " + strings.Join(parts, "; ")
}

// naming writes "nodes 1 2 name 5, which is crashed", for the nodes ids that name leader l.
func (s *Sim) naming(ids []algo.ID, l algo.ID) string {
	subject, verb := "node "+joinIDs(ids, " "), "names"
	if len(ids) > 1 {
		subject, verb = "nodes "+listIDs(ids, " "), "name"
	}
	if l == 0 {
		return subject + " " + verb + " nobody"
	}
	what := ""
	switch i := s.cluster.Index(l); {
	case i < 0:
	case s.nodes[i].down:
		what = ", which is crashed"
	case s.nodes[i].last.Status != algo.Leader:
		what = ", which does not lead"
	}
	return fmt.Sprintf("%s %s %d%s", subject, verb, l, what)
}

// booted reports whether any node has booted yet — the actions of 0ms come before the boots —
// and is not crashed since: at 0ms, before any input of the instant, whether the boots are
// still to come.
func (s *Sim) booted() bool {
	for i := range s.nodes {
		if s.nodes[i].node != nil {
			return true
		}
	}
	return false
}
