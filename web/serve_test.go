package web

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"electsim/scenarios"
)

// syncBuffer is a buffer Serve writes to while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// serve runs Serve on addr until the test's end, and returns its URL and outputs.
func serve(t *testing.T, addr string) (string, *syncBuffer, *syncBuffer, func() error) {
	t.Helper()
	cfg, sc := bundled(t, scenarios.DefaultDemo)
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, Options{Config: cfg, Scenario: sc}, addr, &out, &errOut, func(u string) { urls <- u })
	}()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatalf("Serve: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not listen")
	}
	stop := func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("Serve did not stop")
			return nil
		}
	}
	return url, &out, &errOut, stop
}

// TestServe listens on the loopback by default, prints the URL, serves the page, and stops
// cleanly when told to.
func TestServe(t *testing.T) {
	url, out, errOut, stop := serve(t, DefaultAddr)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.Contains(out.String(), url) {
		t.Fatalf("the URL %q, printed: %q", url, out.String())
	}
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "<title>electsim</title>") {
		t.Fatalf("the page: %d %.200s", res.StatusCode, body)
	}
	if err := stop(); err != nil {
		t.Fatalf("stopping: %v", err)
	}
	if errOut.String() != "" || !strings.HasSuffix(out.String(), "electsim web: stopped\n") {
		t.Fatalf("stdout %q, stderr %q", out.String(), errOut.String())
	}
}

// TestServeWarnsOffLoopback: an address any machine may reach prints a warning.
func TestServeWarnsOffLoopback(t *testing.T) {
	url, _, errOut, stop := serve(t, "0.0.0.0:0")
	defer stop()
	if !strings.Contains(errOut.String(), "is not a loopback address") || !strings.HasPrefix(url, "http://localhost:") {
		t.Fatalf("URL %q, stderr %q", url, errOut.String())
	}
}
