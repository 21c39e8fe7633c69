package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Usage is electsim web's help, before its flags.
const Usage = `Usage: electsim web [SCENARIO] [flags]

Serves a scenario — a .scn file or a bundled one — or the run the flags describe, to your
browser: the nodes and messages drawn, play, step, step back, faults at a click, narration,
the event log, save. Prints the URL to open; ctrl+c stops it. docs/web.md tells more.
`

// DefaultAddr is where Serve listens unless told otherwise: the loopback, a free port.
const DefaultAddr = "127.0.0.1:0"

// Serve listens on addr ("host:port"; port 0 picks a free one), prints the page's URL on
// stdout — and on stderr a warning when addr is not a loopback one, as any machine that reaches
// it may then open sessions — and serves until ctx is done or a SIGINT or SIGTERM comes: then
// it stops cleanly and returns nil. ready, if not nil, receives the URL once it listens.
func Serve(ctx context.Context, opts Options, addr string, stdout, stderr io.Writer, ready func(url string)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--addr %s: cannot listen there: %w", addr, err)
	}
	srv := NewServer(opts)
	defer srv.Close()
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10}
	url := "http://" + ln.Addr().String() + "/"
	if !loopback(ln.Addr()) {
		fmt.Fprintf(stderr, "electsim: warning: %s is not a loopback address: any machine that reaches it can open sessions here (at most %d at once)\n",
			ln.Addr(), srv.opts.Limits.Sessions)
		if host, _, _ := net.SplitHostPort(addr); host == "" || net.ParseIP(host).IsUnspecified() {
			url = "http://localhost:" + portOf(ln.Addr()) + "/"
		}
	}
	fmt.Fprintf(stdout, "electsim web: %s plays in your browser at\n  %s\nctrl+c stops it.\n", srv.title(), url)
	if ready != nil {
		ready(url)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = hs.Shutdown(shut)
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(stdout, "electsim web: stopped")
	return nil
}

// title is what a new tab plays, for the greeting.
func (s *Server) title() string {
	if s.opts.Scenario != nil && s.opts.Scenario.Name != "" {
		return s.opts.Scenario.Name
	}
	return fmt.Sprintf("%s on %d nodes", s.opts.Config.Algorithm.Name, len(s.opts.Config.IDs))
}

func loopback(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}

func portOf(a net.Addr) string {
	_, port, _ := net.SplitHostPort(a.String())
	return port
}
