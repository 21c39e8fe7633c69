package tui

import (
	"slices"
	"testing"

	"electsim/session"
)

// Where two lines cross — a blocked one and one carrying a message — the same one is drawn over
// the other in every frame: drawing the same picture again gives the same canvas, cell for cell.
func TestCanvasCrossingLinesDrawTheSame(t *testing.T) {
	m := newModel(t, "bully-partition", nil)
	crossings := 0
	for range 120 {
		steps(m, 1)
		var pic session.Picture
		m.ss.Picture(&pic, 0)
		first, _ := m.drawCanvas(&pic, 80, 24)
		if len(pic.Blocked) == 0 || len(pic.Packets) == 0 {
			continue
		}
		crossings++
		for range 20 {
			again, _ := m.drawCanvas(&pic, 80, 24)
			if !slices.Equal(first, again) {
				t.Fatalf("at %v the same picture drew two canvases", m.ss.Now())
			}
		}
	}
	if crossings == 0 {
		t.Fatal("no frame had both a blocked line and a message: the test shows nothing")
	}
}
