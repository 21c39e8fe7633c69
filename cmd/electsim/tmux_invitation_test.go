package main

import (
	"strings"
	"testing"
)

// The invitation scenario in a real terminal: played to its breaks with keys typed one at a time
// and in bursts, the header shows one group after boot, two during the partition — each with
// its coordinator, ★ on the canvas, its members' lines to it shaded • — and one after the heal;
// no split-brain banner ever.
func TestTUIUnderTmuxInvitationGroups(t *testing.T) {
	p := startPane(t, "tui", "invitation-partition", "--no-color")
	p.shows("the first screen", "electsim · Invitation: a partition gives two groups")
	p.burst("+++++++") // as fast as it goes
	p.key("Space")
	p.shows("the break at 145ms", "BREAK", "5 groups: {1} led by 1, {2} led by 2, {3} led by 3, {4} led by 4, {5} led by 5")
	p.key("n")
	p.shows("the break before the partition", "BREAK", "1 group: {1 2 3 4 5} led by 5")
	p.burst("n")
	p.shows("the break at 675ms", "BREAK", "4 groups: {1} led by 1, {2} led by 2, {3} led by 3, {4 5} led by 5")
	p.key("n")
	screen := p.shows("the break before the heal", "BREAK", "2 groups: {1 2 3} led by 3, {4 5} led by 5")
	if strings.Contains(screen, "SPLIT BRAIN") {
		t.Errorf("a split-brain banner during the partition:\n%s", screen)
	}
	if n := strings.Count(canvasOf(screen), "★"); n != 2 {
		t.Errorf("%d coordinators (★) on the canvas during the partition, want 2:\n%s", n, screen)
	}
	for _, label := range []string{"/A", "/B"} {
		if !strings.Contains(canvasOf(screen), label) {
			t.Errorf("the canvas shows no partition group %s:\n%s", label, screen)
		}
	}
	groupLines(t, screen, [][2]int{{1, 3}, {2, 3}, {4, 5}}, [][2]int{{3, 5}})
	p.burst("n")
	screen = p.shows("the end, one group", "1 group: {1 2 3 4 5} led by 5", "eventual-merge")
	if n := strings.Count(canvasOf(screen), "★"); n != 1 {
		t.Errorf("%d coordinators (★) on the canvas after the heal, want 1:\n%s", n, screen)
	}
	groupLines(t, screen, [][2]int{{1, 5}, {2, 5}, {3, 5}, {4, 5}}, nil)
	p.key("q")
	if code := p.exitStatus(); code != 0 {
		t.Errorf("after q the process exited with status %d", code)
	}
}

// canvasOf returns the node panel of a screen: the left of each line above the legend.
func canvasOf(screen string) string {
	var out []string
	for i, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "★ leader") {
			break
		}
		if i < 4 {
			continue
		}
		left, _, _ := strings.Cut(line, "│")
		out = append(out, left)
	}
	return strings.Join(out, "\n")
}

// groupLines checks that the canvas shades (•) the lines of the pairs in, and not of out.
func groupLines(t *testing.T, screen string, in, out [][2]int) {
	t.Helper()
	s := nodeSpots(screen)
	for _, e := range in {
		if !lineDrawn(screen, s[e[0]], s[e[1]], '•') {
			t.Errorf("the line %d–%d is not shaded as a group's:\n%s", e[0], e[1], screen)
		}
	}
	for _, e := range out {
		if lineDrawn(screen, s[e[0]], s[e[1]], '•') {
			t.Errorf("the line %d–%d is shaded as a group's:\n%s", e[0], e[1], screen)
		}
	}
}
