package session

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"electsim/algo"
	"electsim/sim"
)

// playPast plays s on to instant at, past any break.
func playPast(s *Session, at time.Duration) {
	for s.Instant() < at && !s.Done() {
		s.PlayTo(at)
	}
}

// In the split vote, granted and refused VOTEs are in flight together at 189ms: a granted one is
// marked V✓, a refused one V✗ — the mark the legend lists for each — and a REQUEST_VOTE, which
// answers nothing, carries no mark after its letter.
func TestPacketMarksAnswers(t *testing.T) {
	s := open(t, "raft-boot-split-vote", nil)
	playPast(s, 189*ms)
	var p Picture
	s.Picture(&p, 0)
	legend := map[string]string{}
	for _, m := range p.Legend {
		legend[m.Class] = m.Mark
	}
	counts := map[string]int{}
	for _, pk := range p.Packets {
		want := map[bool]string{true: legend["yes"], false: legend["no"]}[pk.Flag]
		if pk.Kind != algo.KindVote {
			want = "R"
		}
		if pk.Mark != want || pk.Count != "" {
			t.Errorf("%s %d→%d (flag %v) is marked %q (count %q), want %q", pk.Kind, pk.From, pk.To, pk.Flag, pk.Mark, pk.Count, want)
		}
		counts[pk.Mark]++
	}
	if counts["V✓"] == 0 || counts["V✗"] == 0 {
		t.Fatalf("at 189ms: %v; the test wants granted and refused VOTEs both", counts)
	}
}

// A ring message is marked with the id it carries, its hops and phase apart, in words: HS's
// PROBE(6, phase 1, hop 1) is P6, "phase 1 · hop 1" — never P61.
func TestPacketMarksCarriedIDAndCount(t *testing.T) {
	s := open(t, "hs-phases", nil)
	playPast(s, 35*ms)
	var p Picture
	s.Picture(&p, 0)
	if len(p.Packets) == 0 {
		t.Fatal("nothing in flight at 35ms")
	}
	for _, pk := range p.Packets {
		letter := string(KindLetters(s.Config().Algorithm)[pk.Kind])
		if want := fmt.Sprintf("%s%d", letter, pk.Value); pk.Mark != want {
			t.Errorf("%s is marked %q, want %q", pk.Label, pk.Mark, want)
		}
		var parts []string
		if pk.Phase != 0 {
			parts = append(parts, fmt.Sprintf("phase %d", pk.Phase))
		}
		if pk.Hop != 0 {
			parts = append(parts, fmt.Sprintf("hop %d", pk.Hop))
		}
		if want := strings.Join(parts, " · "); pk.Count != want || want == "" {
			t.Errorf("%s counts %q, want %q", pk.Label, pk.Count, want)
		}
	}
	// FloodMax calls its phase a round.
	g := open(t, "floodmax-grid", nil)
	playPast(g, 15*ms)
	g.Picture(&p, 0)
	for _, pk := range p.Packets {
		if !strings.HasPrefix(pk.Count, "round ") {
			t.Errorf("FloodMax's %s counts %q, not its round", pk.Label, pk.Count)
		}
	}
}

// The legend lists every kind with the letter its packets are drawn with, and ✓ and ✗ with the
// letter of the algorithm's first answer; without answers, ✓ alone. No two kinds share a letter.
func TestLegendOfEveryAlgorithm(t *testing.T) {
	for _, info := range algo.Algorithms() {
		letters := KindLetters(info)
		seen := map[rune]string{}
		for _, k := range info.Kinds {
			up := []rune(strings.ToUpper(string(letters[k])))[0]
			if other, ok := seen[up]; ok {
				t.Errorf("%s: %s and %s share the letter %c", info.Name, other, k, up)
			}
			seen[up] = k
		}
		legend := Legend(info)
		kinds := 0
		var marks []string
		for _, m := range legend {
			marks = append(marks, m.Mark)
			if m.Class == "kind" {
				kinds++
				if m.Mark != string(letters[m.Kind]) {
					t.Errorf("%s: the legend marks %s %q, its packets %q", info.Name, m.Kind, m.Mark, string(letters[m.Kind]))
				}
			}
		}
		if kinds != len(info.Kinds) {
			t.Errorf("%s: the legend lists %d kinds of %d", info.Name, kinds, len(info.Kinds))
		}
		if len(info.Answers) > 0 {
			l := string(letters[info.Answers[0]])
			if !slices.Contains(marks, l+"✓") || !slices.Contains(marks, l+"✗") {
				t.Errorf("%s answers in %v, but its legend has %v", info.Name, info.Answers, marks)
			}
		} else if !slices.Contains(marks, "✓") || slices.ContainsFunc(marks, func(m string) bool { return utf8.RuneCountInString(m) > 1 && strings.HasSuffix(m, "✗") }) {
			t.Errorf("%s answers nothing, but its legend has %v", info.Name, marks)
		}
		for _, k := range info.Answers {
			if !slices.Contains(info.Kinds, k) {
				t.Errorf("%s answers in %s, which is not one of its kinds", info.Name, k)
			}
		}
	}
}

// SplitBrain names the nodes that believe they lead while two or more do — Bully's two leaders
// across a partition — and nobody for an algorithm of groups, whose coordinators are its design.
func TestPictureSplitBrain(t *testing.T) {
	s := open(t, "bully-partition", nil)
	var p Picture
	for _, c := range []struct {
		at   time.Duration
		want []algo.ID
	}{{400 * ms, nil}, {700 * ms, []algo.ID{3, 5}}, {1100 * ms, nil}} {
		playPast(s, c.at)
		s.Picture(&p, 0)
		if !slices.Equal(p.SplitBrain, c.want) {
			t.Errorf("at %s the picture's split brain is %v, want %v", c.at, p.SplitBrain, c.want)
		}
	}
	g := open(t, "invitation-partition", nil)
	for !g.Done() {
		g.Next()
		g.Picture(&p, 0)
		if len(p.SplitBrain) > 0 {
			t.Fatalf("Invitation at %s: split brain %v, though a coordinator per group is its design", g.Now(), p.SplitBrain)
		}
		if leaders := g.Leaders(); len(leaders) >= 2 {
			return // two coordinators, and no alarm: what the test wants to see
		}
	}
	t.Fatal("invitation-partition never has two coordinators: the test shows nothing")
}

// Before its boot step a node is not-started; at it, its algorithm's status.
func TestPictureNotStarted(t *testing.T) {
	s := open(t, "raft-boot-split-vote", nil)
	var p Picture
	s.Picture(&p, 0)
	for _, n := range p.Nodes {
		if n.Status != NotStarted {
			t.Errorf("before the boot steps node %d is %q", n.ID, n.Status)
		}
	}
	next(t, s, 3) // two narration steps, then node 1's boot
	s.Picture(&p, 0)
	for _, n := range p.Nodes {
		if want := map[bool]string{true: "follower", false: NotStarted}[n.ID == 1]; n.Status != want {
			t.Errorf("after node 1's boot node %d is %q, want %q", n.ID, n.Status, want)
		}
	}
}

// Ids above 2^53 survive the JSON a page reads: every id is a string, and reads back as itself.
func TestPictureIDsAsStrings(t *testing.T) {
	info, err := algo.Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig(info, 3)
	cfg.IDs = []algo.ID{9007199254740993, 9007199254740992, 1}
	cfg.Engine = sim.Inline
	s, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	next(t, s, 4)
	var p Picture
	s.Picture(&p, 0)
	p.Edges = Links{{9007199254740993, 9007199254740992}}
	p.SplitBrain = IDs{9007199254740993, 1}
	b, err := json.Marshal(&p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"id":"9007199254740993"`, `"id":"9007199254740992"`, `"edges":[["9007199254740993","9007199254740992"]]`,
		`"splitBrain":["9007199254740993","1"]`, `"from":"9007199254740993"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the picture's JSON has no %s:\n%s", want, b)
		}
	}
	if strings.Contains(string(b), `:9007199254740`) || strings.Contains(string(b), `[9007199254740`) {
		t.Errorf("an id is written as a number, which a page reads as a double:\n%s", b)
	}
	var back Picture
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(&back)
	if string(again) != string(b) {
		t.Errorf("the picture does not read back as itself:\n%s\n%s", b, again)
	}
	if err := json.Unmarshal([]byte(`{"edges":[["1","x"]]}`), &back); err == nil {
		t.Error("an edge naming node \"x\" was read")
	}
}
