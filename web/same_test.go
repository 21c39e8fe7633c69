package web

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/chromedp/chromedp"

	"electsim/session"
)

// TestReplayDrawsTheSessionsPicture opens replays in Chromium and, at every step, compares the
// picture the replay page draws with the session's Picture at that step — what the server sends
// the live page: nodes, timers, held inputs, packets at their fractions, drops, blocked links,
// and a topology's edges and direction.
func TestReplayDrawsTheSessionsPicture(t *testing.T) {
	ctx := browser(t)
	for _, name := range []string{"gc-pause-split-brain", "bully-partition", "raft-boot-split-vote", "peterson-relays", "floodmax-grid"} {
		cfg, sc := bundled(t, name)
		path := replayFile(t, cfg, sc)
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+path), chromedp.WaitVisible(`body[data-ready="true"]`)); err != nil {
			t.Fatal(err)
		}
		ss, err := session.New(cfg, sc)
		if err != nil {
			t.Fatal(err)
		}
		// The page steps through the whole run in one call: each hash change shows a step.
		pics, err := chromedp.Run(ctx, chromedp.Evaluate[[]json.RawMessage](`(async () => {
			const out = [];
			const last = +document.querySelector("[data-step]").dataset.step + 100000;
			for (let step = 0; step <= last; step++) {
				const shown = new Promise((resolve) => addEventListener("hashchange", () => setTimeout(resolve, 0), { once: true }));
				location.hash = "#step=" + step;
				await shown;
				if (window.electsimPicture && out.length > 0 && +document.querySelector("[data-step]").dataset.step < step) break;
				out.push(window.electsimPicture);
			}
			return out;
		})()`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var p session.Picture
		for step := 0; ; step++ {
			if step >= len(pics) {
				t.Fatalf("%s: the replay ends at step %d, the run goes on", name, len(pics)-1)
			}
			ss.Picture(&p, 0)
			if msg := samePicture(pics[step], &p); msg != "" {
				t.Fatalf("%s at step %d: %s", name, step, msg)
			}
			if _, ok := ss.Next(); !ok {
				if step != len(pics)-1 {
					t.Fatalf("%s: the run ends at step %d, the replay at %d", name, step, len(pics)-1)
				}
				break
			}
		}
		ss.Close()
	}
}

// samePicture compares the picture a page drew (JSON) with the session's; "" when the same. The
// packets' Others and Newest, which the page does not draw, are left out.
func samePicture(page json.RawMessage, want *session.Picture) string {
	var got session.Picture
	if err := json.Unmarshal(page, &got); err != nil {
		return fmt.Sprintf("the page's picture does not decode: %v", err)
	}
	w := *want
	w.Packets = append([]session.Packet{}, want.Packets...)
	for i := range w.Packets {
		w.Packets[i].Others, w.Packets[i].Newest = 0, false
	}
	for i := range got.Packets {
		if i < len(w.Packets) && math.Abs(got.Packets[i].Fraction-w.Packets[i].Fraction) < 1e-9 {
			got.Packets[i].Fraction = w.Packets[i].Fraction
		}
	}
	g, _ := json.Marshal(&got)
	e, _ := json.Marshal(&w)
	if string(g) != string(e) {
		return fmt.Sprintf("the page draws\n%s\nthe session's picture is\n%s", g, e)
	}
	return ""
}
