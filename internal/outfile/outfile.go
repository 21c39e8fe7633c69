package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// ErrIsDir is Create's error for a path that names a directory.
var ErrIsDir = errors.New("is a directory")

// ErrSocket is Create's error for a path that names a socket, which cannot be opened as a file.
var ErrSocket = errors.New("is a socket, not a file")

// File is an output being written. Its Write and WriteString errors give the reason alone
// ("no space left on device"), never the temporary file's name: the caller names the file.
// Commit and Abort may be called from another goroutine than Write, and either of them again:
// only the first takes effect.
type File struct {
	name     string // the path Create was given
	f        *os.File
	dest     string // the file Commit renames the temporary to; "" when written in place
	borrowed bool   // f is this process's standard output or error: never closed here

	mu   sync.Mutex
	done bool
}

// Create opens path for writing, as the package comment describes. Its errors give the reason
// alone: ErrIsDir, ErrSocket, or the operating system's ("permission denied").
func Create(path string) (*File, error) {
	if path == "" {
		return nil, errors.New("no file name")
	}
	target, descriptor := followLinks(path)
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return nil, ErrIsDir
	case err == nil:
		for _, std := range []*os.File{os.Stdout, os.Stderr} {
			if si, err := std.Stat(); err == nil && os.SameFile(fi, si) {
				return &File{name: path, f: std, borrowed: true}, nil
			}
		}
		switch {
		case fi.Mode()&fs.ModeSocket != 0:
			return nil, ErrSocket
		case !fi.Mode().IsRegular():
			return openInPlace(path, os.O_WRONLY)
		case descriptor:
			return openInPlace(path, os.O_WRONLY|os.O_APPEND)
		}
		// A file its owner made read-only is not replaced behind their back.
		probe, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, reason(err)
		}
		probe.Close()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, reason(err)
	}
	dir, base := filepath.Dir(target), filepath.Base(target)
	RemoveStale(dir, base)
	f, err := createTemp(dir, base)
	if err != nil {
		return nil, reason(err)
	}
	if fi != nil {
		keepOwner(f, fi)
		if err := f.Chmod(fi.Mode().Perm()); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, reason(err)
		}
	}
	return &File{name: path, f: f, dest: target}, nil
}

// openInPlace opens what cannot or need not be replaced, to write into it.
func openInPlace(path string, flag int) (*File, error) {
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		return nil, reason(err)
	}
	return &File{name: path, f: f}, nil
}

// createTemp creates the temporary file for base in dir, readable and writable as a new file
// would be (0666 less the umask): .BASE.electsim-PID.tmp, or -2, -3, ... when this process
// has one already.
func createTemp(dir, base string) (*os.File, error) {
	for n := 1; ; n++ {
		f, err := os.OpenFile(filepath.Join(dir, TempName(base, os.Getpid(), n)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil || !errors.Is(err, fs.ErrExist) || n == 1000 {
			return f, err
		}
	}
}

// TempName is the name of the n-th temporary file (from 1) that process pid makes for base.
func TempName(base string, pid, n int) string {
	if n > 1 {
		return fmt.Sprintf(".%s.electsim-%d-%d.tmp", base, pid, n)
	}
	return fmt.Sprintf(".%s.electsim-%d.tmp", base, pid)
}

// tempPID matches what follows ".BASE.electsim-" in a temporary file's name.
var tempPID = regexp.MustCompile(`^([0-9]+)(-[0-9]+)?\.tmp$`)

// RemoveStale removes the temporary files for base in dir that processes no longer running
// left behind: those of a run that was killed before it could. It reports how many it removed.
func RemoveStale(dir, base string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	prefix, removed := "."+base+".electsim-", 0
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		m := tempPID.FindStringSubmatch(rest)
		if m == nil {
			continue
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || pid == os.Getpid() || running(pid) {
			continue
		}
		if os.Remove(filepath.Join(dir, e.Name())) == nil {
			removed++
		}
	}
	return removed
}

// Write writes p.
func (o *File) Write(p []byte) (int, error) {
	n, err := o.f.Write(p)
	return n, reason(err)
}

// WriteString writes s.
func (o *File) WriteString(s string) (int, error) {
	n, err := o.f.WriteString(s)
	return n, reason(err)
}

// Name is the path the file was created with.
func (o *File) Name() string { return o.name }

// Dest is the file Commit replaces, once links are followed; "" when the file is written in
// place.
func (o *File) Dest() string { return o.dest }

// TempName is the temporary file's path; "" when the file is written in place.
func (o *File) TempName() string {
	if o.dest == "" {
		return ""
	}
	return o.f.Name()
}

// Borrowed reports whether the file is written through this process's standard output or
// standard error: what else that stream writes lands between its writes.
func (o *File) Borrowed() bool { return o.borrowed }

// Commit finishes the file: it closes it and moves the temporary file into place (a file
// written in place is only closed; a standard stream is left open).
func (o *File) Commit() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done {
		return errors.New("already finished")
	}
	o.done = true
	if o.borrowed {
		return nil
	}
	err := o.f.Close()
	if o.dest == "" {
		return reason(err)
	}
	if err == nil {
		err = os.Rename(o.f.Name(), o.dest)
	}
	if err != nil {
		os.Remove(o.f.Name())
	}
	return reason(err)
}

// Abort discards the file: the temporary file is removed, and the destination left as it was
// (what was written in place stays written). It does nothing after Commit.
func (o *File) Abort() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done {
		return
	}
	o.done = true
	if o.borrowed {
		return
	}
	o.f.Close()
	if o.dest != "" {
		os.Remove(o.f.Name())
	}
}

// WriteFile writes data to path whole or not at all (see Create).
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	return writeWhole(f, err, data)
}

// writeWhole writes data to f, which Create or CreateFile returned with err, and commits it —
// or, if anything fails, aborts it.
func writeWhole(f *File, err error, data []byte) error {
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// reason drops the paths from a file operation's error — the temporary file's among them.
func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError // a rename: it would name the temporary file
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// Same reports whether paths a and b name one file, once symbolic links are followed.
func Same(a, b string) bool {
	a, _ = followLinks(a)
	b, _ = followLinks(b)
	aa, err1 := filepath.Abs(a)
	ba, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == ba
}

// followLinks returns the file path names once symbolic links are followed — also a link to a
// file that does not exist yet, which is then created — and whether the path, or a link on
// the way, names an open file descriptor (/dev/stdout, /dev/fd/3, /proc/self/fd/3).
func followLinks(path string) (string, bool) {
	descriptor := false
	for range 40 {
		descriptor = descriptor || isDescriptor(path)
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, descriptor
		}
		to, err := os.Readlink(path)
		if err != nil {
			return path, descriptor
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return path, descriptor
}

// descriptorPath matches the paths that name an open file descriptor.
var descriptorPath = regexp.MustCompile(`^/(dev/(std(in|out|err)|fd/[0-9]+)|proc/(self|thread-self|[0-9]+)/fd/[0-9]+)$`)

func isDescriptor(path string) bool {
	abs, err := filepath.Abs(path)
	return err == nil && descriptorPath.MatchString(abs)
}
