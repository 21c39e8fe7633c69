package algo

// Deliberately broken variants of the invitation algorithm, exported to the external tests
// that show its monitors catching real violations.

// staleRecovery breaks one-coordinator-per-group: a member whose coordinator does not answer
// makes itself the coordinator of the group it was in, instead of forming a new one — so the
// group has two coordinators, the one that formed it and this one.
type staleRecovery struct{ *Invitation }

func (s staleRecovery) Timer(env Env, name string) {
	v := s.Invitation
	if name == timerThere && v.waiting && v.state == invNormal && v.coord != v.id {
		v.coord, v.waiting, v.up = v.id, false, nil // keeps v.group: the bug
		env.SetTimer(timerCheck, v.cfg.check)
		return
	}
	v.Timer(env, name)
}

func (s staleRecovery) Clone() Node { return staleRecovery{s.Invitation.Clone().(*Invitation)} }

// neverMerge breaks eventual-merge: a coordinator that finds others never invites them, so
// the groups a partition made stay apart after it heals.
type neverMerge struct{ *Invitation }

func (s neverMerge) Timer(env Env, name string) {
	v := s.Invitation
	if name == timerMerge && v.counter > 1 { // merges at boot, never after
		env.SetTimer(timerCheck, v.cfg.check)
		return
	}
	v.Timer(env, name)
}

func (s neverMerge) Clone() Node { return neverMerge{s.Invitation.Clone().(*Invitation)} }

// BrokenInvitation returns the invitation algorithm with one of its rules broken, under a name
// of its own: "stale-recovery" (one-coordinator-per-group breaks) or "never-merge"
// (eventual-merge breaks).
func BrokenInvitation(bug string) *Info {
	info := invitationInfo()
	info.Name = "invitation-" + bug
	info.Guarantees = nil
	switch bug {
	case "stale-recovery":
		info.New = func(id ID, c *Cluster) Node { return staleRecovery{NewInvitation(id, c)} }
	case "never-merge":
		info.New = func(id ID, c *Cluster) Node { return neverMerge{NewInvitation(id, c)} }
	default:
		panic("unknown bug " + bug)
	}
	return info
}
