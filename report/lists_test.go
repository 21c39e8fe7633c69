package report

import (
	"bytes"
	"strings"
	"testing"

	"electsim/scenarios"
)

// The list of bundled scenarios is a table: every title starts in the same column, whatever
// the length of the algorithm's name (itai-rodeh's is the longest).
func TestScenarioListIsAligned(t *testing.T) {
	var b bytes.Buffer
	if err := WriteScenarios(&b); err != nil {
		t.Fatal(err)
	}
	col := -1
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		name := strings.Fields(line)[0]
		sc, err := scenarios.LoadBundled(name)
		if err != nil {
			t.Fatal(err)
		}
		at := len([]rune(line)) - len([]rune(sc.Title))
		if !strings.HasSuffix(line, sc.Title) || (col >= 0 && at != col) {
			t.Errorf("%s: its title starts at column %d, the first line's at %d:\n%s", name, at, col, b.String())
			break
		}
		col = at
	}
}
