package web

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"electsim/session"
)

// The tests of moving through a run from the back of a class: the time slider, the presenter's
// keys, and a layout that stays put while the run plays.

// Dragging the time slider back and forward shows the same pictures as stepping there: each
// instant a drag lands on is the session's picture at that instant, and stepping on from it
// gives the step the run takes next.
func TestBrowserSlider(t *testing.T) {
	ctx := browser(t)
	name := "raft-boot-split-vote"
	openLive(t, ctx, name)
	// Step through the first 40 steps — past the break at 170ms — keeping each picture.
	const steps = 40
	stepped := make([]json.RawMessage, steps+1)
	times := make([]int64, steps+1)
	stepped[0] = pagePicture(t, ctx)
	for i := 1; i <= steps; i++ {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight), chromedp.WaitVisible(fmt.Sprintf(`[data-step="%d"]`, i))); err != nil {
			t.Fatal(err)
		}
		stepped[i] = pagePicture(t, ctx)
		times[i] = readPage(t, ctx).Time
	}
	// The slider set to a step's instant, back and forward, as a drag sets it: the picture of the
	// last step at that instant.
	for _, i := range []int{30, 5, 20, 9, 40, 12} {
		last := i
		for last < steps && times[last+1] == times[i] {
			last++
		}
		setSlider(t, ctx, times[i])
		page := readPage(t, ctx)
		if page.Step != last {
			t.Fatalf("the slider at %dns shows step %d; stepping, the last step at that instant is %d", times[i], page.Step, last)
		}
		if got := pagePicture(t, ctx); string(got) != string(stepped[last]) {
			t.Fatalf("the slider at %dns draws\n%s\nstepping to step %d drew\n%s", times[i], got, last, stepped[last])
		}
		if last < steps {
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight), chromedp.WaitVisible(fmt.Sprintf(`[data-step="%d"]`, last+1))); err != nil {
				t.Fatal(err)
			}
			if got := pagePicture(t, ctx); string(got) != string(stepped[last+1]) {
				t.Fatalf("a step after the slider's step %d draws\n%s\nstepping drew\n%s", last, got, stepped[last+1])
			}
		}
	}
	// A real drag of the thumb, forward then back: each instant it lands on is the session's.
	rect, err := chromedp.Run(ctx, chromedp.Evaluate[[4]float64](`(() => { const r = document.getElementById("slider").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	y := rect[1] + rect[3]/2
	for _, fr := range [][2]float64{{0.05, 0.62}, {0.62, 0.3}} {
		x0, x1 := rect[0]+rect[2]*fr[0], rect[0]+rect[2]*fr[1]
		// The thumb under the pointer first: a drag starts from it.
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const s = document.getElementById("slider");
			s.value = String(+s.max * %g); s.dispatchEvent(new Event("input")); })()`, fr[0]))); err != nil {
			t.Fatal(err)
		}
		waitSettled(t, ctx)
		if err := chromedp.Do(ctx, chromedp.DragAndDropXY(x0, y, x1, y, 8)); err != nil {
			t.Fatalf("dragging the slider: %v", err)
		}
		waitSettled(t, ctx)
		at := time.Duration(readPage(t, ctx).Time)
		got := pagePicture(t, ctx)
		var p session.Picture
		if err := json.Unmarshal(got, &p); err != nil {
			t.Fatal(err)
		}
		if msg := sameLivePicture(got, pictureOf(sessionAt(t, name, p.At))); msg != "" {
			t.Fatalf("dragged from %.0f%% to %.0f%% (step time %s, instant %s): %s", fr[0]*100, fr[1]*100, at, p.At, msg)
		}
		if want := time.Duration(float64(600*time.Millisecond) * fr[1]); p.At < want-30*time.Millisecond || p.At > want+30*time.Millisecond {
			t.Errorf("dragged to %.0f%% of 600ms, the instant drawn is %s", fr[1]*100, p.At)
		}
	}
}

// setSlider moves the slider to the instant at (nanoseconds) as a drag does — its value, then
// its input event — and waits for the page to settle there.
func setSlider(t *testing.T, ctx context.Context, at int64) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const s = document.getElementById("slider");
		s.value = String(%d / 1e6); s.dispatchEvent(new Event("input")); s.dispatchEvent(new Event("change")); })()`, at)))
	if err != nil {
		t.Fatal(err)
	}
	waitSettled(t, ctx)
}

// waitSettled waits until the page has no request waiting or in flight and no seek under way.
func waitSettled(t *testing.T, ctx context.Context) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.body.dataset.busy !== "true"`, chromedp.WithPollingInterval(20*time.Millisecond)))
	if err != nil {
		t.Fatalf("waiting for the page to settle: %v", err)
	}
}

// The presenter's keys: b plays on to the next break, PageDown and PageUp (a clicker) step and
// step back, n at a break plays on as the TUI's does, f switches full screen with large type.
func TestBrowserPresenterKeys(t *testing.T) {
	ctx := browser(t)
	openLive(t, ctx, "raft-boot-split-vote")
	// The breaks of the scenario, from the session.
	ss := sessionAt(t, "raft-boot-split-vote", 0)
	var breaks []int
	for {
		if _, ok := ss.Next(); !ok {
			break
		}
		if ss.AtBreak() {
			breaks = append(breaks, len(ss.Steps()))
		}
	}
	if len(breaks) < 2 {
		t.Fatalf("the scenario has %d breaks: the test wants two", len(breaks))
	}
	key := func(k string, step int) pageState {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.KeyEvent(k), chromedp.WaitVisible(fmt.Sprintf(`[data-step="%d"]`, step))); err != nil {
			t.Fatalf("key %q to step %d: %v (the page is at step %d)", k, step, err, readPage(t, ctx).Step)
		}
		waitSettled(t, ctx)
		return readPage(t, ctx)
	}
	if p := key("b", breaks[0]); p.Mode != "break" {
		t.Errorf("b stopped at step %d in mode %q, not at the first break", p.Step, p.Mode)
	}
	if p := key("b", breaks[1]); p.Mode != "break" {
		t.Errorf("b again stopped at step %d in mode %q, not at the second break", p.Step, p.Mode)
	}
	key(kb.PageUp, breaks[1]-1)
	key(kb.PageUp, breaks[1]-2)
	key(kb.PageDown, breaks[1]-1)
	if p := key(kb.PageDown, breaks[1]); p.Mode != "break" {
		t.Errorf("PageDown back to the break: mode %q", p.Mode)
	}
	// n at a break plays on, every step shown, until space stops it.
	if err := chromedp.Do(ctx, chromedp.KeyEvent("n"), chromedp.WaitVisible(`#mode:not(:empty)`)); err != nil {
		t.Fatal(err)
	}
	if p := readPage(t, ctx); p.Mode != "playing" {
		t.Errorf("n at a break: mode %q, not playing", p.Mode)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(" ")); err != nil {
		t.Fatal(err)
	}
	// f: large type and the log put away; f again: back.
	type look struct {
		Present  bool
		FontSize string
		LogShown bool
	}
	read := func() look {
		l, err := chromedp.Run(ctx, chromedp.Evaluate[look](`({Present: document.body.classList.contains("present"),
			FontSize: getComputedStyle(document.documentElement).fontSize, LogShown: document.getElementById("log-box").offsetParent !== null})`))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	before := read()
	if err := chromedp.Do(ctx, chromedp.KeyEvent("f")); err != nil {
		t.Fatal(err)
	}
	on := read()
	if !on.Present || on.LogShown || on.FontSize == before.FontSize {
		t.Errorf("f: presenting %v, type %s (was %s), log shown %v", on.Present, on.FontSize, before.FontSize, on.LogShown)
	}
	// Leaving full screen gives the window its size back in a moment, not at once.
	if err := chromedp.Do(ctx, chromedp.KeyEvent("f"), chromedp.Poll[chromedp.Void](
		`!document.fullscreenElement && innerWidth === 1280`, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatal(err)
	}
	if off := read(); off != before {
		t.Errorf("f again: %+v, want %+v", off, before)
	}
}

// Nothing moves when play starts, plays, stops at a break or pauses: the canvas, the slider, the
// buttons and the header keep their places and sizes on the page. (Beside them the narration
// changes as it speaks, in a box with room for a few lines.)
func TestBrowserLayoutSteady(t *testing.T) {
	ctx := browser(t)
	openLive(t, ctx, "raft-boot-split-vote")
	boxes := func() map[string][4]float64 {
		b, err := chromedp.Run(ctx, chromedp.Evaluate[map[string][4]float64](`Object.fromEntries(
			["canvas", "slider", "restart", "back", "play", "next", "next-break", "faster", "save", "alarm", "step", "time", "mode", "chooser"]
			.map(id => { const r = document.getElementById(id).getBoundingClientRect(); return [id, [r.left + scrollX, r.top + scrollY, r.width, r.height]]; }))`))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	still := boxes()
	same := func(when string) {
		t.Helper()
		now := boxes()
		for id, r := range still {
			if now[id] != r {
				t.Errorf("%s: #%s is at %v, was at %v", when, id, now[id], r)
			}
		}
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`for (let i = 0; i < 6; i++) document.getElementById("faster").click()`)); err != nil {
		t.Fatal(err)
	}
	still = boxes() // the speed's own width is fixed; the rest measured from here
	if err := chromedp.Do(ctx, chromedp.KeyEvent(" "), chromedp.Sleep(300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	same("playing")
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`#break-note:not([hidden])`)); err != nil {
		t.Fatal(err)
	}
	same("at a break")
	if err := chromedp.Do(ctx, chromedp.KeyEvent("n"), chromedp.Sleep(200*time.Millisecond), chromedp.KeyEvent(" ")); err != nil {
		t.Fatal(err)
	}
	waitSettled(t, ctx)
	same("paused again")
}
