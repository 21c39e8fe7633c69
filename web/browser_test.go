package web

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"electsim/scenarios"
	"electsim/session"
	"electsim/sim"
)

// chromium returns the path of a Chromium to drive, or skips the test saying why.
func chromium(tb testing.TB) string {
	tb.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	tb.Skip("no Chromium here (chromium, chromium-browser or google-chrome on PATH): the browser tests need one; .ci/run installs Debian's chromium")
	return ""
}

// browser starts a headless Chromium and returns a context driving one tab.
func browser(tb testing.TB) context.Context {
	tb.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(tb)), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1280, 800))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	tb.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	tb.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 90*time.Second)
	tb.Cleanup(cancel3)
	if err := chromedp.Do(ctx); err != nil {
		tb.Fatalf("starting Chromium: %v", err)
	}
	return ctx
}

// pageState is what the page shows, read from its DOM contract.
type pageState struct {
	Step     int
	Time     int64
	Statuses map[string]string // node id → data-status
	Mode     string
}

type rawPage struct {
	Step, Time string
	Nodes      [][2]string
	Mode       string
}

func readPage(t *testing.T, ctx context.Context) pageState {
	t.Helper()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[rawPage](`({
		Step: document.querySelector("[data-step]").dataset.step,
		Time: document.querySelector("[data-time]").dataset.time,
		Nodes: [...document.querySelectorAll("[data-node]")].map(n => [n.dataset.node, n.dataset.status]),
		Mode: document.getElementById("mode").textContent,
	})`))
	if err != nil {
		t.Fatalf("reading the page: %v", err)
	}
	st := pageState{Statuses: map[string]string{}, Mode: raw.Mode}
	st.Step, _ = strconv.Atoi(raw.Step)
	st.Time, _ = strconv.ParseInt(raw.Time, 10, 64)
	for _, n := range raw.Nodes {
		st.Statuses[n[0]] = n[1]
	}
	return st
}

// statuses is every node's status in the session's picture.
func statuses(ss *session.Session) map[string]string {
	var p session.Picture
	ss.Picture(&p, 0)
	out := map[string]string{}
	for _, n := range p.Nodes {
		out[strconv.Itoa(int(n.ID))] = n.Status
	}
	return out
}

func sameStatuses(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s: the page shows %v, the session %v", what, got, want)
	}
}

// bundled returns a bundled scenario's run and the scenario.
func bundled(t testing.TB, name string) (sim.Config, *scenarios.Scenario) {
	t.Helper()
	sc, err := scenarios.LoadBundled(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc.Config(), sc
}

// serveRun starts a server of the run and its page for the test, closed when it ends, and returns
// its URL.
func serveRun(t testing.TB, cfg sim.Config, sc *scenarios.Scenario) string {
	t.Helper()
	srv := NewServer(Options{Config: cfg, Scenario: sc})
	t.Cleanup(srv.Close)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return hs.URL
}

// openLive opens the page of the bundled scenario name in ctx, served for the test, once it is
// ready; it returns the run.
func openLive(t testing.TB, ctx context.Context, name string) sim.Config {
	t.Helper()
	cfg, sc := bundled(t, name)
	url := serveRun(t, cfg, sc)
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(`body[data-ready="true"]`)); err != nil {
		t.Fatalf("opening %s: %v", name, err)
	}
	return cfg
}

// replayFile writes the replay of a run to a file of the test's and returns its path.
func replayFile(t testing.TB, cfg sim.Config, sc *scenarios.Scenario) string {
	t.Helper()
	var b strings.Builder
	if err := WriteReplay(&b, cfg, sc); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), sc.Name+".html")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrowserPlaysToBreakAndCrashes opens the default demo in Chromium, plays it to its first
// break, compares every node's status with the session's at the same step, then crashes a node
// by clicking it and its button, steps, and compares again.
func TestBrowserPlaysToBreakAndCrashes(t *testing.T) {
	ctx := browser(t)
	cfg, sc := bundled(t, scenarios.DefaultDemo)
	url := serveRun(t, cfg, sc)

	err := chromedp.Do(ctx,
		chromedp.Navigate(url+"/"),
		chromedp.WaitVisible(`body[data-ready="true"]`),
		chromedp.Evaluate[chromedp.Void](`for (let i = 0; i < 8; i++) document.getElementById("faster").click()`),
		chromedp.Click("#play"),
		chromedp.WaitVisible(`#break-note:not([hidden])`),
	)
	if err != nil {
		t.Fatalf("playing to the first break: %v", err)
	}
	page := readPage(t, ctx)
	if page.Mode != "break" {
		t.Fatalf("stopped at step %d in mode %q, not at a break", page.Step, page.Mode)
	}
	ss, err := session.New(cfg, sc)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	for !ss.AtBreak() {
		if _, ok := ss.Next(); !ok {
			t.Fatal("the demo has no break")
		}
	}
	if page.Step != len(ss.Steps()) || page.Time != int64(ss.Now()) {
		t.Fatalf("the page stopped at step %d (%dns), the demo's first break is step %d (%s)", page.Step, page.Time, len(ss.Steps()), ss.Now())
	}
	sameStatuses(t, "at the first break", page.Statuses, statuses(ss))

	// Crash node 2 by clicking it and its button, then step.
	err = chromedp.Do(ctx,
		chromedp.Click(`[data-node="2"] circle`),
		chromedp.WaitVisible(`#node-box:not([hidden])`),
		chromedp.Click(`#node-actions [data-act="crash"]`),
		chromedp.WaitVisible(`[data-node="2"][data-status="crashed"]`),
	)
	if err != nil {
		t.Fatalf("crashing node 2: %v", err)
	}
	a, err := scenarios.ParseAction("crash 2", ss.Members())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ss.Act(a, false); err != nil {
		t.Fatal(err)
	}
	page = readPage(t, ctx)
	if page.Step != len(ss.Steps()) {
		t.Fatalf("after the crash the page shows step %d, the session %d", page.Step, len(ss.Steps()))
	}
	sameStatuses(t, "after crashing node 2", page.Statuses, statuses(ss))
	before := page.Step
	if err := chromedp.Do(ctx, chromedp.Click("#next"), chromedp.WaitVisible(fmt.Sprintf(`[data-step="%d"]`, before+1))); err != nil {
		t.Fatalf("stepping: %v", err)
	}
	ss.Next()
	page = readPage(t, ctx)
	sameStatuses(t, fmt.Sprintf("at step %d, after the crash", page.Step), page.Statuses, statuses(ss))

	// A command typed while playing is taken, not lost behind the playback's requests.
	err = chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`for (let i = 0; i < 8; i++) document.getElementById("slower").click()`),
		chromedp.Click("#play"), chromedp.Sleep(200*time.Millisecond),
		chromedp.SendKeys("#command", "crash 1\n"),
		chromedp.WaitVisible(`[data-node="1"][data-status="crashed"]`),
	)
	if err != nil {
		t.Fatalf("crashing node 1 while playing: %v", err)
	}
	if msg, err := chromedp.Run(ctx, chromedp.Text("#message")); err != nil || !strings.HasPrefix(msg, "crash 1 at ") {
		t.Fatalf("the message after crash 1: %q (%v)", msg, err)
	}
}

// TestBrowserReplayAtEnd writes a replay of a bundled scenario, opens it from file:// at #end,
// and compares what it shows with the run's final state; then #step=N with the session there.
func TestBrowserReplayAtEnd(t *testing.T) {
	ctx := browser(t)
	cfg, sc := bundled(t, "bully-partition")
	path := replayFile(t, cfg, sc)
	ss, err := session.New(cfg, sc)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	for {
		if _, ok := ss.Next(); !ok {
			break
		}
	}
	err = chromedp.Do(ctx, chromedp.Navigate("file://"+path+"#end"), chromedp.WaitVisible(`body[data-ready="true"]`))
	if err != nil {
		t.Fatalf("opening the replay: %v", err)
	}
	page := readPage(t, ctx)
	if page.Step != len(ss.Steps()) {
		t.Fatalf("#end shows step %d; the run has %d", page.Step, len(ss.Steps()))
	}
	sameStatuses(t, "at the end of the replay", page.Statuses, statuses(ss))
	verdicts, err := chromedp.Run(ctx, chromedp.Text("#verdicts"))
	if err != nil || !strings.Contains(verdicts, "at-most-one-leader") {
		t.Fatalf("the replay's verdicts at the end: %q (%v)", verdicts, err)
	}

	// #step=N shows the session at step N.
	n := len(ss.Steps()) / 2
	if err := ss.Back(len(ss.Steps()) - n); err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("file://%s#step=%d", path, n)), chromedp.Reload(),
		chromedp.WaitVisible(`body[data-ready="true"]`))
	if err != nil {
		t.Fatalf("opening the replay at step %d: %v", n, err)
	}
	page = readPage(t, ctx)
	if page.Step != n || page.Time != int64(ss.Now()) {
		t.Fatalf("#step=%d shows step %d at %dns; the session is at %s", n, page.Step, page.Time, ss.Now())
	}
	sameStatuses(t, fmt.Sprintf("at step %d of the replay", n), page.Statuses, statuses(ss))
}

// TestBrowserKeysAndChooser steps with the TUI's keys, and opens another scenario from the
// chooser.
func TestBrowserKeysAndChooser(t *testing.T) {
	ctx := browser(t)
	cfg, sc := bundled(t, "raft-boot-split-vote")
	srv := NewServer(Options{Config: cfg, Scenario: sc})
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	err := chromedp.Do(ctx,
		chromedp.Navigate(hs.URL+"/"),
		chromedp.WaitVisible(`body[data-ready="true"]`),
		chromedp.KeyEvent("l"), chromedp.KeyEvent("l"), chromedp.KeyEvent("."),
		chromedp.WaitVisible(`[data-step="3"]`),
		chromedp.KeyEvent("h"),
		chromedp.WaitVisible(`[data-step="2"]`),
		chromedp.KeyEvent("t"),
		chromedp.WaitVisible(`html[data-theme="dark"]`),
	)
	if err != nil {
		t.Fatalf("l l . h t: %v", err)
	}
	err = chromedp.Do(ctx,
		chromedp.SetValue("#chooser", "bully-partition"), // which fires its change
		chromedp.WaitVisible(`[data-step="0"]`),
		chromedp.WaitVisible(`#chooser:enabled`),
	)
	if err != nil {
		t.Fatalf("choosing bully-partition: %v", err)
	}
	title, err := chromedp.Run(ctx, chromedp.Text("#title"))
	if want, _ := bundled(t, "bully-partition"); err != nil || !strings.HasPrefix(title, "Bully") || want.Algorithm.Name != "bully" {
		t.Fatalf("the title after choosing bully-partition: %q (%v)", title, err)
	}
	srv.mu.Lock()
	open := len(srv.sessions)
	srv.mu.Unlock()
	if open != 1 {
		t.Fatalf("%d sessions open after choosing another scenario: the old one should be closed", open)
	}
}
