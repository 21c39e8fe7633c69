package web

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"electsim/algo"
	"electsim/sim"
)

// longRun is a Raft run of 5 nodes for 60s of virtual time: over 10,000 steps, most of them
// heartbeats.
func longRun(tb testing.TB) sim.Config {
	tb.Helper()
	info, err := algo.Lookup("raft")
	if err != nil {
		tb.Fatal(err)
	}
	cfg, _ := bundled(tb, "raft-leader-crash")
	cfg.Algorithm, cfg.Actions, cfg.RunFor = info, nil, 60*time.Second
	return cfg
}

// TestReplaySize checks that a 10,000-step run's replay stays within 3 MB.
func TestReplaySize(t *testing.T) {
	if testing.Short() {
		t.Skip("a 10,000-step run: not with -short")
	}
	data, err := replayOf(longRun(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(data.Log) < 10_000 {
		t.Fatalf("the run has %d steps, not the 10,000 it is meant to", len(data.Log))
	}
	var b strings.Builder
	if err := writeReplayPage(&b, data); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 3<<20 {
		t.Fatalf("the replay of %d steps is %d bytes, over 3 MB", len(data.Log), b.Len())
	}
	t.Logf("the replay of %d steps is %d bytes (%d items)", len(data.Log), b.Len(), len(data.Items))
}

// firstPicture reads the page's own measure: milliseconds from navigation to the first picture.
func firstPicture(b *testing.B, ctx context.Context) float64 {
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`+document.body.dataset.firstPicture`))
	if err != nil {
		b.Fatal(err)
	}
	return ms
}

// BenchmarkFirstPicture measures, in headless Chromium, from page load to the first picture
// drawn: the live page (electsim web) on a 10,000-step run, and that run's replay opened at its
// end (#end). It reports the replay's size.
func BenchmarkFirstPicture(b *testing.B) {
	cfg := longRun(b)
	ctx := browser(b)
	b.Run("live", func(b *testing.B) {
		srv := NewServer(Options{Config: cfg})
		defer srv.Close()
		hs := httptest.NewServer(srv.Handler())
		defer hs.Close()
		var ms float64
		for b.Loop() {
			if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(hs.URL+"/"), chromedp.WaitVisible(`body[data-ready="true"] [data-node]`)); err != nil {
				b.Fatal(err)
			}
			ms += firstPicture(b, ctx)
			srv.Close() // each load may open a session: close them, so that the limit is not reached
		}
		b.ReportMetric(ms/float64(b.N), "ms-to-picture")
	})
	b.Run("replay-at-end", func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "long.html")
		var page strings.Builder
		if err := WriteReplay(&page, cfg, nil); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(page.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(page.Len()), "replay-bytes")
		var ms float64
		for b.Loop() {
			if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate("file://"+path+"#end"),
				chromedp.WaitVisible(`body[data-ready="true"] [data-node]`)); err != nil {
				b.Fatal(err)
			}
			ms += firstPicture(b, ctx)
		}
		b.ReportMetric(ms/float64(b.N), "ms-to-picture")
	})
}
