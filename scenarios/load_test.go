//go:build unix

package scenarios

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Load reads what can be a scenario and no more: a device (/dev/zero, which never ends) or a
// socket is refused before anything is read; a file bigger than MaxFileSize is refused from
// its size, unread; a pipe is read, but never past the limit.
func TestLoadBounded(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ path, want string }{
		{"/dev/zero", "/dev/zero: is a character device (such as /dev/null or a terminal), not a file: give a scenario file (.scn) or a bundled scenario's name"},
		{dir, dir + ": is a directory; give a scenario file (.scn) or a bundled scenario's name"},
	} {
		if _, err := Load(c.path); err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v", c.path, err)
		}
	}
	sock := filepath.Join(dir, "s.scn")
	if l, err := net.Listen("unix", sock); err == nil {
		defer l.Close()
		if _, err := Load(sock); err == nil || !strings.HasPrefix(err.Error(), sock+": is a socket, not a file") {
			t.Errorf("a socket: %v", err)
		}
	}
	// A file one byte too big (sparse: nothing of it is read).
	big := filepath.Join(dir, "big.scn")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(MaxFileSize + 1)
	f.Close()
	want := big + ": it is 4 MB, and a scenario file may hold at most 4 MB (4194304 bytes); a scenario is a short text file (electsim scenarios --show NAME prints one)"
	if _, err := Load(big); err == nil || err.Error() != want {
		t.Errorf("a file too big: %v", err)
	}
	// A pipe: a scenario through it is read; one that goes on is cut off at the limit.
	fifo := filepath.Join(dir, "p.scn")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	feed := func(src io.Reader) {
		go func() {
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			io.Copy(w, src)
			w.Close()
		}()
	}
	feed(strings.NewReader("algo ring\nnodes 3\n"))
	if sc, err := Load(fifo); err != nil || sc.Algorithm != "ring" || len(sc.IDs) != 3 {
		t.Errorf("a scenario through a pipe: %v", err)
	}
	feed(io.LimitReader(zeros{}, 100<<20))
	want = fifo + ": it holds more than 4 MB (4194304 bytes), the most a scenario file may hold; a scenario is a short text file (electsim scenarios --show NAME prints one)"
	if _, err := Load(fifo); err == nil || err.Error() != want {
		t.Errorf("100 MB through a pipe: %v", err)
	}
	// A file at the limit is read.
	ok := filepath.Join(dir, "ok.scn")
	if err := os.WriteFile(ok, []byte("algo ring\n"+strings.Repeat("#", MaxFileSize-len("algo ring\n\n"))+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(ok); err != nil {
		t.Errorf("a file of exactly MaxFileSize bytes: %v", err)
	}
}

// zeros reads as endless newlines.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '\n'
	}
	return len(p), nil
}

// A name that ends in .scn, or holds a path, names a file, and only a file: missing, it is an
// error naming it, never the bundled scenario of the same name played instead (issue 28, item
// 12). A bare name is a bundled scenario's.
func TestLoadMissingFileIsNotBundled(t *testing.T) {
	t.Chdir(t.TempDir())
	for arg, want := range map[string]string{
		"bully-partition.scn":   "bully-partition.scn: no such scenario file (the bundled scenario of that name is bully-partition: electsim run bully-partition)",
		"./bully-partition.scn": "./bully-partition.scn: no such scenario file",
		"./bully-partition":     "./bully-partition: no such scenario file",
		"lessons/week1.scn":     "lessons/week1.scn: no such scenario file",
		"week1.scn":             "week1.scn: no such scenario file",
	} {
		if sc, err := Load(arg); err == nil || err.Error() != want {
			t.Errorf("Load(%q): %v (scenario %v)\nwant %s", arg, err, sc != nil, want)
		}
	}
	if sc, err := Load("bully-partition"); err != nil || sc.Name != "bully-partition" || sc.File() != "" {
		t.Errorf("the bundled bully-partition: %v", err)
	}
}
