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
// cleanup).
type outFile struct {
	*outfile.File
	temp *cleanup
}

// cleanup is what an interrupt must undo: the outputs in progress, whose temporary files it
// removes, and the child processes running, which it kills (see onInterrupt).
type cleanup struct {
	mu       sync.Mutex
	files    map[*outfile.File]bool
	children map[*os.Process]bool
	hadFiles bool // files were written: the interrupt says none was left half written
}

func (c *cleanup) add(f *outfile.File) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		c.files = map[*outfile.File]bool{}
	}
	c.files[f] = true
	c.hadFiles = true
}

func (c *cleanup) forget(f *outfile.File) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.files, f)
}

// addChild and forgetChild keep the child processes running.
func (c *cleanup) addChild(p *os.Process) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.children == nil {
		c.children = map[*os.Process]bool{}
	}
	c.children[p] = true
}

func (c *cleanup) forgetChild(p *os.Process) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.children, p)
}

// undo kills every child still running and discards every output still in progress, and
// reports whether there were outputs.
func (c *cleanup) undo() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for p := range c.children {
		p.Kill()
	}
	for f := range c.files {
		f.Abort()
	}
	c.files, c.children = nil, nil
	return c.hadFiles
}

// exit undoes what is in progress and ends electsim as signal s would, with 128 + its number,
// as a shell reports it.
func (c *cleanup) exit(s syscall.Signal) {
	files := c.undo()
	if s != syscall.SIGPIPE { // nobody reads a closed pipe's other end
		msg := "electsim: interrupted"
		if files {
			msg += "; no partial file was left"
		}
		// Start a fresh line: a progress bar may be on this one.
		fmt.Fprintln(os.Stderr, "\r\x1b[K"+msg)
	}
	os.Exit(128 + int(s))
}

// onInterrupt undoes what is in progress and exits (see exit) when the process is interrupted
// (ctrl+c), told to terminate, hung up on (its terminal closed) or finds its output pipe closed
// (| head) — also when it was started with one of these signals ignored, as a shell script
// starts a job in the background. The returned function stops watching.
func (c *cleanup) onInterrupt() (stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sig:
			c.exit(s.(syscall.Signal))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sig)
		close(done)
	}
}

// createOut opens dest for writing; flag names the flag that asked for it, for the error.
func createOut(flag, dest string, temp *cleanup) (*outFile, error) {
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
