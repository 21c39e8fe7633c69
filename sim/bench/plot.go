package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"

	"electsim/algo"
)

// PlotCounts writes a self-contained SVG: messages against nodes on log–log axes, the counts
// measured in results as points and the theory as lines — Bully's n(n−1) messages in all, and
// Chang–Roberts' ELECTIONs: n·H_n on average, between 2n−1 (ids increasing round the ring) and
// n(n+1)/2 (decreasing). The theory is drawn over the whole range of the axes, also where a
// run would be too long to measure. Results of other algorithms, and runs stopped before a
// leader, are left out.
func PlotCounts(w io.Writer, results []Result) error {
	const (
		width, height = 790, 500
		left, right   = 80, 215
		top, bottom   = 50, 60
	)
	// The axes span 10 to 100,000 nodes, wider when a run was smaller or larger, and the
	// messages up to Bully's n(n−1) at the right edge.
	xMin, xMax := 1.0, 5.0
	for _, r := range results {
		if r.Nodes > 0 {
			xMin = min(xMin, math.Floor(math.Log10(float64(r.Nodes))))
			xMax = max(xMax, math.Ceil(math.Log10(float64(r.Nodes))))
		}
	}
	yMin, yMax := xMin, math.Ceil(2*xMax)
	plotW, plotH := float64(width-left-right), float64(height-top-bottom)
	x := func(n float64) float64 { return left + (math.Log10(n)-xMin)/(xMax-xMin)*plotW }
	y := func(m float64) float64 { return top + plotH - (math.Log10(m)-yMin)/(yMax-yMin)*plotH }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="13">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="28" font-size="16" font-weight="bold">Messages per election, measured and in theory</text>`+"\n", left)

	// Grid and axes.
	for e := xMin; e <= xMax; e++ {
		px := x(math.Pow(10, e))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="#e5e5e5"/>`+"\n", px, top, px, top+plotH)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", px, top+plotH+20, label(e))
	}
	for e := yMin; e <= yMax; e++ {
		py := y(math.Pow(10, e))
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e5e5e5"/>`+"\n", left, py, left+plotW, py)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", left-8, py, label(e))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.0f" height="%.0f" fill="none" stroke="#444"/>`+"\n", left, top, plotW, plotH)
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">nodes</text>`+"\n", left+plotW/2, height-18)
	fmt.Fprintf(&b, `<text transform="translate(20 %.1f) rotate(-90)" text-anchor="middle">messages</text>`+"\n", top+plotH/2)

	// Theory lines, clipped to the plot.
	fmt.Fprintf(&b, `<clipPath id="plot"><rect x="%d" y="%d" width="%.0f" height="%.0f"/></clipPath>`+"\n", left, top, plotW, plotH)
	curve := func(f func(n float64) float64, color, dash string) {
		var pts []string
		for e := xMin; e <= xMax+1e-9; e += 0.02 {
			n := math.Pow(10, e)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(n), y(f(n))))
		}
		fmt.Fprintf(&b, `<polyline clip-path="url(#plot)" points="%s" fill="none" stroke="%s" stroke-width="2"%s/>`+"\n",
			strings.Join(pts, " "), color, dash)
	}
	const bullyColor, ringColor = "#c2410c", "#1d4ed8"
	curve(func(n float64) float64 { return n * (n - 1) }, bullyColor, "")
	curve(func(n float64) float64 { return n * harmonicApprox(n) }, ringColor, "")
	curve(func(n float64) float64 { return n * (n + 1) / 2 }, ringColor, ` stroke-dasharray="6 4"`)
	curve(func(n float64) float64 { return 2*n - 1 }, ringColor, ` stroke-dasharray="2 4"`)

	// Measured points.
	seen := map[string]bool{}
	for _, r := range results {
		if r.Stopped != "" || r.Leader == 0 {
			continue
		}
		key := fmt.Sprintf("%s/%d", r.Algorithm, r.Nodes)
		if seen[key] { // the other engine's run: the same counts
			continue
		}
		seen[key] = true
		var m float64
		var color string
		switch r.Algorithm {
		case "bully":
			m = float64(sentOf(r, algo.KindElection) + sentOf(r, algo.KindOK) + sentOf(r, algo.KindCoordinator))
			color = bullyColor
		case "ring":
			m = float64(sentOf(r, algo.KindElection))
			color = ringColor
		default:
			continue
		}
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="5" fill="%s" stroke="#fff" stroke-width="1.5"><title>%s, %d nodes: %.0f messages</title></circle>`+"\n",
			x(float64(r.Nodes)), y(m), color, html.EscapeString(r.Algorithm), r.Nodes, m)
	}

	// Legend.
	lx, ly := float64(width-right+16), float64(top+10)
	entry := func(i int, color, dash string, dot bool, text string) {
		yy := ly + float64(i)*22
		if dot {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="5" fill="%s"/>`+"\n", lx+12, yy, color)
		} else {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"%s/>`+"\n", lx, yy, lx+24, yy, color, dash)
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" dominant-baseline="middle">%s</text>`+"\n", lx+32, yy, html.EscapeString(text))
	}
	entry(0, bullyColor, "", true, "Bully, measured")
	entry(1, bullyColor, "", false, "Bully: n(n−1)")
	entry(2, ringColor, "", true, "Ring, measured")
	entry(3, ringColor, "", false, "Ring: n·Hₙ (random)")
	entry(4, ringColor, ` stroke-dasharray="6 4"`, false, "Ring: n(n+1)/2 (worst)")
	entry(5, ringColor, ` stroke-dasharray="2 4"`, false, "Ring: 2n−1 (best)")
	for i, line := range []string{"Bully: every message, the top", "node down. Ring (Chang–Roberts):", "ELECTIONs, every node", "initiating."} {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="11" fill="#555">%s</text>`+"\n", lx, ly+6*22+4+float64(i)*14, html.EscapeString(line))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// sentOf returns how many messages of kind r sent.
func sentOf(r Result, kind string) int64 {
	for i, k := range r.Kinds {
		if k == kind {
			return r.Sent[i]
		}
	}
	return 0
}

// label writes 10^e as 10, 100, 1k, 10k, 100k, 1M, … 10¹⁰.
func label(e float64) string {
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
		return Harmonic(int(math.Round(n)))
	}
	return math.Log(n) + 0.5772156649 + 1/(2*n)
}
