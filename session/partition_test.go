package session

import "testing"

// A partition that puts every node in one group splits nothing: `partition leader 1 2 3 4`
// where node 5 leads is refused where it happens, saying why, as every action that would
// change nothing is (issue 28, item 17).
func TestPartitionOfEveryNodeRefused(t *testing.T) {
	s := open(t, "bully-leader-crash", nil)
	next(t, s, 60)
	if l := s.Leaders(); len(l) != 1 || l[0] != 5 {
		t.Fatalf("leaders %v, want node 5", l)
	}
	refused(t, s, "partition leader 1 2 3 4", "it puts every node in one group, which splits nothing")
	if _, err := act(t, s, "partition leader 1 2"); err != nil {
		t.Errorf("partition leader 1 2: %v", err)
	}
}
