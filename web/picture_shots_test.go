package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// shotMoments are the moments a teacher projects: a split vote with its VOTEs on their way, the
// ring's worst case with every id travelling, and Bully's split brain across a partition.
var shotMoments = []struct {
	scenario string
	at       time.Duration
}{
	{"raft-boot-split-vote", 0},
	{"raft-boot-split-vote", 189 * time.Millisecond},
	{"ring-worst-case", 25 * time.Millisecond},
	{"hs-phases", 35 * time.Millisecond},
	{"bully-partition", 700 * time.Millisecond},
}

// shotSizes are a projector's screen and a phone's.
var shotSizes = [][2]int64{{1920, 1080}, {390, 844}}

// TestPageShots writes screenshots of the page at the moments above, at a projector's size and
// a phone's, to ELECTSIM_SHOTS=DIR: what a reviewer looks at. Without it the test skips.
func TestPageShots(t *testing.T) {
	dir := os.Getenv("ELECTSIM_SHOTS")
	if dir == "" {
		t.Skip("ELECTSIM_SHOTS=DIR writes screenshots of the page to look at")
	}
	ctx := browser(t)
	for _, m := range shotMoments {
		cfg, sc := bundled(t, m.scenario)
		url := serveRun(t, cfg, sc)
		for _, size := range shotSizes {
			err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]),
				chromedp.Navigate(url+"/"), chromedp.WaitVisible(`body[data-ready="true"]`))
			if err != nil {
				t.Fatal(err)
			}
			if m.at > 0 {
				seekAPI(t, ctx, m.at)
			}
			path := filepath.Join(dir, fmt.Sprintf("%s-%dms-%dx%d.png", m.scenario, m.at.Milliseconds(), size[0], size[1]))
			shoot(t, ctx, path)
			if size[0] == 1920 {
				// The presenter's view of the same moment: f.
				if err := chromedp.Do(ctx, chromedp.KeyEvent("f"), chromedp.WaitVisible(`body.present`)); err != nil {
					t.Fatal(err)
				}
				shoot(t, ctx, strings.TrimSuffix(path, ".png")+"-present.png")
			}
		}
	}
	// The picture docs/web.md shows: the default demo at step 153, 1200×760.
	cfg, sc := bundled(t, "bully-leader-crash")
	url := serveRun(t, cfg, sc)
	err := chromedp.Do(ctx, chromedp.EmulateViewport(1200, 760), chromedp.Navigate(url+"/"), chromedp.WaitVisible(`body[data-ready="true"]`),
		chromedp.Evaluate[chromedp.Void](`(async () => {
			const id = sessionStorage.getItem("electsim-session");
			for (let v = {step: 0}; v.step < 153;) {
				v = await (await fetch("/api/sessions/" + id + "/next", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({n: 153 - v.step})})).json();
			}
		})()`, chromedp.EvalAwaitPromise),
		chromedp.Reload(), chromedp.WaitVisible(`body[data-ready="true"]`))
	if err != nil {
		t.Fatal(err)
	}
	shoot(t, ctx, filepath.Join(dir, "web-demo.png"))
}

// shoot writes a screenshot of the viewport to path.
func shoot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// seekAPI plays the page's session on to instant at through the API, past any break, and
// reloads the page to show it.
func seekAPI(t *testing.T, ctx context.Context, at time.Duration) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(async () => {
		const id = sessionStorage.getItem("electsim-session");
		for (let i = 0; i < 100; i++) {
			const v = await (await fetch("/api/sessions/" + id + "/play", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({to: %d})})).json();
			if (v.picture.at >= %d || v.done) break;
		}
	})()`, int64(at), int64(at)), chromedp.EvalAwaitPromise),
		chromedp.Reload(), chromedp.WaitVisible(`body[data-ready="true"]`))
	if err != nil {
		t.Fatalf("playing to %s: %v", at, err)
	}
}
