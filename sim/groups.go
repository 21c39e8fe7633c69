package sim

import (
	"slices"
	"time"

	"electsim/algo"
)

// Group is one group of an algorithm of groups (algo.Info.Groups): the live nodes that name one
// coordinator in one group (algo.State's Leader and Term), ascending.
type Group struct {
	Coordinator algo.ID
	Number      uint64 // the group's counter: the state's term
	Members     []algo.ID
	// Led says the coordinator is live and coordinates this group (its own state names it):
	// false while a member still names a coordinator that has left it.
	Led bool
}

// GroupsAt is the groups of a run at one moment: just before a fault (Before names it:
// "heal"), or now (Before is empty).
type GroupsAt struct {
	At      time.Duration
	Before  string
	Groups  []Group   // by coordinator, ascending
	Joining []algo.ID // live nodes forming or joining a new group (candidates), ascending
}

// groupsNow returns the run's groups at this moment, before the action described (or "").
func (s *Sim) groupsNow(before string) GroupsAt {
	at := GroupsAt{At: s.now, Before: before}
	index := map[[2]uint64]int{}
	for i := range s.nodes {
		n := &s.nodes[i]
		if n.down || s.monitor.role[i] != "" {
			continue
		}
		id := s.nodeID(n)
		if n.last.Status == algo.Candidate || n.last.Leader == 0 {
			at.Joining = append(at.Joining, id)
			continue
		}
		key := [2]uint64{uint64(n.last.Leader), n.last.Term}
		g, ok := index[key]
		if !ok {
			g = len(at.Groups)
			index[key] = g
			led := false
			if c := s.cluster.Index(n.last.Leader); c >= 0 {
				x := &s.nodes[c]
				led = !x.down && x.last.Status == algo.Leader && x.last.Term == n.last.Term && x.last.Leader == n.last.Leader
			}
			at.Groups = append(at.Groups, Group{Coordinator: n.last.Leader, Number: n.last.Term, Led: led})
		}
		at.Groups[g].Members = append(at.Groups[g].Members, id)
	}
	for i := range at.Groups {
		slices.Sort(at.Groups[i].Members)
	}
	slices.SortFunc(at.Groups, func(a, b Group) int {
		if a.Coordinator != b.Coordinator {
			return int(a.Coordinator - b.Coordinator)
		}
		return int(int64(a.Number) - int64(b.Number))
	})
	slices.Sort(at.Joining)
	return at
}

// Groups returns the run's groups now, for an algorithm of groups; nil for the others.
func (s *Sim) Groups() *GroupsAt {
	if !s.cfg.Algorithm.Groups {
		return nil
	}
	g := s.groupsNow("")
	return &g
}

// noteGroups keeps the groups just before fault action a, for an algorithm of groups, once
// some node has booted.
func (s *Sim) noteGroups(a *Action) {
	if !s.cfg.Algorithm.Groups {
		return
	}
	g := s.groupsNow(a.String())
	if len(g.Groups) == 0 && len(g.Joining) == 0 {
		return
	}
	s.monitor.groups = append(s.monitor.groups, g)
}

// finalViolations judges the algorithm's own properties of the end of a run (algo.Monitor's
// Final) on its nodes now.
func (s *Sim) finalViolations() []Violation {
	var out []Violation
	var nodes []algo.NodeAtEnd
	for _, mon := range s.cfg.Algorithm.Monitors {
		if mon.Final == nil {
			continue
		}
		if nodes == nil {
			for i := range s.nodes {
				if s.monitor.role[i] == "" {
					n := &s.nodes[i]
					nodes = append(nodes, algo.NodeAtEnd{ID: s.nodeID(n), Live: !n.down, State: n.last})
				}
			}
		}
		if broken, ids, detail := mon.Final(nodes); broken {
			slices.Sort(ids)
			out = append(out, Violation{Property: mon.Property, From: s.now, To: s.now, Nodes: ids, Detail: detail})
		}
	}
	return out
}
