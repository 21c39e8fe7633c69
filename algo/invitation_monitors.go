package algo

import (
	"cmp"
	"fmt"
	"slices"
)

// The invitation algorithm's own properties (docs/properties.md): one-coordinator-per-group,
// judged on the messages sent, and eventual-merge, judged on the nodes' states at the end of a
// run. The algorithm is in invitation.go.

// groupCoordinators judges one-coordinator-per-group on the messages sent: each names a group
// and the node that coordinates it — the sender of ARE-YOU-COORDINATOR, a yes AYC-ANSWER or
// AYT-ANSWER, or READY; the receiver of ARE-YOU-THERE or ACCEPT, which a member sends to its
// coordinator; the group's former for INVITATION, which says who forms the new group. The
// first message to name a group's coordinator fixes it; one that names another breaks the
// property. A group is named by a counter kept on stable storage, so it is never formed twice:
// two coordinators of one group are two at once.
type groupCoordinators struct {
	coord map[group]ID
}

func watchGroupCoordinators() Watcher { return &groupCoordinators{coord: map[group]ID{}} }

// Sent judges m.
func (w *groupCoordinators) Sent(m Message) (bool, []ID, string) {
	g := group{m.Value, m.Term}
	var c ID
	switch m.Kind {
	case KindAreYouCoordinator, KindReady:
		c = m.From
	case KindCoordinatorAnswer, KindThereAnswer:
		if !m.Flag {
			return false, nil, ""
		}
		c = m.From
	case KindAreYouThere, KindAccept:
		c = m.To
	case KindInvitation:
		c = g.by
	default:
		return false, nil, ""
	}
	if g.by == 0 {
		return false, nil, ""
	}
	old, ok := w.coord[g]
	if !ok {
		w.coord[g] = c
		return false, nil, ""
	}
	if old == c {
		return false, nil, ""
	}
	return true, []ID{old, c}, fmt.Sprintf("group %s has two coordinators: %d and %d (%s)", g, old, c, m)
}

// Clone copies the judge.
func (w *groupCoordinators) Clone() Watcher {
	c := &groupCoordinators{coord: make(map[group]ID, len(w.coord))}
	for g, id := range w.coord {
		c.coord[g] = id
	}
	return c
}

// AppendState writes every group seen with its coordinator, in order of group.
func (w *groupCoordinators) AppendState(b []byte) []byte {
	groups := make([]group, 0, len(w.coord))
	for g := range w.coord {
		groups = append(groups, g)
	}
	slices.SortFunc(groups, func(a, b group) int { return cmp.Or(cmp.Compare(a.by, b.by), cmp.Compare(a.n, b.n)) })
	b = appendUint(b, uint64(len(groups)))
	for _, g := range groups {
		b = appendID(b, g.by)
		b = appendUint(b, g.n)
		b = appendID(b, w.coord[g])
	}
	return b
}

// judgeMerged judges eventual-merge at the end of a run: every live node names the same
// coordinator and group, and that coordinator is live and coordinates it, not forming another.
func judgeMerged(nodes []NodeAtEnd) (bool, []ID, string) {
	var live []NodeAtEnd
	for _, n := range nodes {
		if n.Live {
			live = append(live, n)
		}
	}
	if len(live) == 0 {
		return false, nil, ""
	}
	first := live[0].State
	for _, n := range live {
		if n.State.Status == Candidate || n.State.Leader != first.Leader || n.State.Term != first.Term {
			return true, nil, fmt.Sprintf("the live nodes are not in one group: %s", groupsText(live))
		}
	}
	for _, n := range live {
		if n.ID == first.Leader {
			if n.State.Status != Leader {
				break
			}
			return false, nil, ""
		}
	}
	return true, []ID{first.Leader}, fmt.Sprintf("every live node names %d, which does not coordinate group %d·%d", first.Leader, first.Leader, first.Term)
}

// groupsText writes who is in which group: "1, 2 and 3 in 3·2; 4 and 5 in 5·1; 6 joining".
func groupsText(live []NodeAtEnd) string {
	type key struct {
		g       group
		joining bool
	}
	var order []key
	members := map[key][]ID{}
	for _, n := range live {
		k := key{group{n.State.Leader, n.State.Term}, n.State.Status == Candidate}
		if _, ok := members[k]; !ok {
			order = append(order, k)
		}
		members[k] = append(members[k], n.ID)
	}
	s := ""
	for i, k := range order {
		if i > 0 {
			s += "; "
		}
		s += AndList(members[k])
		if k.joining {
			s += " joining " + k.g.String()
		} else {
			s += " in " + k.g.String()
		}
	}
	return s
}
