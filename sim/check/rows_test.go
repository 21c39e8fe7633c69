package check

import (
	"testing"

	"electsim/algo"
)

// Every row an algorithm declares (algo.Info.Guarantees) has a verdict for each column, a
// property the checker can judge on it, and parameters the algorithm has: a mistake in a
// declaration fails here, not in the middle of a matrix.
func TestDeclaredRowsAreWellFormed(t *testing.T) {
	for _, info := range algo.Algorithms() {
		for _, row := range RowsOf([]*algo.Info{info}) {
			if len(row.Theory) != len(Columns()) {
				t.Errorf("%s: %d verdicts, want one for each of the %d columns", row.Label(), len(row.Theory), len(Columns()))
			}
			if err := ValidateProperty(info, row.Property); err != nil {
				t.Errorf("%s: %v", row.Label(), err)
			}
			for _, p := range row.Params {
				if _, err := info.ParseParam(p.Key, p.Value); err != nil {
					t.Errorf("%s: %v", row.Label(), err)
				}
			}
		}
	}
	if len(Rows()) < len(algo.Algorithms()) {
		t.Errorf("%d rows for %d algorithms: every algorithm declares at least one", len(Rows()), len(algo.Algorithms()))
	}
}
