package memlimit

import (
	"os"
	"path/filepath"
	"testing"
)

// The limit of the process's cgroup or of one above it, v2 or v1; none when they say "max" or
// v1's huge number.
func TestCgroupLimit(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v2, v1 := filepath.Join(dir, "v2"), filepath.Join(dir, "v1")
	write("self2", "0::/a/b\n")
	write("v2/a/b/memory.max", "max\n")
	write("v2/a/memory.max", "3221225472\n")
	write("self1", "4:memory:/job\n3:cpu,cpuacct:/\n")
	write("v1/job/memory.limit_in_bytes", "9223372036854771712\n")
	write("v1/memory.limit_in_bytes", "1073741824\n")
	write("self0", "0::/\n")
	for self, want := range map[string]int64{"self2": 3 << 30, "self1": 1 << 30, "self0": 0, "missing": 0} {
		if got := cgroupLimit(filepath.Join(dir, self), v2, v1); got != want {
			t.Errorf("%s: %d, want %d", self, got, want)
		}
	}
}
