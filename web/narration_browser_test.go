package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A run the flags describe has no narration: once it is under way, the narration box says so
// and points to the event log, rather than stand empty beside the picture.
func TestBrowserNarrationOfARunWithout(t *testing.T) {
	ctx := browser(t)
	openRun(t, ctx, topologyRuns[0].config(t), 2)
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#narration").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "has no narration") || !strings.Contains(text, "event log") {
		t.Errorf("the narration box of a run without a scenario reads %q", text)
	}
}
