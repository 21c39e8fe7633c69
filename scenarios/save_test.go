//go:build unix

package scenarios

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// What the TUI's s saves goes only to a regular file (issue 28, item 11): a device or a named
// pipe is refused before it is opened — a pipe no one reads would hold the TUI forever — and
// left as it was, never replaced, not even by root, whom the permissions would let replace
// /dev/null with a regular file. A file that exists keeps its permissions.
func TestWriteFileSpecialFiles(t *testing.T) {
	null := nullDevice(t)
	if err := WriteFile(null, "nodes 3\n"); err == nil || err.Error() != "cannot write "+null+": it is a character device (such as /dev/null or a terminal), not a file; give the name of a file" {
		t.Errorf("a device: %v", err)
	}
	if fi, err := os.Stat(null); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is now %v (%v)", null, fi.Mode(), err)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "lesson.scn")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(fifo, "nodes 3\n"); err == nil || err.Error() != "cannot write "+fifo+": it is a named pipe, not a file; give the name of a file" {
		t.Errorf("a named pipe no one reads: %v", err)
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe is now %v", fi.Mode())
	}
	mine := filepath.Join(dir, "mine.scn")
	if err := os.WriteFile(mine, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(mine, "nodes 3\n"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(mine); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 as it was", fi.Mode().Perm())
	}
}

// nullDevice returns a character device to write to: a private null device made in a fresh
// folder, so that a test that fails cannot replace the machine's own /dev/null. Without the
// right to make one, /dev/null itself — but only for a user who cannot replace it anyway.
func nullDevice(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "null")
	err := syscall.Mknod(path, syscall.S_IFCHR|0o666, int(mkdev(1, 3)))
	switch {
	case err == nil:
		return path
	case os.Geteuid() != 0:
		return "/dev/null"
	}
	t.Skipf("cannot make a device to write to: %v", err)
	return ""
}

// mkdev is Linux's makedev: the device number of major and minor.
func mkdev(major, minor uint64) uint64 {
	return major&0xfff<<8 | major&^0xfff<<32 | minor&0xff | minor&^0xff<<12
}
