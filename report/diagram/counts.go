package diagram

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"

	"electsim/algo"
	"electsim/sim/bench"
)

// PlotCounts writes a self-contained SVG: messages against nodes on log–log axes, the counts
// measured in results as points and the theory as lines — Bully's n(n−1) messages in all, and
// Chang–Roberts' ELECTIONs: n·H_n on average, between 2n−1 (ids increasing round the ring) and
// n(n+1)/2 (decreasing). The theory is drawn over the whole range of the axes, also where a
// run would be too long to measure. Results of other algorithms, and runs stopped before a
// leader, are left out.
func PlotCounts(w io.Writer, results []bench.Result) error {
	pl := newCountsPlot(results)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="13">`+"\n",
		plotWidth, plotHeight, plotWidth, plotHeight)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", plotWidth, plotHeight)
	fmt.Fprintf(&b, `<text x="%d" y="28" font-size="16" font-weight="bold">Messages per election, measured and in theory</text>`+"\n", plotLeft)
	pl.writeAxes(&b)
	pl.writeTheory(&b)
	pl.writePoints(&b, results)
	writeCountsLegend(&b)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// The plot's size and margins, in pixels.
const (
	plotWidth, plotHeight = 790, 500
	plotLeft, plotRight   = 80, 215
	plotTop, plotBottom   = 50, 60
)

// The colours of Bully's and the ring's points and lines.
const bullyColour, ringColour = "#c2410c", "#1d4ed8"

// countsPlot is the plot's axes: powers of ten of nodes (x) and of messages (y).
type countsPlot struct {
	xMin, xMax, yMin, yMax float64
	w, h                   float64 // the plot area
}

// newCountsPlot spans 10 to 100,000 nodes, wider when a run was smaller or larger, and the
// messages up to Bully's n(n−1) at the right edge.
func newCountsPlot(results []bench.Result) *countsPlot {
	pl := &countsPlot{xMin: 1, xMax: 5, w: plotWidth - plotLeft - plotRight, h: plotHeight - plotTop - plotBottom}
	for _, r := range results {
		if r.Nodes > 0 {
			pl.xMin = min(pl.xMin, math.Floor(math.Log10(float64(r.Nodes))))
			pl.xMax = max(pl.xMax, math.Ceil(math.Log10(float64(r.Nodes))))
		}
	}
	pl.yMin, pl.yMax = pl.xMin, math.Ceil(2*pl.xMax)
	return pl
}

// x and y place a count of nodes and of messages.
func (pl *countsPlot) x(n float64) float64 {
	return plotLeft + (math.Log10(n)-pl.xMin)/(pl.xMax-pl.xMin)*pl.w
}

func (pl *countsPlot) y(m float64) float64 {
	return plotTop + pl.h - (math.Log10(m)-pl.yMin)/(pl.yMax-pl.yMin)*pl.h
}

// writeAxes writes the grid, the axes' labels at each power of ten, and the frame.
func (pl *countsPlot) writeAxes(b *strings.Builder) {
	for e := pl.xMin; e <= pl.xMax; e++ {
		px := pl.x(math.Pow(10, e))
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="#e5e5e5"/>`+"\n", px, plotTop, px, plotTop+pl.h)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", px, plotTop+pl.h+20, powerLabel(e))
	}
	for e := pl.yMin; e <= pl.yMax; e++ {
		py := pl.y(math.Pow(10, e))
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e5e5e5"/>`+"\n", plotLeft, py, plotLeft+pl.w, py)
		fmt.Fprintf(b, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", plotLeft-8, py, powerLabel(e))
	}
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%.0f" height="%.0f" fill="none" stroke="#444"/>`+"\n", plotLeft, plotTop, pl.w, pl.h)
	fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle">nodes</text>`+"\n", plotLeft+pl.w/2, plotHeight-18)
	fmt.Fprintf(b, `<text transform="translate(20 %.1f) rotate(-90)" text-anchor="middle">messages</text>`+"\n", plotTop+pl.h/2)
}

// writeTheory writes the theory's lines, clipped to the plot.
func (pl *countsPlot) writeTheory(b *strings.Builder) {
	fmt.Fprintf(b, `<clipPath id="plot"><rect x="%d" y="%d" width="%.0f" height="%.0f"/></clipPath>`+"\n", plotLeft, plotTop, pl.w, pl.h)
	curve := func(f func(n float64) float64, colour, dash string) {
		var pts []string
		for e := pl.xMin; e <= pl.xMax+1e-9; e += 0.02 {
			n := math.Pow(10, e)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", pl.x(n), pl.y(f(n))))
		}
		fmt.Fprintf(b, `<polyline clip-path="url(#plot)" points="%s" fill="none" stroke="%s" stroke-width="2"%s/>`+"\n",
			strings.Join(pts, " "), colour, dash)
	}
	curve(func(n float64) float64 { return n * (n - 1) }, bullyColour, "")
	curve(func(n float64) float64 { return n * harmonicApprox(n) }, ringColour, "")
	curve(func(n float64) float64 { return n * (n + 1) / 2 }, ringColour, ` stroke-dasharray="6 4"`)
	curve(func(n float64) float64 { return 2*n - 1 }, ringColour, ` stroke-dasharray="2 4"`)
}

// writePoints writes a point for each Bully and ring run that agreed a leader: one a size, as
// the other engine's run of that size has the same counts.
func (pl *countsPlot) writePoints(b *strings.Builder, results []bench.Result) {
	seen := map[string]bool{}
	for _, r := range results {
		key := fmt.Sprintf("%s/%d", r.Algorithm, r.Nodes)
		if r.Stopped != "" || r.Leader == 0 || seen[key] {
			continue
		}
		seen[key] = true
		var m float64
		var colour string
		switch r.Algorithm {
		case "bully":
			m = float64(r.SentOf(algo.KindElection) + r.SentOf(algo.KindOK) + r.SentOf(algo.KindCoordinator))
			colour = bullyColour
		case "ring":
			m = float64(r.SentOf(algo.KindElection))
			colour = ringColour
		default:
			continue
		}
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="5" fill="%s" stroke="#fff" stroke-width="1.5"><title>%s, %d nodes: %.0f messages</title></circle>`+"\n",
			pl.x(float64(r.Nodes)), pl.y(m), colour, html.EscapeString(r.Algorithm), r.Nodes, m)
	}
}

// writeCountsLegend writes the legend, right of the plot.
func writeCountsLegend(b *strings.Builder) {
	lx, ly := float64(plotWidth-plotRight+16), float64(plotTop+10)
	entry := func(i int, colour, dash string, dot bool, text string) {
		yy := ly + float64(i)*22
		if dot {
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="5" fill="%s"/>`+"\n", lx+12, yy, colour)
		} else {
			fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"%s/>`+"\n", lx, yy, lx+24, yy, colour, dash)
		}
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" dominant-baseline="middle">%s</text>`+"\n", lx+32, yy, html.EscapeString(text))
	}
	entry(0, bullyColour, "", true, "Bully, measured")
	entry(1, bullyColour, "", false, "Bully: n(n−1)")
	entry(2, ringColour, "", true, "Ring, measured")
	entry(3, ringColour, "", false, "Ring: n·Hₙ (random)")
	entry(4, ringColour, ` stroke-dasharray="6 4"`, false, "Ring: n(n+1)/2 (worst)")
	entry(5, ringColour, ` stroke-dasharray="2 4"`, false, "Ring: 2n−1 (best)")
	for i, line := range []string{"Bully: every message, the top", "node down. Ring (Chang–Roberts):", "ELECTIONs, every node", "initiating."} {
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="11" fill="#555">%s</text>`+"\n", lx, ly+6*22+4+float64(i)*14, html.EscapeString(line))
	}
}

// powerLabel writes 10^e as 10, 100, 1k, 10k, 100k, 1M, … 10G.
func powerLabel(e float64) string {
	names := []string{"1", "10", "100", "1k", "10k", "100k", "1M", "10M", "100M", "1G", "10G"}
	i := int(math.Round(e))
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("1e%d", i)
}

// harmonicApprox is H_n for real n ≥ 1: exact sums up to 1,000, then ln n + γ + 1/2n.
func harmonicApprox(n float64) float64 {
	if n <= 1000 {
		return bench.Harmonic(int(math.Round(n)))
	}
	return math.Log(n) + 0.5772156649 + 1/(2*n)
}
