package session

import (
	"math"
	"slices"
	"testing"

	"electsim/algo"
)

func places(t *testing.T, topology string, n int) ([][2]float64, bool) {
	t.Helper()
	ring := make([]algo.ID, n)
	for i := range ring {
		ring[i] = algo.ID(n - i) // a ring order that is not the ids' order
	}
	c, err := algo.NewClusterSeeded(ring, topology, 5, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return TopologyLayout(c.Topology, ring, nil)
}

// Each shape is laid out as itself, in ring order; a random graph the same every time, every
// node on the canvas and no two on one place; complete graphs, rings and big graphs are not.
func TestTopologyLayout(t *testing.T) {
	grid, ok := places(t, "grid:2x3", 6)
	if want := [][2]float64{{1.0 / 6, 0.25}, {0.5, 0.25}, {5.0 / 6, 0.25}, {1.0 / 6, 0.75}, {0.5, 0.75}, {5.0 / 6, 0.75}}; !ok || !near(grid, want) {
		t.Errorf("grid:2x3: %v", grid)
	}
	star, ok := places(t, "star", 5)
	if !ok || star[0] != [2]float64{0.5, 0.5} || star[1] != [2]float64{0.5, 0} {
		t.Errorf("star: hub %v, first spoke %v", star[0], star[1])
	}
	line, ok := places(t, "line", 10)
	if !ok || line[7][1] != line[0][1] || line[8][1] <= line[7][1] || line[8][0] != line[7][0] {
		t.Errorf("line of 10: %v", line)
	}
	a, ok := places(t, "random:3", 20)
	b, _ := places(t, "random:3", 20)
	if !ok || !slices.Equal(a, b) {
		t.Errorf("random:3 laid out twice differs")
	}
	seen := map[[2]float64]bool{}
	for _, p := range a {
		if p[0] < 0 || p[0] > 1 || p[1] < 0 || p[1] > 1 || seen[p] {
			t.Errorf("random:3: place %v off the canvas or taken twice", p)
		}
		seen[p] = true
	}
	for _, top := range []string{algo.Complete, algo.BiRing} {
		if _, ok := places(t, top, 6); ok {
			t.Errorf("%s laid out as a graph", top)
		}
	}
	if _, ok := places(t, "random:3", GraphMax+1); ok {
		t.Errorf("%d nodes laid out as a graph", GraphMax+1)
	}
}

func near(a, b [][2]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		for k := range 2 {
			if d := a[i][k] - b[i][k]; d > 1e-6 || d < -1e-6 {
				return false
			}
		}
	}
	return true
}

// A force layout leaves no two nodes of a random graph closer than most of a square grid's
// spacing, so that no node hides another, at every size it lays out.
func TestForceLayoutKeepsNodesApart(t *testing.T) {
	for _, topology := range []string{"random:2", "random:3", "random:5"} {
		for n := 4; n <= GraphMax; n++ {
			pts, ok := places(t, topology, n)
			if !ok {
				t.Fatalf("%s of %d: not laid out", topology, n)
			}
			side := math.Ceil(math.Sqrt(float64(n)))
			for i := range pts {
				for j := i + 1; j < len(pts); j++ {
					if d := math.Hypot(pts[i][0]-pts[j][0], pts[i][1]-pts[j][1]); d < 0.8/side {
						t.Errorf("%s of %d: nodes %d and %d %.3f apart, want at least %.3f", topology, n, i, j, d, 0.8/side)
					}
				}
			}
		}
	}
}
