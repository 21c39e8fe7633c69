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

	"electsim/internal/outfile"
)

// outFile is a file electsim writes for the user, named by a flag: whole or not at all, and
// never in place of a device or a pipe (see package outfile). An interrupt removes it (see
// tempFiles).
type outFile struct {
	*outfile.File
	temp *tempFiles
}

// tempFiles remembers the outputs in progress, so that an interrupt removes their temporary
// files.
type tempFiles struct {
	mu    sync.Mutex
	files map[*outfile.File]bool
}

func (t *tempFiles) add(f *outfile.File) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.files == nil {
		t.files = map[*outfile.File]bool{}
	}
	t.files[f] = true
}

func (t *tempFiles) forget(f *outfile.File) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.files, f)
}

// removeAll discards every output still in progress.
func (t *tempFiles) removeAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for f := range t.files {
		f.Abort()
	}
	t.files = nil
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
	f, err := outfile.Create(dest)
	switch {
	case errors.Is(err, outfile.ErrIsDir):
		return nil, usagef("%s %s: is a directory; give a file name", flag, dest)
	case err != nil:
		return nil, usagef("%s %s: cannot write there: %v", flag, dest, err)
	}
	temp.add(f)
	return &outFile{File: f, temp: temp}, nil
}

// Commit finishes the file: a regular one is moved into place.
func (o *outFile) Commit() error {
	defer o.temp.forget(o.File)
	if err := o.File.Commit(); err != nil {
		dest := o.Dest()
		if dest == "" {
			dest = o.Name()
		}
		return fmt.Errorf("writing %s: %v", dest, err)
	}
	return nil
}

// Abort discards the file; it is a no-op after Commit.
func (o *outFile) Abort() {
	o.File.Abort()
	o.temp.forget(o.File)
}

// unwrapPath drops the paths from a file operation's error.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
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
