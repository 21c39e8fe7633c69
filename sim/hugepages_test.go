package sim

import "testing"

// hugeSpan rounds inward to whole huge pages: advice never reaches memory outside the table.
func TestHugeSpan(t *testing.T) {
	const M = hugePage
	for _, c := range []struct{ start, size, from, to uintptr }{
		{0, 4 * M, 0, 4 * M},
		{M / 2, 4 * M, M, 4 * M},           // a ragged start and end: the 3 whole pages inside
		{M / 2, M, M, M},                   // straddles a boundary, holds no whole page
		{M, M - 1, M, M},                   // one byte short of a page
		{3*M + 4096, 8 * M, 4 * M, 11 * M}, // a table on a 4 KB page
	} {
		if from, to := hugeSpan(c.start, c.size); from != c.from || to != c.to {
			t.Errorf("hugeSpan(%#x, %#x) = [%#x, %#x), want [%#x, %#x)", c.start, c.size, from, to, c.from, c.to)
		}
	}
}
