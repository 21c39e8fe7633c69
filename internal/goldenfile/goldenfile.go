package goldenfile

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files in testdata/")
	}
}

// Updating reports whether the tests run with -update.
func Updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// Check compares got with testdata/name, or with -update writes got there. A difference is
// reported at its first differing line.
func Check(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if Updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Fatalf("%s differs at line %d:\n got %s\nwant %s\n(run go test -update and review the diff)", path, i+1, gl[i], wl[i])
		}
	}
	// One is the other and more: lines, or a last newline.
	if g, w := countLines(got), countLines(string(want)); g != w {
		t.Fatalf("%s: got %d lines, want %d (run go test -update and review the diff)", path, g, w)
	}
	t.Fatalf("%s: the same lines, but only one of the two ends with a newline (run go test -update and review the diff)", path)
}

// countLines counts the lines of s, the last one whether it ends with a newline or not.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
