//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A bench's children die with it, however it dies: killed outright (SIGKILL), told to
// terminate (SIGTERM), or interrupted (SIGINT) — also when it was started with SIGINT ignored,
// as a shell script starts a job in the background, which left it deaf to SIGINT before. An
// interrupted or terminated bench exits as the signal would have it (128 + its number).
func TestBenchChildrenDieWithIt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts benches")
	}
	// The shell's trap is what a program it then runs starts with.
	if out, err := exec.Command("sh", "-c", `trap "" INT; exec cat /proc/self/status`).Output(); err != nil || !ignoresSIGINT(out) {
		t.Fatalf("sh cannot start a program with SIGINT ignored (%v)", err)
	}
	for _, c := range []struct {
		name     string
		sig      syscall.Signal
		ignored  bool // started with SIGINT ignored
		wantCode int  // -1: killed by the signal itself
	}{
		{"SIGKILL", syscall.SIGKILL, false, -1},
		{"SIGTERM", syscall.SIGTERM, false, 143},
		{"SIGINT", syscall.SIGINT, false, 130},
		{"SIGINT, started with SIGINT ignored", syscall.SIGINT, true, 130},
	} {
		t.Run(c.name, func(t *testing.T) {
			// A measurement of some 15 seconds, longer than the test waits for it to end.
			cmd := electsimCommand(t, "bench", "--algo", "lowest-id", "--nodes", "1300", "--engine", "inline")
			if c.ignored {
				cmd.Args = append([]string{"sh", "-c", `trap "" INT; exec "$0" "$@"`}, cmd.Args...)
				cmd.Path = "/bin/sh"
			}
			var errOut bytes.Buffer
			cmd.Stderr = &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			parent := cmd.Process.Pid
			var child int
			for deadline := time.Now().Add(20 * time.Second); child == 0; time.Sleep(20 * time.Millisecond) {
				if kids := childrenOf(parent); len(kids) > 0 {
					child = kids[0]
				} else if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("no child within 20s: %s", errOut.String())
				}
			}
			time.Sleep(200 * time.Millisecond) // the child is measuring
			cmd.Process.Signal(c.sig)
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			select {
			case err := <-waited:
				code := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				}
				if code != c.wantCode {
					t.Errorf("bench exited %d (%v), want %d; stderr %q", code, err, c.wantCode, errOut.String())
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-waited
				t.Fatalf("bench still running 10s after %s", c.name)
			}
			for deadline := time.Now().Add(5 * time.Second); alive(child); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					syscall.Kill(child, syscall.SIGKILL)
					t.Fatalf("bench's child %d still running 5s after bench ended", child)
				}
			}
			if c.sig != syscall.SIGKILL && !strings.Contains(errOut.String(), "electsim: interrupted") {
				t.Errorf("stderr %q", errOut.String())
			}
		})
	}
}

// childrenOf lists the processes whose parent is pid.
func childrenOf(pid int) []int {
	var kids []int
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after its last ')'.
		fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			if kid, err := strconv.Atoi(filepath.Base(filepath.Dir(path))); err == nil {
				kids = append(kids, kid)
			}
		}
	}
	return kids
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}

// ignoresSIGINT reports whether a process's /proc/PID/status says it ignores SIGINT.
func ignoresSIGINT(status []byte) bool {
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "SigIgn:"); ok {
			mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return err == nil && mask&(1<<(syscall.SIGINT-1)) != 0
		}
	}
	return false
}
