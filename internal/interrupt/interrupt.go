package interrupt

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"sync"
	"syscall"

	"electsim/internal/outfile"
)

// Cleanup is what an interrupt must undo: the outputs in progress, whose temporary files it
// removes, and the child processes running, which it kills. The zero value is ready to use.
type Cleanup struct {
	mu       sync.Mutex
	files    map[*outfile.File]bool
	children map[*os.Process]bool
	hadFiles bool // files were written: the interrupt says none was left half written
}

// AddFile and ForgetFile keep the outputs in progress.
func (c *Cleanup) AddFile(f *outfile.File) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		c.files = map[*outfile.File]bool{}
	}
	c.files[f] = true
	c.hadFiles = true
}

func (c *Cleanup) ForgetFile(f *outfile.File) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.files, f)
}

// AddChild and ForgetChild keep the child processes running.
func (c *Cleanup) AddChild(p *os.Process) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.children == nil {
		c.children = map[*os.Process]bool{}
	}
	c.children[p] = true
}

func (c *Cleanup) ForgetChild(p *os.Process) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.children, p)
}

// undo kills every child still running and discards every output still in progress, and
// reports whether there were outputs.
func (c *Cleanup) undo() bool {
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

// Exit undoes what is in progress and ends electsim as signal s would, with 128 + its number,
// as a shell reports it.
func (c *Cleanup) Exit(s syscall.Signal) {
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

// Watch undoes what is in progress and exits (see Exit) when the process is interrupted
// (ctrl+c), told to terminate, hung up on (its terminal closed) or finds its output pipe closed
// (| head) — also when it was started with one of these signals ignored, as a shell script
// starts a job in the background. The returned function stops watching.
func (c *Cleanup) Watch() (stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sig:
			c.Exit(s.(syscall.Signal))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sig)
		close(done)
	}
}

// Run runs cmd to its end as a child that dies with this process: killed if this process is
// interrupted (see Watch), and, on Linux, at once if it dies any other way, even by SIGKILL
// (see childDies). A child ended by an interrupt, a termination or a hang-up — ctrl+c reaches
// it with this process — ends this process as the signal would (see Exit).
func (c *Cleanup) Run(cmd *exec.Cmd) error {
	cmd.SysProcAttr = childDies()
	// The parent-death signal is tied to the thread that starts the child: that thread must
	// live as long as the child does.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cmd.Start(); err != nil {
		return err
	}
	c.AddChild(cmd.Process)
	err := cmd.Wait()
	c.ForgetChild(cmd.Process)
	if s, ok := interruptedBy(err); ok {
		c.Exit(s)
	}
	return err
}

// interruptedBy reports whether a child's error says it was ended by an interrupt, a
// termination or a hang-up, and which.
func interruptedBy(err error) (syscall.Signal, bool) {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 0, false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return 0, false
	}
	switch s := ws.Signal(); s {
	case syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP:
		return s, true
	}
	return 0, false
}
