package tui

import "math"

// arrowOn returns the cell midway along an edge's path, and the arrow to draw there for messages
// that go dx columns across and dy rows down along it: › or ‹ for an edge more across than
// down, v or ^ otherwise (a cell is about twice as tall as it is wide). ok is false for a path
// with no cell to draw on.
func arrowOn(path [][2]int, dx, dy float64) (cell [2]int, arrow rune, ok bool) {
	if len(path) == 0 {
		return [2]int{}, 0, false
	}
	cell = path[len(path)/2]
	switch {
	case math.Abs(dx) >= 2*math.Abs(dy) && dx >= 0:
		arrow = '›'
	case math.Abs(dx) >= 2*math.Abs(dy):
		arrow = '‹'
	case dy > 0:
		arrow = 'v'
	default:
		arrow = '^'
	}
	return cell, arrow, true
}
