package check

import (
	"fmt"
	"slices"
	"strings"

	"electsim/algo"
	"electsim/sim"
)

// EventualLeader is the liveness property (docs/properties.md) that the checker adds to the
// monitors' safety properties: once the faults are over and the settle time has passed, one live
// leader is agreed by every live node — when the algorithm can have one at all (see
// leaderPossible).
const EventualLeader = "eventual-leader"

// Properties returns the properties a check of algorithm a can judge, the default first:
// at-most-one-leader (but for an algorithm of groups, algo.Info.Groups), one-leader-per-term
// (algorithms with terms), agreement, eventual-leader, then the algorithm's own (Lease:
// no-stale-write). An algorithm of groups's default is its first own property.
func Properties(a *algo.Info) []string {
	var props []string
	if !a.Groups {
		props = append(props, sim.AtMostOneLeader)
	}
	if a.Terms {
		props = append(props, sim.OneLeaderPerTerm)
	}
	props = append(props, sim.Agreement, EventualLeader)
	for _, m := range a.Monitors {
		props = append(props, m.Property)
	}
	if a.Groups && len(a.Monitors) > 0 { // its own first: what it promises instead
		own := props[len(props)-len(a.Monitors):]
		props = append(slices.Clone(own), props[:len(props)-len(a.Monitors)]...)
	}
	return props
}

// ValidateProperty says why property cannot be checked on algorithm a, naming the ones that can.
func ValidateProperty(a *algo.Info, property string) error {
	props := Properties(a)
	if slices.Contains(props, property) {
		return nil
	}
	for _, b := range algo.Algorithms() {
		if slices.Contains(Properties(b), property) {
			return fmt.Errorf("%s has no property %q (its properties are %s)", a.Name, property, strings.Join(props, ", "))
		}
	}
	return fmt.Errorf("unknown property %q (choose one of %s)", property, strings.Join(props, ", "))
}

// judged returns the property the run's own summary judges for property: the same, except for
// eventual-leader, which in a checked run is agreement at its end (the run ends when the settle
// time after the faults is over).
func judged(property string) string {
	if property == EventualLeader {
		return sim.Agreement
	}
	return property
}

// violation reports whether the finished run broke property, and the first violation of it.
func violation(sum *sim.Summary, info *algo.Info, property string) (sim.Violation, bool) {
	if property == EventualLeader && (sum.Leader != 0 || !leaderPossible(sum, info)) {
		return sim.Violation{}, false
	}
	name := judged(property)
	for _, v := range sum.Violations {
		if v.Property == name {
			if property == EventualLeader {
				v.Property = EventualLeader
			}
			return v, true
		}
	}
	return sim.Violation{}, false
}

// leaderPossible reports whether the algorithm can have a leader with the nodes live at the
// end of the run: one that elects with a majority (algo.Info.Quorum: Raft, Paxos, Zab) needs a
// majority of the whole membership; a lease needs its lock service and one live candidate,
// ZooKeeper's recipe its coordination service and one,
// client-go's lease its API server and one; the others need one live node.
func leaderPossible(sum *sim.Summary, info *algo.Info) bool {
	live, candidates, lockUp := 0, 0, false
	for _, n := range sum.Nodes {
		up := n.Status != sim.Crashed
		switch {
		case n.Role == algo.RoleLockService || n.Role == algo.RoleCoordination || n.Role == algo.RoleAPIServer:
			lockUp = up
		case n.Role != "":
		default:
			candidates++
			if up {
				live++
			}
		}
	}
	switch {
	case info.Quorum:
		return 2*live > candidates
	case info.Roles != nil:
		return lockUp && live > 0
	}
	return live > 0
}
