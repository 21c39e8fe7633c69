package algo

// A deliberately broken variant of Zab, exported to the external tests that show
// leader-has-latest catching a real violation.

// BrokenZab returns Zab under the name "zab-sid-first", with its votes ordered by server id
// first, then epoch, then zxid: the highest id always wins, however old its history — the bug
// leader-has-latest exists to catch.
func BrokenZab() *Info {
	info := zabInfo()
	info.Name = "zab-sid-first"
	info.Guarantees = nil
	info.New = func(id ID, c *Cluster) Node {
		z := NewZab(id, c)
		cfg := *z.cfg
		cfg.better = func(a, b zabVote) bool {
			if a.leader != b.leader {
				return a.leader > b.leader
			}
			return zabVote.beats(a, b)
		}
		z.cfg = &cfg
		return z
	}
	return info
}
