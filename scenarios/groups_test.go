package scenarios

import (
	"strings"
	"testing"
)

// An algorithm of groups has a coordinator per group by design: a scenario that expects a
// split brain of it, or none, or names at-most-one-leader, is told so at the word, and what
// it may expect instead.
func TestSplitBrainIsNotExpectedOfGroups(t *testing.T) {
	for _, line := range []string{"expect split-brain", "expect no split-brain", "expect at-most-one-leader", "expect violation at-most-one-leader"} {
		_, err := Parse("g.scn", []byte("algo invitation\nnodes 3\n"+line+"\n"))
		if err == nil {
			t.Errorf("%s: parsed, want an error", line)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "g.scn:3:") || !strings.Contains(msg, "one coordinator per group") ||
			!strings.Contains(msg, "eventual-merge") {
			t.Errorf("%s: %q, want it positioned at line 3, saying why and what to expect", line, msg)
		}
	}
	if _, err := Parse("b.scn", []byte("algo bully\nnodes 3\nexpect split-brain\n")); err != nil {
		t.Errorf("bully: %v", err)
	}
}
