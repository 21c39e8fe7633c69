package diagram

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"

	"electsim/sim/sweep"
)

// PlotSweep writes a self-contained SVG of a sweep: the trade-off a failure detector's timeout
// makes, for a slide. Along the bottom, the parameter's values in order; on the left axis the
// false suspicions per run, on the right the milliseconds from a leader's crash to a new agreed
// leader — each a mean (solid, with points) and a 95th percentile (dashed). setup is a line
// under the title saying what was run.
func PlotSweep(w io.Writer, res *sweep.Result, setup string) error {
	pl := newSweepPlot(res)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="13">`+"\n",
		sweepWidth, sweepHeight, sweepWidth, sweepHeight)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", sweepWidth, sweepHeight)
	title := fmt.Sprintf("%s: the %s trades false suspicions for recovery time", res.Algorithm, res.Param)
	fmt.Fprintf(&b, `<text x="%d" y="28" font-size="17" font-weight="bold">%s</text>`+"\n", sweepLeft, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="%d" y="48" font-size="12" fill="#555">%s</text>`+"\n", sweepLeft, html.EscapeString(setup))
	pl.writeAxes(&b, res)
	pl.writeSeries(&b, res, func(r sweep.Row) sweep.Stat { return r.FalseSuspicions }, pl.ySusp, suspColour, "false suspicions per run")
	pl.writeSeries(&b, res, func(r sweep.Row) sweep.Stat { return r.Recovery }, pl.yRec, recColour, "recovery ms")
	writeSweepLegend(&b)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// The sweep plot's size and margins, in pixels.
const (
	sweepWidth, sweepHeight = 900, 540
	sweepLeft, sweepRight   = 90, 90
	sweepTop, sweepBottom   = 80, 120
)

// The colours of the two measures.
const suspColour, recColour = "#c2410c", "#1d4ed8"

// sweepPlot is the plot's axes: one slot per value along x, and a scale for each measure.
type sweepPlot struct {
	n                 int
	w, h              float64 // the plot area
	suspMax, recMax   float64 // the top of each axis
	suspStep, recStep float64
}

func newSweepPlot(res *sweep.Result) *sweepPlot {
	pl := &sweepPlot{n: len(res.Rows), w: sweepWidth - sweepLeft - sweepRight, h: sweepHeight - sweepTop - sweepBottom}
	var susp, rec float64
	for _, r := range res.Rows {
		susp = max(susp, r.FalseSuspicions.P95, r.FalseSuspicions.Mean)
		rec = max(rec, r.Recovery.P95, r.Recovery.Mean)
	}
	pl.suspStep, pl.suspMax = niceAxis(susp)
	pl.recStep, pl.recMax = niceAxis(rec)
	return pl
}

// niceAxis returns a tick step of 1, 2 or 5 times a power of ten, and the axis's top — a whole
// number of steps, about five — for values up to top.
func niceAxis(top float64) (step, axisTop float64) {
	if top <= 0 {
		return 1, 5
	}
	raw := top / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step = 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	return step, math.Ceil(top/step) * step
}

// x places value i; ySusp and yRec place a measure on its axis.
func (pl *sweepPlot) x(i int) float64 {
	if pl.n == 1 {
		return sweepLeft + pl.w/2
	}
	return sweepLeft + 20 + float64(i)*(pl.w-40)/float64(pl.n-1)
}

func (pl *sweepPlot) ySusp(v float64) float64 { return sweepTop + pl.h - v/pl.suspMax*pl.h }
func (pl *sweepPlot) yRec(v float64) float64  { return sweepTop + pl.h - v/pl.recMax*pl.h }

// writeAxes writes the grid (on the left axis's ticks), both axes' labels, the values along
// the bottom, and the frame.
func (pl *sweepPlot) writeAxes(b *strings.Builder, res *sweep.Result) {
	right := sweepLeft + pl.w
	for v := 0.0; v <= pl.suspMax+pl.suspStep/2; v += pl.suspStep {
		y := pl.ySusp(v)
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e5e5e5"/>`+"\n", sweepLeft, y, right, y)
		fmt.Fprintf(b, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle" fill="%s">%s</text>`+"\n", sweepLeft-8, y, suspColour, tickText(v))
	}
	for v := 0.0; v <= pl.recMax+pl.recStep/2; v += pl.recStep {
		y := pl.yRec(v)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`+"\n", right, y, right+5, y, recColour)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" dominant-baseline="middle" fill="%s">%s</text>`+"\n", right+8, y, recColour, tickText(v))
	}
	for i, r := range res.Rows {
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", pl.x(i), sweepTop+pl.h+20, html.EscapeString(r.Value))
	}
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%.0f" height="%.0f" fill="none" stroke="#444"/>`+"\n", sweepLeft, sweepTop, pl.w, pl.h)
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", sweepLeft+pl.w/2, sweepTop+pl.h+44, html.EscapeString(res.Param))
	fmt.Fprintf(b, `<text transform="translate(24 %.1f) rotate(-90)" text-anchor="middle" fill="%s">false suspicions per run</text>`+"\n", sweepTop+pl.h/2, suspColour)
	fmt.Fprintf(b, `<text transform="translate(%d %.1f) rotate(90)" text-anchor="middle" fill="%s">recovery after a leader crash (ms)</text>`+"\n", sweepWidth-20, sweepTop+pl.h/2, recColour)
}

// tickText writes an axis value: whole numbers without decimals.
func tickText(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%g", v)
}

// writeSeries writes one measure: its mean as a solid line with points, its 95th percentile as a
// dashed line. Values with nothing measured (no crash to recover from) are skipped.
func (pl *sweepPlot) writeSeries(b *strings.Builder, res *sweep.Result, of func(sweep.Row) sweep.Stat, y func(float64) float64, colour, what string) {
	var mean, p95 []string
	for i, r := range res.Rows {
		s := of(r)
		if s.N == 0 {
			continue
		}
		mean = append(mean, fmt.Sprintf("%.1f,%.1f", pl.x(i), y(s.Mean)))
		p95 = append(p95, fmt.Sprintf("%.1f,%.1f", pl.x(i), y(s.P95)))
	}
	fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5" stroke-dasharray="6 4"/>`+"\n", strings.Join(p95, " "), colour)
	fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2.5"/>`+"\n", strings.Join(mean, " "), colour)
	for i, r := range res.Rows {
		s := of(r)
		if s.N == 0 {
			continue
		}
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="4.5" fill="%s" stroke="#fff" stroke-width="1.5"><title>%s=%s: %s %.1f (p95 %.1f)</title></circle>`+"\n",
			pl.x(i), y(s.Mean), colour, html.EscapeString(res.Param), html.EscapeString(r.Value), html.EscapeString(what), s.Mean, s.P95)
	}
}

// writeSweepLegend writes the legend under the plot.
func writeSweepLegend(b *strings.Builder) {
	y := float64(sweepHeight - 34)
	entry := func(x float64, colour, dash, text string) {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2.5"%s/>`+"\n", x, y, x+28, y, colour, dash)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" dominant-baseline="middle">%s</text>`+"\n", x+36, y, html.EscapeString(text))
	}
	entry(sweepLeft, suspColour, "", "false suspicions, mean")
	entry(sweepLeft+200, suspColour, ` stroke-dasharray="6 4"`, "p95")
	entry(sweepLeft+330, recColour, "", "recovery ms, mean")
	entry(sweepLeft+510, recColour, ` stroke-dasharray="6 4"`, "p95")
}
