package web

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"electsim/algo"
	"electsim/session"
	"electsim/sim"
)

// topologyRun is a run on a topology, as the browser tests open it.
type topologyRun struct {
	name, algo, topology string
	n                    int
}

// topologyRuns are the topologies a teacher shows: each laid out as its shape.
var topologyRuns = []topologyRun{
	{"grid-floodmax", "floodmax", "grid:3x4", 12},
	{"tree-echo", "echo", "tree:2", 15},
	{"random-floodmax", "floodmax", "random:3", 16},
	{"ring-peterson", "peterson", algo.UniRing, 8},
	{"biring-hs", "hs", algo.BiRing, 8},
	{"line-echo", "echo", "line", 10},
	{"star-echo", "echo", "star", 9},
}

func (r topologyRun) config(t *testing.T) sim.Config {
	t.Helper()
	info, err := algo.Lookup(r.algo)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig(info, r.n)
	cfg.Topology = r.topology
	return cfg
}

// drawnPage is what the page drew of a topology: every line with data-edge (and its arrow),
// how many other lines join two nodes, the caption.
type drawnPage struct {
	Edges   [][2]string // data-edge, marker-end
	Others  int         // lines that are neither a topology edge nor a blocked link
	Caption string
	TooBig  bool
}

func readDrawn(t *testing.T, ctx context.Context) drawnPage {
	t.Helper()
	d, err := chromedp.Run(ctx, chromedp.Evaluate[drawnPage](`({
		Edges: [...document.querySelectorAll("#canvas [data-edge]")].map(e => [e.dataset.edge, e.getAttribute("marker-end") || ""]),
		Others: document.querySelectorAll("#canvas line:not([data-edge]):not(.blocked)").length,
		Caption: (document.querySelector("#canvas .caption") || {textContent: ""}).textContent,
		TooBig: !!document.querySelector("#canvas .caption.too-big"),
	})`))
	if err != nil {
		t.Fatalf("reading the drawing: %v", err)
	}
	return d
}

// openRun serves cfg, opens it in the browser and steps n times, so that messages are in flight.
func openRun(t *testing.T, ctx context.Context, cfg sim.Config, steps int) {
	t.Helper()
	srv := NewServer(Options{Config: cfg})
	t.Cleanup(srv.Close)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	actions := []chromedp.Action[chromedp.Void]{chromedp.Navigate(hs.URL + "/"), chromedp.WaitVisible(`body[data-ready="true"]`)}
	for i := 1; i <= steps; i++ {
		actions = append(actions, chromedp.Click("#next"), chromedp.WaitVisible(fmt.Sprintf(`[data-step="%d"]`, i)))
	}
	// Then on a few milliseconds of virtual time, through the API, and reload: the messages are
	// drawn on their way.
	actions = append(actions,
		chromedp.Evaluate[chromedp.Void](`(async () => {
			const id = sessionStorage.getItem("electsim-session");
			const to = +document.querySelector("[data-time]").dataset.time + 4e6;
			await fetch("/api/sessions/" + id + "/play", {method: "POST", body: JSON.stringify({to})});
		})()`, chromedp.EvalAwaitPromise),
		chromedp.Reload(), chromedp.WaitVisible(`body[data-ready="true"]`))
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("opening the run and stepping: %v", err)
	}
}

// TestBrowserDrawsTopology opens runs on each topology and checks the drawing against the
// topology: one data-edge line per edge, each between neighbours, no line between two nodes
// that are not, and an arrowhead on each edge of a one-way ring and on no other.
// ELECTSIM_SHOTS=DIR also writes a screenshot of each, to look at.
func TestBrowserDrawsTopology(t *testing.T) {
	ctx := browser(t)
	shots := os.Getenv("ELECTSIM_SHOTS")
	for _, r := range topologyRuns {
		cfg := r.config(t)
		openRun(t, ctx, cfg, 12)
		ss, err := session.New(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		top := ss.Topology()
		d := readDrawn(t, ctx)
		ss.Close()
		if want := len(top.Edges()); len(d.Edges) != want {
			t.Errorf("%s: %d edges drawn, the topology has %d", r.name, len(d.Edges), want)
		}
		for _, e := range d.Edges {
			var a, b algo.ID
			if _, err := fmt.Sscanf(e[0], "%d-%d", &a, &b); err != nil || !top.HasEdge(a, b) {
				t.Errorf("%s: a line %s between nodes that are not neighbours", r.name, e[0])
			}
			if arrow := e[1] != ""; arrow != top.Directed() {
				t.Errorf("%s: edge %s has marker %q; one-way: %v", r.name, e[0], e[1], top.Directed())
			}
		}
		if d.Others != 0 {
			t.Errorf("%s: %d lines drawn that are not the topology's edges", r.name, d.Others)
		}
		if !strings.HasPrefix(d.Caption, r.topology) || d.TooBig {
			t.Errorf("%s: caption %q (too big: %v)", r.name, d.Caption, d.TooBig)
		}
		if shots != "" {
			screenshot(t, ctx, filepath.Join(shots, r.name+".png"))
		}
	}
}

// Above GraphMax a random graph is in rows: the page says so and draws no edges, only the lines
// messages use — each between neighbours.
func TestBrowserTopologyTooBig(t *testing.T) {
	ctx := browser(t)
	r := topologyRun{"random-big", "floodmax", "random:3", session.GraphMax + 12}
	cfg := r.config(t)
	openRun(t, ctx, cfg, 30)
	d := readDrawn(t, ctx)
	if len(d.Edges) != 0 || !d.TooBig || !strings.Contains(d.Caption, "too many") {
		t.Errorf("%d nodes: %d edges drawn, caption %q", r.n, len(d.Edges), d.Caption)
	}
	if d.Others == 0 {
		t.Errorf("%d nodes after 30 steps: no line drawn for the messages in flight", r.n)
	}
	if shots := os.Getenv("ELECTSIM_SHOTS"); shots != "" {
		screenshot(t, ctx, filepath.Join(shots, r.name+".png"))
	}
}

func screenshot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.Screenshot("#canvas"))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A partition of a grid marks with ╳ the links it cuts, and no pair of nodes across it that is
// not linked.
func TestBrowserTopologyPartition(t *testing.T) {
	ctx := browser(t)
	r := topologyRuns[0] // floodmax on grid:3x4: rows 1-4, 5-8, 9-12
	openRun(t, ctx, r.config(t), 2)
	err := chromedp.Do(ctx,
		chromedp.SendKeys("#command", "partition 1 2 5 6 | 3 4 7 8 9 10 11 12\n"),
		chromedp.WaitVisible(`#canvas .block-mark`),
	)
	if err != nil {
		t.Fatalf("partitioning: %v", err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`[...new Set([...document.querySelectorAll("#canvas [data-blocked]")].map(l => l.dataset.blocked.split("-").map(Number).sort((a, b) => a - b).join("-")))].sort()`))
	if err != nil {
		t.Fatal(err)
	}
	marks, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#canvas .block-mark").length`))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"2-3", "5-9", "6-10", "6-7"}; fmt.Sprint(got) != fmt.Sprint(want) || marks != len(want) {
		t.Errorf("blocked links drawn %v with %d ╳, want the grid's links across the cut %v, one ╳ each", got, marks, want)
	}
}
