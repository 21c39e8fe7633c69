package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
)

// outFile is a file electsim writes for the user. A regular file (or a new one) is written
// whole or not at all: to a temporary file beside it, renamed into place by Commit. A symbolic
// link is followed, so the file it points to is replaced and the link stays. Anything else that
// already exists at the path — /dev/null, a terminal, a named pipe — is written to directly,
// since it cannot be replaced and need not be.
type outFile struct {
	*os.File
	dest string // the file Commit renames to; "" when writing in place
	temp *tempFiles
}

// Write writes to the file; its error says why, without the temporary file's name ("no space
// left on device"): the caller names the flag and the file asked for.
func (o *outFile) Write(p []byte) (int, error) {
	n, err := o.File.Write(p)
	return n, unwrapPath(err)
}

// WriteString is Write for a string (io.WriteString would otherwise reach the file's own).
func (o *outFile) WriteString(s string) (int, error) {
	n, err := o.File.WriteString(s)
	return n, unwrapPath(err)
}

// tempFiles remembers the temporary files in progress, so that an interrupt removes them.
type tempFiles struct {
	mu    sync.Mutex
	names map[string]bool
}

func (t *tempFiles) add(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.names == nil {
		t.names = map[string]bool{}
	}
	t.names[name] = true
}

func (t *tempFiles) remove(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.names, name)
	os.Remove(name)
}

// removeAll removes every temporary file still in progress.
func (t *tempFiles) removeAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for name := range t.names {
		os.Remove(name)
	}
	t.names = nil
}

// onInterrupt removes the temporary files and exits when the process is interrupted (ctrl+c),
// told to terminate, hung up on (its terminal closed) or finds its output pipe closed (| head):
// with 128 + the signal's number, as a shell reports it. The returned function stops watching.
func (t *tempFiles) onInterrupt() (stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sig:
			t.removeAll()
			if s != syscall.SIGPIPE { // nobody reads a closed pipe's other end
				// Start a fresh line: a progress bar may be on this one.
				fmt.Fprintln(os.Stderr, "\r\x1b[Kelectsim: interrupted; no partial file was left")
			}
			os.Exit(128 + int(s.(syscall.Signal)))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sig)
		close(done)
	}
}

// createOut opens dest for writing; flag names the flag that asked for it, for the error.
func createOut(flag, dest string, temp *tempFiles) (*outFile, error) {
	if dest == "" {
		if flag == "--trace" { // the only output of these that may go to stdout
			return nil, usagef("%s needs a file name (or - for stdout)", flag)
		}
		return nil, usagef("%s needs a file name", flag)
	}
	target := followLinks(dest)
	if fi, err := os.Stat(target); err == nil {
		if fi.IsDir() {
			return nil, usagef("%s %s: is a directory; give a file name", flag, dest)
		}
		if !fi.Mode().IsRegular() {
			f, err := os.OpenFile(target, os.O_WRONLY, 0)
			if err != nil {
				return nil, usagef("%s %s: cannot write there: %v", flag, dest, unwrapPath(err))
			}
			return &outFile{File: f}, nil
		}
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return nil, usagef("%s %s: cannot write there: %v", flag, dest, unwrapPath(err))
	}
	temp.add(f.Name())
	return &outFile{File: f, dest: target, temp: temp}, nil
}

// Commit closes the file and, for a regular file, moves it into place.
func (o *outFile) Commit() error {
	err := o.Close()
	if o.dest == "" {
		return err
	}
	defer o.temp.remove(o.Name())
	if err == nil {
		err = os.Chmod(o.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(o.Name(), o.dest)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %v", o.dest, unwrapPath(err))
	}
	return nil
}

// Abort discards what was written to a temporary file; it is a no-op after Commit.
func (o *outFile) Abort() {
	o.Close()
	if o.dest != "" {
		o.temp.remove(o.Name())
	}
}

// unwrapPath drops the paths from a file operation's error — the temporary file's among them.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError // a rename: it would name the temporary file
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

var _ io.Writer = (*outFile)(nil)

// followLinks returns the file path names once symbolic links are followed — also a link to a
// file that does not exist yet, which is then created.
func followLinks(path string) string {
	for range 40 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path
		}
		to, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return path
}

// distinctOutputs checks that no two outputs (flag → path; "" and "-" are not files) name one
// file, and that none is the scenario being run (scenario; "" for none or a bundled one).
func distinctOutputs(scenario string, outputs map[string]string) error {
	same := func(a, b string) bool {
		a, b = followLinks(a), followLinks(b)
		aa, err1 := filepath.Abs(a)
		ba, err2 := filepath.Abs(b)
		return err1 == nil && err2 == nil && aa == ba
	}
	flags := slices.Sorted(maps.Keys(outputs))
	for i, f := range flags {
		path := outputs[f]
		if path == "" || path == "-" {
			continue
		}
		if scenario != "" && same(path, scenario) {
			return usagef("%s %s: that is the scenario being run; write to another file", f, path)
		}
		for _, g := range flags[i+1:] {
			if other := outputs[g]; other != "" && other != "-" && same(path, other) {
				return usagef("%s %s: %s writes there too; give each output a file of its own", g, other, f)
			}
		}
	}
	return nil
}
