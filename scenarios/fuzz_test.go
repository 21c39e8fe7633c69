package scenarios

import (
	"errors"
	"testing"
)

// FuzzParse: Parse never panics, and every error it reports has a position — a line and a
// column. Seeded with the bundled library. CI runs it for a few seconds:
//
//	go test ./scenarios -run '^$' -fuzz FuzzParse -fuzztime 10s
func FuzzParse(f *testing.F) {
	for _, name := range Bundled() {
		src, err := BundledSource(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("at 1s partition 1 2 | | 3\nexpect messages\nids 1,,2\nset\n\"\n"))
	f.Add([]byte("algo echo\nnodes 4\ntopology edges 1-2 2-3,3-4\nedges 4-1 1-3\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		sc, err := Parse("fuzz.scn", src)
		if err == nil {
			if sc == nil {
				t.Fatal("no scenario and no error")
			}
			// What parses formats, and what it formats parses back.
			if _, err := Parse("fuzz.scn", []byte(Format(sc))); err != nil {
				t.Fatalf("Format of a parsed scenario does not parse: %v\n%s", err, Format(sc))
			}
			return
		}
		var list ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Fatalf("error %T %v, want a non-empty ErrorList", err, err)
		}
		for _, e := range list {
			if e.Line < 1 || e.Col < 1 || e.File != "fuzz.scn" || e.Msg == "" {
				t.Fatalf("an error without a position: %#v", e)
			}
		}
	})
}
