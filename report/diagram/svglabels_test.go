package diagram_test

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"electsim/algo"
	"electsim/network"
	"electsim/report/diagram"
	"electsim/scenarios"
	"electsim/sim"
)

// svgText is a label of the diagram, with the room it takes (approximately: characters of
// 0.6 em in the labels' monospace and 0.56 em in sans-serif, a line of 0.95 em, turned as it
// is drawn).
type svgText struct {
	text    string
	corners [4][2]float64 // in order round it
	x, y    float64
}

// svgLabels returns the labels an SVG draws among its lifelines: message labels, state and
// timer labels, lost-message notes and partition labels (class lbl or halo) — not the crosses
// that mark where a message was lost, nor the axis, the headers, the legend or the narration.
func svgLabels(t *testing.T, svg string) []svgText {
	t.Helper()
	var labels []svgText
	re := regexp.MustCompile(`<text ([^>]*)>(?:<title>[^<]*</title>)?([^<]*)</text>`)
	attr := func(attrs, name string) string {
		m := regexp.MustCompile(` ?` + name + `="([^"]*)"`).FindStringSubmatch(" " + attrs)
		if m == nil {
			return ""
		}
		return m[1]
	}
	for _, m := range re.FindAllStringSubmatch(svg, -1) {
		attrs, text := m[1], m[2]
		class := attr(attrs, "class")
		if !strings.Contains(class, "lbl") && !strings.Contains(class, "halo") || text == "✗" {
			continue
		}
		var s string
		if err := xml.Unmarshal([]byte("<s>"+text+"</s>"), &s); err != nil {
			t.Fatal(err)
		}
		fs := 11.0
		if v := attr(attrs, "font-size"); v != "" {
			fs, _ = strconv.ParseFloat(v, 64)
		}
		x, _ := strconv.ParseFloat(attr(attrs, "x"), 64)
		y, _ := strconv.ParseFloat(attr(attrs, "y"), 64)
		char := 0.56
		if strings.Contains(class, "lbl") {
			char = 0.6
		}
		w := float64(utf8.RuneCountInString(s)) * char * fs
		var left float64
		switch attr(attrs, "text-anchor") {
		case "end":
			left = -w
		case "middle":
			left = -w / 2
		}
		corners := [4][2]float64{{x + left, y - 0.75*fs}, {x + left + w, y - 0.75*fs}, {x + left + w, y + 0.2*fs}, {x + left, y + 0.2*fs}}
		if tr := attr(attrs, "transform"); tr != "" {
			var rot, cx, cy float64
			fmt.Sscanf(tr, "rotate(%g %g %g)", &rot, &cx, &cy)
			a := rot * math.Pi / 180
			for i, c := range corners {
				dx, dy := c[0]-cx, c[1]-cy
				corners[i] = [2]float64{cx + dx*math.Cos(a) - dy*math.Sin(a), cy + dx*math.Sin(a) + dy*math.Cos(a)}
			}
		}
		l := svgText{text: s, corners: corners, x: x, y: y}
		labels = append(labels, l)
	}
	return labels
}

// overlaps lists the pairs of labels that overlap by more than two pixels: that no side of
// either separates.
func overlaps(labels []svgText) []string {
	project := func(c [4][2]float64, ax, ay float64) (float64, float64) {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range c {
			v := p[0]*ax + p[1]*ay
			lo, hi = min(lo, v), max(hi, v)
		}
		return lo, hi
	}
	overlap := func(a, b [4][2]float64) bool {
		for _, q := range [][4][2]float64{a, b} {
			for i := range 2 {
				ax, ay := q[i+1][1]-q[i][1], q[i][0]-q[i+1][0]
				n := math.Hypot(ax, ay)
				alo, ahi := project(a, ax/n, ay/n)
				blo, bhi := project(b, ax/n, ay/n)
				if min(ahi, bhi)-max(alo, blo) <= 2 {
					return false
				}
			}
		}
		return true
	}
	var found []string
	for i, a := range labels {
		for _, b := range labels[i+1:] {
			if overlap(a.corners, b.corners) {
				found = append(found, fmt.Sprintf("%q at %.0f,%.0f and %q at %.0f,%.0f", a.text, a.x, a.y, b.text, b.x, b.y))
			}
		}
	}
	return found
}

// No label of the space-time diagram covers another: message labels move along their arrows
// out of the way of state and timer labels, of the notes of messages lost at their send and of
// each other. bully-partition around its heal, heartbeats and all, was where they collided;
// every bundled scenario is checked too, with its heartbeats and without — but for the labels
// of messages still in flight at the end, which with heartbeats shown can crowd the bottom.
func TestSVGLabelsDoNotOverlap(t *testing.T) {
	type window struct {
		name     string
		from, to time.Duration
		all      bool
	}
	cases := []window{{"bully-partition", 950 * time.Millisecond, 1100 * time.Millisecond, true}}
	for _, name := range scenarios.Bundled() {
		cases = append(cases, window{name, 0, 0, false}, window{name, 0, 0, true})
	}
	for _, c := range cases {
		recs, o := play(t, c.name)
		o.From, o.To = c.from, c.to
		if c.all {
			sc, _ := scenarios.LoadBundled(c.name)
			o.Kinds = sc.Config().Algorithm.Kinds
		}
		labels := svgLabels(t, render(t, diagram.SVG, recs, o))
		if len(labels) < 5 {
			t.Fatalf("%s: found %d labels", c.name, len(labels))
		}
		if c.all && c.from == 0 {
			labels = slices.DeleteFunc(labels, func(l svgText) bool { return strings.HasSuffix(l.text, "(in flight)") })
		}
		if found := overlaps(labels); len(found) > 0 {
			t.Errorf("%s %v–%v, all kinds %v: %d labels overlap:\n%s", c.name, c.from, c.to, c.all, len(found), strings.Join(found, "\n"))
		}
	}
}

// A partition's band shows its sides: each group of nodes shaded its own way behind its
// columns — which need not stand side by side — with a dashed wall wherever two sides meet,
// and the nodes no group names as one more side.
func TestSVGPartitionSides(t *testing.T) {
	ids := []algo.ID{1, 2, 3, 4, 5}
	for _, c := range []struct {
		groups [][]algo.ID
		fills  []string // of the runs of columns, left to right
	}{
		{[][]algo.ID{{1, 2, 3}, {4, 5}}, []string{"#fde2e2", "#dbeafe"}},
		{[][]algo.ID{{1, 3}}, []string{"#fde2e2", "#dbeafe", "#fde2e2", "#dbeafe"}},
		{[][]algo.ID{{5}, {1}, {2, 3}}, []string{"#dbeafe", "#dcfce7", "#fef3c7", "#fde2e2"}},
	} {
		part := &sim.Action{Op: sim.Partition, Groups: c.groups}
		recs := []sim.Record{{Step: 1, At: 10 * time.Millisecond, Type: sim.RecFault, Action: part},
			{Step: 2, At: 50 * time.Millisecond, Type: sim.RecFault, Action: &sim.Action{Op: sim.Heal}}}
		svg := render(t, diagram.SVG, recs, diagram.Options{IDs: ids})
		bands := regexp.MustCompile(`<rect x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)" height="[0-9.]+" fill="(#[0-9a-f]+)" fill-opacity="0.75"><title>`+regexp.QuoteMeta(part.String())).FindAllStringSubmatch(svg, -1)
		var fills []string
		width := 0.0
		for _, b := range bands {
			fills = append(fills, b[3])
			w, _ := strconv.ParseFloat(b[2], 64)
			width += w
		}
		if !slices.Equal(fills, c.fills) || width != 5*120 {
			t.Errorf("%s: bands %v, %gpx wide; want %v, 600px", part, fills, width, c.fills)
		}
		walls := strings.Count(svg, `stroke="#c2410c" stroke-width="1.5" stroke-dasharray="6 4"`)
		if walls != len(c.fills)-1 {
			t.Errorf("%s: %d walls, want %d", part, walls, len(c.fills)-1)
		}
	}
}

// BenchmarkSVG draws the space-time diagram of five minutes of a five-node Bully run with its
// heartbeats — some 55,000 records, a quarter of what the command line lets a diagram draw.
func BenchmarkSVG(b *testing.B) {
	a, _ := algo.Lookup("bully")
	ids := []algo.ID{1, 2, 3, 4, 5}
	s, err := sim.New(sim.Config{Algorithm: a, IDs: ids, Seed: 1, RunFor: 300 * time.Second, Trace: true, Engine: sim.Inline, Network: network.DefaultConfig()})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var recs []sim.Record
	for {
		r, ok := s.Step()
		if !ok {
			break
		}
		recs = append(recs, r.Records...)
	}
	o := diagram.Options{IDs: ids, Algorithm: a, Kinds: a.Kinds}
	for b.Loop() {
		if err := diagram.SVG(io.Discard, recs, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(recs)), "records")
}
