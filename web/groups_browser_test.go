package web

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// groupsPage is what the page shows of an algorithm of groups: its groups box and its verdicts.
type groupsPage struct {
	Shown    bool
	Groups   string
	Verdicts string
	Alarm    bool // a split-brain alarm in what the page says of the run itself: not the narration or the log
}

// playTo plays the page's session to virtual time to (nanoseconds), on past its breaks, and
// reloads the page.
func playTo(t *testing.T, ctx context.Context, to int64) groupsPage {
	t.Helper()
	js := `(async () => {
		const id = sessionStorage.getItem("electsim-session");
		for (let i = 0; i < 20; i++) {
			const v = await (await fetch("/api/sessions/" + id + "/play", {method: "POST", body: JSON.stringify({to: ` + strconv.FormatInt(to, 10) + `})})).json();
			if (v.time >= ` + strconv.FormatInt(to, 10) + ` || v.done) break;
		}
	})()`
	err := chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](js, chromedp.EvalAwaitPromise),
		chromedp.Reload(), chromedp.WaitVisible(`body[data-ready="true"]`))
	if err != nil {
		t.Fatalf("playing to %d: %v", to, err)
	}
	p, err := chromedp.Run(ctx, chromedp.Evaluate[groupsPage](`(() => {
		const judged = [...document.querySelectorAll("#title, #mode, #canvas, #message, #node-box, #groups-box, #verdict-box")];
		return {
			Shown: !document.getElementById("groups-box").hidden,
			Groups: document.getElementById("groups").textContent,
			Verdicts: document.getElementById("verdicts").textContent,
			Alarm: judged.some(s => /split.brain/i.test(s.textContent)),
		};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// An invitation run's page lists its groups beside the verdicts, as the TUI's header does — two
// groups during the partition, each with its coordinator, and at the end the one they merged
// into, with the groups before the heal — and raises no split-brain alarm for them: one
// coordinator per group is the design.
func TestBrowserListsInvitationGroups(t *testing.T) {
	ctx := browser(t)
	cfg := openLive(t, ctx, "invitation-partition")
	p := playTo(t, ctx, 900e6)
	want := "2 groups: {1 2 3} led by 3, {4 5} led by 5"
	if !p.Shown || !strings.Contains(p.Groups, "now, ") || !strings.HasSuffix(p.Groups, ": "+want) || p.Alarm {
		t.Errorf("during the partition: groups shown %v, %q, alarm %v; want %q", p.Shown, p.Groups, p.Alarm, want)
	}
	p = playTo(t, ctx, int64(cfg.RunFor))
	for _, w := range []string{"at 1s, before heal: " + want, "at the end, 1500ms: 1 group: {1 2 3 4 5} led by 5"} {
		if !p.Shown || !strings.Contains(p.Groups, w) {
			t.Errorf("at the end: groups shown %v, %q; want %q", p.Shown, p.Groups, w)
		}
	}
	if p.Alarm || !strings.Contains(p.Verdicts, "(one coordinator per group)") || strings.Contains(p.Verdicts, "✗") {
		t.Errorf("at the end: alarm %v, verdicts %q", p.Alarm, p.Verdicts)
	}
}

// A run of an algorithm without groups shows no groups box.
func TestBrowserNoGroupsWithoutGroups(t *testing.T) {
	ctx := browser(t)
	openRun(t, ctx, topologyRuns[0].config(t), 2)
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!document.getElementById("groups-box").hidden`))
	if err != nil {
		t.Fatal(err)
	}
	if shown {
		t.Error("floodmax's page shows a groups box")
	}
}

// A replay of an invitation run lists the groups as the live page does — at its end, the groups
// before the heal and the one they merged into — and draws every node's line to the coordinator.
func TestBrowserReplayListsInvitationGroups(t *testing.T) {
	ctx := browser(t)
	cfg, sc := bundled(t, "invitation-partition")
	path := replayFile(t, cfg, sc)
	err := chromedp.Do(ctx, chromedp.Navigate("file://"+path+"#end"), chromedp.WaitVisible(`body[data-ready="true"]`))
	if err != nil {
		t.Fatalf("opening the replay: %v", err)
	}
	groups, err := chromedp.Run(ctx, chromedp.Text("#groups"))
	for _, w := range []string{"at 1s, before heal: 2 groups: {1 2 3} led by 3, {4 5} led by 5", "at the end, 1500ms: 1 group: {1 2 3 4 5} led by 5"} {
		if err != nil || !strings.Contains(groups, w) {
			t.Errorf("the replay's groups at the end: %q (%v); want %q", groups, err, w)
		}
	}
	if got, want := strings.Join(groupLinesDrawn(t, ctx), " "), "1-5 2-5 3-5 4-5"; got != want {
		t.Errorf("the replay's group lines at the end: %q, want %q", got, want)
	}
}

// groupLinesDrawn is the canvas's lines from members to their coordinators, "member-coordinator",
// in the order drawn.
func groupLinesDrawn(t *testing.T, ctx context.Context) []string {
	t.Helper()
	lines, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll("#canvas .group-line")].map(l => l.dataset.groupLine)`))
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// An invitation run's canvas draws each member's line to its coordinator, as the TUI's does: during
// the partition within each group and none across it, after the heal every node's to 5.
func TestBrowserDrawsInvitationGroupLines(t *testing.T) {
	ctx := browser(t)
	cfg := openLive(t, ctx, "invitation-partition")
	playTo(t, ctx, 900e6)
	if got, want := strings.Join(groupLinesDrawn(t, ctx), " "), "1-3 2-3 4-5"; got != want {
		t.Errorf("during the partition: group lines %q, want %q", got, want)
	}
	if os.Getenv("ELECTSIM_SCREENSHOT") != "" {
		if png, err := chromedp.Run(ctx, chromedp.Screenshot("#canvas")); err == nil {
			_ = os.WriteFile(os.Getenv("ELECTSIM_SCREENSHOT"), png, 0o644)
		}
	}
	playTo(t, ctx, int64(cfg.RunFor))
	if got, want := strings.Join(groupLinesDrawn(t, ctx), " "), "1-5 2-5 3-5 4-5"; got != want {
		t.Errorf("after the heal: group lines %q, want %q", got, want)
	}
}

// A run of an algorithm without groups draws no group lines, though its nodes follow a leader.
func TestBrowserNoGroupLinesWithoutGroups(t *testing.T) {
	ctx := browser(t)
	cfg := openLive(t, ctx, "bully-partition")
	playTo(t, ctx, int64(cfg.RunFor))
	if got := groupLinesDrawn(t, ctx); len(got) != 0 {
		t.Errorf("bully's canvas draws group lines %q", got)
	}
}
