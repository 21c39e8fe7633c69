//go:build unix

package outfile

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// entries lists a folder's files.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// A new file appears whole at Commit, never before, named as asked, with the permissions a
// shell's > would give it: 0666 less the umask.
func TestNewFile(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Dest() != path || f.Borrowed() {
		t.Errorf("dest %q, borrowed %v", f.Dest(), f.Borrowed())
	}
	want := TempName("run.jsonl", os.Getpid(), 1)
	if got := entries(t, dir); len(got) != 1 || got[0] != want || filepath.Base(f.TempName()) != want {
		t.Errorf("while writing: %v, temporary %q; want only %s", got, f.TempName(), want)
	}
	if _, err := f.WriteString("hello\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := entries(t, dir); len(got) != 1 || got[0] != "run.jsonl" {
		t.Errorf("after Commit: %v", got)
	}
	fi, _ := os.Stat(path)
	if read(t, path) != "hello\n" || fi.Mode().Perm() != 0o640 {
		t.Errorf("%q, mode %v; want 0640 under umask 027", read(t, path), fi.Mode().Perm())
	}
	// Abort leaves nothing.
	f, err = Create(filepath.Join(dir, "other"))
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("half")
	f.Abort()
	f.Abort()
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("after Abort: %v", got)
	}
	if f.Commit() == nil {
		t.Error("Commit after Abort succeeded")
	}
}

// A file that exists is replaced whole, and keeps its permissions; through a symbolic link,
// the file it points to is replaced and the link stays a link.
func TestExistingFileKeepsItsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keep.svg")
	if err := os.WriteFile(path, []byte("old content, longer than the new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o604) // not what the umask would give
	link := filepath.Join(dir, "link.svg")
	if err := os.Symlink("keep.svg", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	li, _ := os.Lstat(link)
	if read(t, path) != "new\n" || fi.Mode().Perm() != 0o604 || li.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%q, mode %v, link %v", read(t, path), fi.Mode(), li.Mode())
	}
	if got := entries(t, dir); len(got) != 2 {
		t.Errorf("left %v", got)
	}
}

// Root keeps a file's owner when it replaces it.
func TestExistingFileKeepsItsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	path := filepath.Join(t.TempDir(), "theirs.jsonl")
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 12345, 23456); err != nil {
		t.Skip(err)
	}
	if err := WriteFile(path, []byte("y")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 12345 || st.Gid != 23456 {
		t.Errorf("owner %d:%d, want 12345:23456", st.Uid, st.Gid)
	}
}

// A file its user may not write is refused, as a shell's > refuses it (root may write it).
func TestReadOnlyFileRefused(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write any file")
	}
	path := filepath.Join(t.TempDir(), "ro.txt")
	if err := os.WriteFile(path, []byte("mine"), 0o444); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(path); !errors.Is(err, os.ErrPermission) {
		t.Errorf("got %v", err)
	}
	if read(t, path) != "mine" {
		t.Error("changed")
	}
}

// A device and a named pipe are written in place and stay what they were — even for root,
// whom the permissions would let replace them.
func TestSpecialFilesWrittenInPlace(t *testing.T) {
	null := nullDevice(t)
	f, err := Create(null)
	if err != nil {
		t.Fatal(err)
	}
	if f.TempName() != "" || f.Dest() != "" {
		t.Errorf("%s: temporary %q, dest %q", null, f.TempName(), f.Dest())
	}
	f.WriteString("gone\n")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(null); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is now %v (%v)", null, fi.Mode(), err)
	}
	// A link to the device, in a folder that holds nothing else.
	dir := t.TempDir()
	link := filepath.Join(dir, "null")
	os.Symlink(null, link)
	if err := WriteFile(link, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if li, _ := os.Lstat(link); li.Mode()&os.ModeSymlink == 0 || len(entries(t, dir)) != 1 {
		t.Errorf("the link became %v; folder %v", li.Mode(), entries(t, dir))
	}

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := WriteFile(fifo, []byte("through the pipe\n")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe\n" {
		t.Errorf("the reader got %q", s)
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is now %v", fi.Mode())
	}
}

// A directory and a socket are refused, saying why.
func TestRefused(t *testing.T) {
	dir := t.TempDir()
	if _, err := Create(dir); !errors.Is(err, ErrIsDir) {
		t.Errorf("a directory: %v", err)
	}
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip(err)
	}
	defer l.Close()
	if _, err := Create(sock); !errors.Is(err, ErrSocket) {
		t.Errorf("a socket: %v", err)
	}
	if _, err := Create(filepath.Join(dir, "no", "such")); !errors.Is(err, os.ErrNotExist) || strings.Contains(err.Error(), "/") {
		t.Errorf("a missing folder: %v", err)
	}
}

// A descriptor named by its path is written at its end, not from its start.
func TestDescriptorPathAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fd3.txt")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString("first\n")
	if err := WriteFile("/dev/fd/"+strconv.Itoa(int(f.Fd())), []byte("second\n")); err != nil {
		t.Fatal(err)
	}
	if s := read(t, path); s != "first\nsecond\n" {
		t.Errorf("got %q", s)
	}
}

// The file standard output goes to is written through standard output — one position, so
// neither overwrites the other — and is neither replaced nor closed.
func TestStdoutWrittenThrough(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stdout := os.Stdout
	os.Stdout = f
	defer func() { os.Stdout = stdout }()
	fmt.Fprint(os.Stdout, "summary before\n")
	o, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if !o.Borrowed() || o.TempName() != "" {
		t.Fatalf("borrowed %v, temporary %q", o.Borrowed(), o.TempName())
	}
	o.WriteString("trace\n")
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprint(os.Stdout, "summary after\n"); err != nil {
		t.Fatalf("standard output was closed: %v", err)
	}
	if s := read(t, path); s != "summary before\ntrace\nsummary after\n" {
		t.Errorf("got %q", s)
	}
}

// The temporary files of processes that are gone — a run killed with SIGKILL — are removed by
// the next Create of the same file; those of running processes, this one's among them, and
// other files' are left alone.
func TestStaleTemporariesRemoved(t *testing.T) {
	dir := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip(err)
	}
	alive := exec.Command("sleep", "60")
	if err := alive.Start(); err != nil {
		t.Skip(err)
	}
	defer func() { alive.Process.Kill(); alive.Wait() }()
	stale := []string{TempName("t.jsonl", gone.Process.Pid, 1), TempName("t.jsonl", gone.Process.Pid, 3)}
	kept := []string{TempName("t.jsonl", alive.Process.Pid, 1), TempName("t.jsonl", os.Getpid(), 1),
		TempName("other.jsonl", gone.Process.Pid, 1), ".t.jsonl.electsim-x.tmp", "t.jsonl.electsim-1.tmp"}
	for _, name := range append(append([]string{}, stale...), kept...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// This process has a temporary for t.jsonl already: the new one is the second.
	f, err := Create(filepath.Join(dir, "t.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(f.TempName()) != TempName("t.jsonl", os.Getpid(), 2) {
		t.Errorf("temporary %s", f.TempName())
	}
	f.Commit()
	for _, name := range stale {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s was left", name)
		}
	}
	for _, name := range kept {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed", name)
		}
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

// Two paths name one file when links lead one to the other — also a link to a file not yet
// written — and not when they lead to different files.
func TestSame(t *testing.T) {
	dir := t.TempDir()
	file, other := filepath.Join(dir, "run.svg"), filepath.Join(dir, "other.svg")
	link, ahead := filepath.Join(dir, "link.svg"), filepath.Join(dir, "ahead.svg")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("run.svg", link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink("not-yet.svg", ahead); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{file, link, true}, {link, file, true}, {file, file, true},
		{ahead, filepath.Join(dir, "not-yet.svg"), true},
		{file, other, false}, {link, ahead, false},
	} {
		if got := Same(tt.a, tt.b); got != tt.want {
			t.Errorf("Same(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// CreateFile writes only a regular file, or where nothing is yet: a named pipe (which would
// make open wait for a reader), a device, a descriptor path or a directory is refused before
// anything is opened, saying what it is; a regular file, through a link too, is written whole.
func TestCreateFileRegularOnly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "to-fifo")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		fifo:          "is a named pipe, not a file",
		link:          "is a named pipe, not a file",
		nullDevice(t): "is a character device (such as /dev/null or a terminal), not a file",
		"/dev/stdout": "is an open descriptor (a standard stream, /dev/fd/N), not a file",
		dir:           "is a directory",
	} {
		err := WriteRegularFile(path, []byte("x"))
		if err == nil || err.Error() != want || !errors.Is(err, ErrNotFile) && !errors.Is(err, ErrIsDir) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
	file := filepath.Join(dir, "s.scn")
	for _, text := range []string{"first\n", "second\n"} {
		if err := WriteRegularFile(file, []byte(text)); err != nil || read(t, file) != text {
			t.Errorf("a regular file: %v, holds %q", err, read(t, file))
		}
	}
	if err := os.Symlink(file, filepath.Join(dir, "to-file")); err != nil {
		t.Fatal(err)
	}
	if err := WriteRegularFile(filepath.Join(dir, "to-file"), []byte("third\n")); err != nil || read(t, file) != "third\n" {
		t.Errorf("through a link to a regular file: %v", err)
	}
}
