package goldenfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Check passes on equal text and fails, naming the first differing line, on any other —
// including a file that is missing or only longer.
func TestCheck(t *testing.T) {
	if Updating() {
		t.Skip("-update would rewrite what this test compares")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, got string
		fails     bool
		says      string // in the failure
	}{
		{"a.txt", "one\ntwo\n", false, ""},
		{"a.txt", "one\nTWO\n", true, "differs at line 2:\n got TWO\nwant two"},
		{"a.txt", "one\ntwo\nthree\n", true, "differs at line 3"},
		{"a.txt", "one\n", true, "differs at line 2"},
		{"a.txt", "one\ntwo", true, "only one of the two ends with a newline"}, // the same lines, but for the last newline
		{"a.txt", "one\ntwo\n\n", true, "got 3 lines, want 2"},                 // one blank line more
		{"missing.txt", "", true, "run go test -update to create it"},
	} {
		ft := &fakeT{TB: t}
		func() {
			defer func() { recover() }() // Fatalf stops the fake test
			Check(ft, c.name, c.got)
		}()
		if ft.failed != c.fails || !strings.Contains(ft.msg, c.says) {
			t.Errorf("%s with %q: failed %v (%q), want %v (%q)", c.name, c.got, ft.failed, ft.msg, c.fails, c.says)
		}
	}
}

// fakeT records a failure instead of failing the real test.
type fakeT struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed, f.msg = true, fmt.Sprintf(format, args...)
	panic("fatal")
}
func (f *fakeT) Fatal(args ...any) {
	f.failed, f.msg = true, fmt.Sprint(args...)
	panic("fatal")
}
