package algo_test

import (
	"testing"

	"electsim/algo"
	"electsim/algo/algotest"
)

// The ring catalog's algorithms pass the whole conformance check: Clone and AppendState, both
// engines alike, every fault class survived, their declared guarantees held or shown broken,
// their election within the bound of their theory (algotest.Algorithm).
func TestCatalogConforms(t *testing.T) {
	for _, name := range []string{"hs", "peterson", "franklin", "itai-rodeh"} {
		info, err := algo.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) { algotest.Algorithm(t, info, 10) })
	}
}
