package web

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"electsim/algo"
	"electsim/scenarios"
	"electsim/session"
	"electsim/sim"
)

// The tests of the picture a class reads from the back row: the legend, the vote marks, the
// timers' names, the split-brain banner, not-started, the ring scenarios on their ring, and ids
// above 2^53. slider_browser_test.go moves through a run: the slider, the presenter's keys.

// sessionAt is a session of the bundled scenario name played on to instant at, past any break,
// as the page's slider and seekAPI play it.
func sessionAt(t *testing.T, name string, at time.Duration) *session.Session {
	t.Helper()
	cfg, sc := bundled(t, name)
	cfg.Engine = sim.Inline
	ss, err := session.New(cfg, sc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ss.Close)
	for range 10000 {
		ss.PlayTo(at)
		if ss.Instant() >= at || ss.Done() {
			break
		}
	}
	return ss
}

// pictureOf is the session's picture now.
func pictureOf(ss *session.Session) *session.Picture {
	var p session.Picture
	ss.Picture(&p, 0)
	return &p
}

// openAt opens the page of the bundled scenario name played on to instant at.
func openAt(t *testing.T, ctx context.Context, name string, at time.Duration) {
	t.Helper()
	openLive(t, ctx, name)
	if at > 0 {
		seekAPI(t, ctx, at)
	}
}

// pagePicture is the picture the page drew.
func pagePicture(t *testing.T, ctx context.Context) json.RawMessage {
	t.Helper()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](`window.electsimPicture`))
	if err != nil {
		t.Fatalf("reading the page's picture: %v", err)
	}
	return raw
}

// The legend lists, word for word and mark for mark, the session's Legend — the table the canvas
// draws from: a node's label starts with its status's mark, a packet's mark with its kind's
// letter. An entry that shows only at times (not started) is hidden when nothing shows it.
func TestBrowserLegend(t *testing.T) {
	ctx := browser(t)
	cfg := openLive(t, ctx, "raft-boot-split-vote")
	legend := session.Legend(cfg.Algorithm)
	type entry struct{ Class, Text, When string }
	read := func() []entry {
		es, err := chromedp.Run(ctx, chromedp.Evaluate[[]entry](`[...document.querySelectorAll("#legend .entry")].map(e => ({
			Class: e.dataset.legend, Text: e.textContent.trim(), When: e.classList.contains("off") ? "off" : "on"}))`))
		if err != nil {
			t.Fatal(err)
		}
		return es
	}
	got := read()
	var want []entry
	for _, always := range []bool{true, false} {
		for _, m := range legend {
			if (m.When == "") != always {
				continue
			}
			text := m.Mark + " " + m.Means
			if m.Class == "timer" {
				text = m.Means // drawn as an arc, not a character
			}
			want = append(want, entry{m.Class, text, ""})
		}
	}
	if len(got) != len(want) {
		t.Fatalf("the page's legend has %d entries, the session's %d:\n%v\n%v", len(got), len(want), got, want)
	}
	for i := range want {
		if got[i].Class != want[i].Class || got[i].Text != want[i].Text {
			t.Errorf("legend entry %d: the page says %q (%s), the session's table %q (%s)", i, got[i].Text, got[i].Class, want[i].Text, want[i].Class)
		}
	}
	shown := func(class string) string {
		for _, e := range read() {
			if e.Class == class {
				return e.When
			}
		}
		return "absent"
	}
	if s := shown(session.NotStarted); s != "on" {
		t.Errorf("before the nodes boot the legend's not-started entry is %s", s)
	}
	if s := shown("carries"); s != "off" {
		t.Errorf("no Raft message carries an id, yet the legend's entry for one is %s", s)
	}

	seekAPI(t, ctx, 189*time.Millisecond)
	if s := shown(session.NotStarted); s != "off" {
		t.Errorf("once every node booted the legend's not-started entry is %s", s)
	}
	letters, glyphs := map[string]string{}, map[string]string{}
	for _, m := range legend {
		if m.Class == "kind" {
			letters[m.Kind] = m.Mark
		} else {
			glyphs[m.Class] = m.Mark
		}
	}
	type drawn struct{ Kind, Mark, Text string }
	packets, err := chromedp.Run(ctx, chromedp.Evaluate[[]drawn](`[...document.querySelectorAll("#canvas .packet")].map(g => ({
		Kind: g.dataset.kind, Mark: g.dataset.mark, Text: (g.querySelector(":scope > text") || {}).textContent || ""}))`))
	if err != nil || len(packets) == 0 {
		t.Fatalf("no packets drawn at 189ms: %v", err)
	}
	for _, p := range packets {
		if !strings.HasPrefix(p.Mark, letters[p.Kind]) || p.Text != p.Mark && !cfg.Algorithm.IsRoutine(p.Kind) {
			t.Errorf("a %s drawn %q (mark %q); the legend's letter for it is %q", p.Kind, p.Text, p.Mark, letters[p.Kind])
		}
	}
	labels, err := chromedp.Run(ctx, chromedp.Evaluate[[][2]string](`[...document.querySelectorAll("#canvas text.label")].map(l => [l.classList[1], l.textContent])`))
	if err != nil || len(labels) != len(cfg.IDs) {
		t.Fatalf("%d labels (%v)", len(labels), err)
	}
	for _, l := range labels {
		if !strings.HasPrefix(l[1], glyphs[l[0]]+" ") {
			t.Errorf("a %s node's label %q does not start with the legend's mark %q", l[0], l[1], glyphs[l[0]])
		}
	}
}

// At 189ms of the split vote, granted and refused VOTEs are on their way at once: each is drawn
// with its mark — V✓ or V✗ — in its text, not in a hover, and ringed as a yes or a no; the marks
// are the session's.
func TestBrowserVoteMarks(t *testing.T) {
	ctx := browser(t)
	at := 189 * time.Millisecond
	openAt(t, ctx, "raft-boot-split-vote", at)
	want := map[string]string{}
	yes, no := 0, 0
	for _, pk := range pictureOf(sessionAt(t, "raft-boot-split-vote", at)).Packets {
		if pk.Kind != algo.KindVote {
			continue
		}
		mark := "V✗"
		if pk.Flag {
			mark, yes = "V✓", yes+1
		} else {
			no++
		}
		want[fmt.Sprintf("%d→%d", pk.From, pk.To)] = mark
	}
	if yes == 0 || no == 0 {
		t.Fatalf("at %s the session has %d granted and %d refused VOTEs in flight: the test wants both", at, yes, no)
	}
	type drawn struct{ From, To, Text, Class string }
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]drawn](`[...document.querySelectorAll('#canvas .packet[data-kind="VOTE"]')].map(g => ({
		From: g.dataset.from, To: g.dataset.to, Text: g.querySelector(":scope > text").textContent,
		Class: g.classList.contains("yes") ? "yes" : g.classList.contains("no") ? "no" : ""}))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("the page draws %d VOTEs, the session has %d in flight", len(got), len(want))
	}
	for _, d := range got {
		line := d.From + "→" + d.To
		wantClass := map[string]string{"V✓": "yes", "V✗": "no"}[want[line]]
		if d.Text != want[line] || d.Class != wantClass {
			t.Errorf("the VOTE %s reads %q (%s); the session's is %q", line, d.Text, d.Class, want[line])
		}
	}
}

// Every node's nearest timer is drawn as an arc named for it, and written under the node with
// its name and time left, as the session's picture has them.
func TestBrowserTimerNames(t *testing.T) {
	ctx := browser(t)
	at := 189 * time.Millisecond
	openAt(t, ctx, "raft-boot-split-vote", at)
	pic := pictureOf(sessionAt(t, "raft-boot-split-vote", at))
	type drawn struct{ Arc, Label string }
	got, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]drawn](`Object.fromEntries([...document.querySelectorAll("#canvas [data-node]")].map(g => [g.dataset.node, {
		Arc: (g.querySelector("path.timer") || {dataset: {}}).dataset.timer || "",
		Label: (document.querySelector('[data-timer-label="' + g.dataset.node + '"]') || {}).textContent || ""}]))`))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range pic.Nodes {
		if len(n.Timers) == 0 {
			t.Fatalf("node %d has no timer at %s: the test wants every node's", n.ID, at)
		}
		tm := n.Timers[0]
		d := got[fmt.Sprint(n.ID)]
		if d.Arc != tm.Name {
			t.Errorf("node %d's arc is named %q; its nearest timer is %q", n.ID, d.Arc, tm.Name)
		}
		if want := tm.Name + " " + fmtDurJS(tm.Left); d.Label != want {
			t.Errorf("node %d's timer reads %q, want %q", n.ID, d.Label, want)
		}
	}
}

// fmtDurJS writes a duration as the page's fmtDur does, for the times left the test reads.
func fmtDurJS(d time.Duration) string {
	ms := float64(d) / 1e6
	switch {
	case ms == 0:
		return "0ms"
	case ms < 1:
		return fmt.Sprintf("%.0fµs", float64(d)/1e3)
	case ms < 10:
		return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", ms), "0"), ".") + "ms"
	case ms < 1000:
		return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.1f", ms), "0"), ".") + "ms"
	}
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", ms/1000), "0"), ".") + "s"
}

// While a partition gives Bully two leaders the banner over the canvas names them in the TUI's
// words; before the split and after the heal it is empty — and its line keeps its place.
func TestBrowserSplitBrainBanner(t *testing.T) {
	ctx := browser(t)
	openLive(t, ctx, "bully-partition")
	banner := func() (string, string) {
		t.Helper()
		b, err := chromedp.Run(ctx, chromedp.Evaluate[[2]string](`[document.getElementById("alarm").textContent, document.getElementById("alarm").dataset.leaders]`))
		if err != nil {
			t.Fatal(err)
		}
		return b[0], b[1]
	}
	for _, c := range []struct {
		at   time.Duration
		text string
	}{
		{400 * time.Millisecond, ""},
		{700 * time.Millisecond, "⚠ SPLIT BRAIN — 3 and 5 both believe they lead"},
		{1100 * time.Millisecond, ""},
	} {
		seekAPI(t, ctx, c.at)
		text, leaders := banner()
		ss := sessionAt(t, "bully-partition", c.at)
		var want []string
		if l := ss.Leaders(); len(l) >= 2 {
			for _, id := range l {
				want = append(want, fmt.Sprint(id))
			}
		}
		if text != c.text || leaders != strings.Join(want, " ") {
			t.Errorf("at %s the banner reads %q (leaders %q); want %q, the session's leaders %v", c.at, text, leaders, c.text, want)
		}
	}
}

// Before the boot steps every node is not started — data-status="not-started", its label says so
// — and each becomes a follower at its own boot step.
func TestBrowserNotStarted(t *testing.T) {
	ctx := browser(t)
	openLive(t, ctx, "raft-boot-split-vote")
	readLabels := func() map[string]string {
		l, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](`Object.fromEntries([...document.querySelectorAll("#canvas [data-node]")].map((g, i) =>
			[g.dataset.node, document.querySelectorAll("#canvas text.label")[i].textContent]))`))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	page, labels := readPage(t, ctx), readLabels()
	for id, st := range page.Statuses {
		if st != session.NotStarted || labels[id] != "○ not started" {
			t.Errorf("at step 0 node %s is %q, labelled %q", id, st, labels[id])
		}
	}
	// Steps 1 and 2 are narration, 3 boots node 1.
	if err := chromedp.Do(ctx, chromedp.KeyEvent("l"), chromedp.KeyEvent("l"), chromedp.KeyEvent("l"), chromedp.WaitVisible(`[data-step="3"]`)); err != nil {
		t.Fatal(err)
	}
	page = readPage(t, ctx)
	want := map[string]string{"1": "follower", "2": session.NotStarted, "3": session.NotStarted, "4": session.NotStarted}
	sameStatuses(t, "after node 1's boot", page.Statuses, want)
}

// The bundled ring scenarios run on their ring: every edge drawn with the ring's direction, and
// the ring's messages carry the ids they compare.
func TestBrowserRingScenariosOnTheirRing(t *testing.T) {
	ctx := browser(t)
	for _, name := range []string{"ring-best-case", "ring-worst-case"} {
		cfg := openLive(t, ctx, name)
		if cfg.Topology != algo.UniRing {
			t.Fatalf("%s runs on %q, not on its ring", name, cfg.Topology)
		}
		seekAPI(t, ctx, 25*time.Millisecond)
		d := readDrawn(t, ctx)
		if len(d.Edges) != len(cfg.IDs) || d.Others != 0 || !strings.HasPrefix(d.Caption, "ring ↻") {
			t.Fatalf("%s: %d edges, %d other lines, caption %q", name, len(d.Edges), d.Others, d.Caption)
		}
		for _, e := range d.Edges {
			if e[1] == "" {
				t.Errorf("%s: edge %s has no arrow", name, e[0])
			}
		}
		marks, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#canvas .packet[data-kind="ELECTION"]')].map(g => g.dataset.mark)`))
		if err != nil || len(marks) == 0 {
			t.Fatalf("%s: no ELECTION drawn at 25ms (%v)", name, err)
		}
		var want []string
		for _, pk := range pictureOf(sessionAt(t, name, 25*time.Millisecond)).Packets {
			want = append(want, fmt.Sprintf("E%d", pk.Value))
		}
		slices.Sort(marks)
		slices.Sort(want)
		if !slices.Equal(marks, want) {
			t.Errorf("%s: the ELECTIONs read %v; they carry %v", name, marks, want)
		}
	}
}

// Ids above 2^53 reach the page as strings: each node is drawn with its own id, and clicking the
// leader and crashing it crashes that node, as `crash ID` does in the session.
func TestBrowserIDsAbove2To53(t *testing.T) {
	ctx := browser(t)
	info, err := algo.Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig(info, 3)
	cfg.IDs = []algo.ID{9007199254740993, 9007199254740992, 1}
	url := serveRun(t, cfg, nil)
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(`body[data-ready="true"]`)); err != nil {
		t.Fatal(err)
	}
	seekAPI(t, ctx, 300*time.Millisecond)
	ss, err := session.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	for ss.Instant() < 300*time.Millisecond && !ss.Done() {
		ss.PlayTo(300 * time.Millisecond)
	}
	page := readPage(t, ctx)
	sameStatuses(t, "at 300ms", page.Statuses, statuses(ss))
	if page.Statuses["9007199254740993"] != "leader" {
		t.Fatalf("the highest id, 9007199254740993, does not lead: %v", page.Statuses)
	}
	err = chromedp.Do(ctx,
		chromedp.Click(`[data-node="9007199254740993"] circle`),
		chromedp.WaitVisible(`#node-box:not([hidden])`),
		chromedp.Click(`#node-actions [data-act="crash"]`),
		chromedp.WaitVisible(`[data-node="9007199254740993"][data-status="crashed"]`),
	)
	if err != nil {
		t.Fatalf("crashing the leader by clicking it: %v", err)
	}
	title, _ := chromedp.Run(ctx, chromedp.Text("#node-title"))
	if title != "node 9007199254740993" {
		t.Errorf("the node box says %q", title)
	}
	a, err := scenarios.ParseAction("crash 9007199254740993", ss.Members())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ss.Act(a, false); err != nil {
		t.Fatal(err)
	}
	sameStatuses(t, "after crashing 9007199254740993", readPage(t, ctx).Statuses, statuses(ss))
}

// sameLivePicture compares the picture the live page drew — the server's, as JSON — with the
// session's, field for field; "" when the same.
func sameLivePicture(page json.RawMessage, want *session.Picture) string {
	var got session.Picture
	if err := json.Unmarshal(page, &got); err != nil {
		return fmt.Sprintf("the page's picture does not decode: %v", err)
	}
	g, _ := json.Marshal(&got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		return fmt.Sprintf("the page draws\n%s\nthe session's picture is\n%s", g, w)
	}
	return ""
}
