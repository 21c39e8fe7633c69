package diagram_test

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"electsim/report/diagram"
	"electsim/sim"
	"electsim/sim/bench"
)

// The plot is well-formed SVG with one point per measured Bully and ring size — one, not two,
// when both engines ran it — and none for a run that was stopped or another algorithm's.
func TestPlotCounts(t *testing.T) {
	var results []bench.Result
	for _, name := range []string{"bully", "ring", "raft"} {
		for _, e := range []sim.Engine{sim.Goroutine, sim.Inline} {
			r, err := bench.Measure(name, 30, 1, e, bench.Options{})
			if err != nil {
				t.Fatal(err)
			}
			results = append(results, r)
		}
	}
	stopped, err := bench.Measure("bully", 3000, 1, sim.Inline, bench.Options{MaxMessages: 1000})
	if err != nil || stopped.Stopped == "" {
		t.Fatalf("%v, stopped %q", err, stopped.Stopped)
	}
	results = append(results, stopped)
	var b bytes.Buffer
	if err := diagram.PlotCounts(&b, results); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(b.Bytes()))
	points := 0
	for {
		tok, err := d.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed: %v", err)
			}
			break
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "circle" {
			points++
		}
	}
	// Two measured points, and two dots in the legend.
	if points != 4 {
		t.Errorf("%d circles, want 2 points and 2 legend dots", points)
	}
	for _, want := range []string{"bully, 30 nodes: 870 messages", "ring, 30 nodes: 121 messages"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in the plot", want)
		}
	}
}
