package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRunHTML writes a run's replay page with --html; a second run replaces it whole.
func TestRunHTML(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lesson.html")
	code, out, errOut := call("run", "bully-leader-crash", "--html", path, "--quiet", "--no-color")
	if code != 0 || !strings.Contains(out, "Summary") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `<script type="application/octet-stream" id="replay"`) || strings.Contains(string(page), `src="app.js"`) {
		t.Fatalf("the page is not self-contained: %.300s", page)
	}
	for _, ref := range []string{"http:", "https:", " src=", " href="} {
		if strings.Contains(string(page), ref) {
			t.Errorf("the page refers to something outside it (%q): it must open with no network", ref)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("the folder holds %d files, not the page alone", len(entries))
	}
}

// TestWebBadInput: a web command that cannot start says why, exit 2, before it listens.
func TestWebBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"web", "nosuch"}, `no bundled scenario called "nosuch"`},
		{[]string{"web", "--nodes", "0"}, "--nodes"},
		{[]string{"web", "--addr", "256.0.0.1:99999"}, "--addr 256.0.0.1:99999: cannot listen there"},
		{[]string{"run", "--html", dir, "-q"}, "--html " + dir + ": is a directory"},
		{[]string{"run", "--html", filepath.Join(dir, "a"), "--trace", filepath.Join(dir, "a"), "-q"}, "writes there too"},
	} {
		code, _, errOut := call(c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "goroutine") {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// TestWebStopsOnSignal: electsim web prints its URL, serves it, and ends cleanly (exit 0) on
// SIGINT and SIGTERM.
func TestWebStopsOnSignal(t *testing.T) {
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		cmd := electsimCommand(t, "web")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(stdout)
		var url string
		for url == "" {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("no URL printed: %v", err)
			}
			if s := strings.TrimSpace(line); strings.HasPrefix(s, "http://127.0.0.1:") {
				url = s
			}
		}
		res, err := http.Get(url + "api/scenarios")
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("GET %s: %v %v", url, res, err)
		}
		res.Body.Close()
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		rest, _ := io.ReadAll(r)
		if err := cmd.Wait(); err != nil || !strings.Contains(string(rest), "stopped") {
			t.Fatalf("after %v: %v, stdout %q", sig, err, rest)
		}
	}
}
