package session

import (
	"math"
	"strconv"
	"strings"

	"electsim/algo"
)

// GraphMax is the most nodes a general graph (a line, a star, a grid, a tree, a random graph or
// a file's) is laid out as its shape: above it the nodes are placed in rows, as Layout places
// many nodes, and the edges are too many to draw readably.
const GraphMax = 48

// TopologyLayout places the nodes ids (in ring order) of topology top on a canvas from 0 to 1
// each way, appended to dst[:0], so that its edges read: a grid as a grid, a line as a row
// (snaking down when long), a star with its hub in the middle, a tree by levels, any other graph
// by a deterministic force layout. ok is false — and the places are Layout's — for the complete
// graph, a ring, or more than GraphMax nodes.
func TopologyLayout(top *algo.Topology, ids []algo.ID, dst [][2]float64) (places [][2]float64, ok bool) {
	n := len(ids)
	if top == nil || top.IsComplete() || top.IsRing() || n > GraphMax || n < 2 {
		return Layout(n, nil, dst), false
	}
	pos := make(map[algo.ID]int, n)
	for i, id := range ids {
		pos[id] = i
	}
	var edges [][2]int
	for _, e := range top.Edges() {
		edges = append(edges, [2]int{pos[e[0]], pos[e[1]]})
	}
	dst = dst[:0]
	kind, arg, _ := strings.Cut(top.Name(), ":")
	switch kind {
	case algo.Grid:
		r, c, _ := strings.Cut(arg, "x")
		rows, _ := strconv.Atoi(r)
		cols, _ := strconv.Atoi(c)
		for i := range n {
			dst = append(dst, [2]float64{round9((float64(i%cols) + 0.5) / float64(cols)), round9((float64(i/cols) + 0.5) / float64(rows))})
		}
	case algo.Line:
		perRow := min(n, 8)
		rows := (n + perRow - 1) / perRow
		for i := range n {
			r, c := i/perRow, i%perRow
			if r%2 == 1 {
				c = perRow - 1 - c // snake back, so that each edge stays short
			}
			dst = append(dst, [2]float64{round9((float64(c) + 0.5) / float64(perRow)), round9((float64(r) + 0.5) / float64(rows))})
		}
	case algo.Star:
		dst = append(dst, [2]float64{0.5, 0.5})
		for i := 1; i < n; i++ {
			a := -math.Pi/2 + 2*math.Pi*float64(i-1)/float64(n-1)
			dst = append(dst, [2]float64{round9(0.5 + 0.5*math.Cos(a)), round9(0.5 + 0.5*math.Sin(a))})
		}
	default:
		if treeLevels(n, edges) != nil {
			return Layout(n, edges, dst), true
		}
		return forceLayout(n, edges, dst), true
	}
	return dst, true
}

// forceLayout places a general graph by a force layout (after Fruchterman and Reingold): from
// the circle in ring order, a fixed number of steps in which every pair of nodes pushes apart
// and every edge pulls its ends together, each step moving a node less than the last; then
// scaled to fill the canvas, and nodes closer than a grid's spacing pushed apart (separate) —
// a force layout crowds the core of a graph when a few long paths stretch the canvas. It uses no
// randomness and visits pairs in index order, and the places are rounded: the same graph is
// placed the same everywhere.
func forceLayout(n int, edges [][2]int, dst [][2]float64) [][2]float64 {
	pts := Layout(n, nil, dst)
	k := math.Sqrt(1.0 / float64(n)) // the ideal edge length
	disp := make([][2]float64, n)
	const steps = 200
	for step := range steps {
		for i := range disp {
			disp[i] = [2]float64{}
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				dx, dy := pts[i][0]-pts[j][0], pts[i][1]-pts[j][1]
				d := math.Max(math.Hypot(dx, dy), 1e-6)
				f := k * k / d
				disp[i][0] += dx / d * f
				disp[i][1] += dy / d * f
				disp[j][0] -= dx / d * f
				disp[j][1] -= dy / d * f
			}
		}
		for _, e := range edges {
			i, j := e[0], e[1]
			dx, dy := pts[i][0]-pts[j][0], pts[i][1]-pts[j][1]
			d := math.Max(math.Hypot(dx, dy), 1e-6)
			f := d * d / k
			disp[i][0] -= dx / d * f
			disp[i][1] -= dy / d * f
			disp[j][0] += dx / d * f
			disp[j][1] += dy / d * f
		}
		limit := 0.1 * (1 - float64(step)/steps) // the temperature: how far a node may move
		for i := range n {
			d := math.Max(math.Hypot(disp[i][0], disp[i][1]), 1e-9)
			move := math.Min(d, limit)
			pts[i][0] += disp[i][0] / d * move
			pts[i][1] += disp[i][1] / d * move
			pts[i] = [2]float64{round9(pts[i][0]), round9(pts[i][1])}
		}
	}
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, p := range pts {
		for a := range 2 {
			lo[a], hi[a] = math.Min(lo[a], p[a]), math.Max(hi[a], p[a])
		}
	}
	for i := range pts {
		for a := range 2 {
			if span := hi[a] - lo[a]; span > 1e-9 {
				pts[i][a] = round9((pts[i][a] - lo[a]) / span)
			} else {
				pts[i][a] = 0.5
			}
		}
	}
	return separate(pts)
}

// separate pushes apart, in a fixed number of rounds, every two places closer than 0.9 of the
// spacing of a square grid of as many nodes, keeping each on the canvas.
func separate(pts [][2]float64) [][2]float64 {
	n := len(pts)
	side := math.Ceil(math.Sqrt(float64(n)))
	dmin := 0.9 / side
	for range 60 {
		moved := false
		for i := range n {
			for j := i + 1; j < n; j++ {
				dx, dy := pts[j][0]-pts[i][0], pts[j][1]-pts[i][1]
				d := math.Hypot(dx, dy)
				if d >= dmin {
					continue
				}
				push := (dmin - d) / 2
				if d < 1e-9 { // on one place: apart along a direction of their own
					a := float64(i*7+j) * 2.399963
					dx, dy, d = math.Cos(a), math.Sin(a), 1
				}
				ux, uy := dx/d*push, dy/d*push
				pts[i] = [2]float64{round9(clamp01(pts[i][0] - ux)), round9(clamp01(pts[i][1] - uy))}
				pts[j] = [2]float64{round9(clamp01(pts[j][0] + ux)), round9(clamp01(pts[j][1] + uy))}
				moved = true
			}
		}
		if !moved {
			break
		}
	}
	return pts
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }
