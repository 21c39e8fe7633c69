package goldenfile

import (
	"os"
	"path/filepath"
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
	}{
		{"a.txt", "one\ntwo\n", false},
		{"a.txt", "one\nTWO\n", true},
		{"a.txt", "one\ntwo\nthree\n", true},
		{"a.txt", "one\n", true},
		{"missing.txt", "", true},
	} {
		ft := &fakeT{TB: t}
		func() {
			defer func() { recover() }() // Fatalf stops the fake test
			Check(ft, c.name, c.got)
		}()
		if ft.failed != c.fails {
			t.Errorf("%s with %q: failed %v, want %v", c.name, c.got, ft.failed, c.fails)
		}
	}
}

// fakeT records a failure instead of failing the real test.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(string, ...any) {
	f.failed = true
	panic("fatal")
}
func (f *fakeT) Fatal(...any) {
	f.failed = true
	panic("fatal")
}
