package session

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"electsim/algo"
	"electsim/report"
	"electsim/sim"
)

// NotStarted is the status of a node that has not booted yet: before the boot steps of a run, or
// a node a scenario keeps down from the start.
const NotStarted = "not-started"

// IDs are node ids. In JSON each is a string ("9007199254740993"): a page's numbers are
// doubles, which hold ids exactly only up to 2^53.
type IDs []algo.ID

// Links are directed links [from, to] between nodes. In JSON each id is a string, as in IDs.
type Links [][2]algo.ID

// MarshalJSON writes the ids as strings.
func (ids IDs) MarshalJSON() ([]byte, error) {
	if ids == nil {
		return []byte("null"), nil
	}
	b := []byte{'['}
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendIDString(b, id)
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads ids written as strings (or as numbers).
func (ids *IDs) UnmarshalJSON(data []byte) error {
	var raw []json.Number
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("node ids: %w", err)
	}
	if raw == nil {
		*ids = nil
		return nil
	}
	out := make(IDs, len(raw))
	for i, r := range raw {
		id, err := parseID(r)
		if err != nil {
			return err
		}
		out[i] = id
	}
	*ids = out
	return nil
}

// MarshalJSON writes each link as a pair of ids in strings.
func (l Links) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("null"), nil
	}
	b := make([]byte, 0, 2+len(l)*12)
	b = append(b, '[')
	for i, e := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = appendIDString(b, e[0])
		b = append(b, ',')
		b = appendIDString(b, e[1])
		b = append(b, ']')
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads links whose ids are written as strings (or as numbers).
func (l *Links) UnmarshalJSON(data []byte) error {
	var raw [][2]json.Number
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("links: %w", err)
	}
	if raw == nil {
		*l = nil
		return nil
	}
	out := make(Links, len(raw))
	for i, r := range raw {
		for j := range 2 {
			id, err := parseID(r[j])
			if err != nil {
				return err
			}
			out[i][j] = id
		}
	}
	*l = out
	return nil
}

func appendIDString(b []byte, id algo.ID) []byte {
	b = append(b, '"')
	b = strconv.AppendInt(b, int64(id), 10)
	return append(b, '"')
}

func parseID(n json.Number) (algo.ID, error) {
	v, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("a node id: expected an integer, not %q", string(n))
	}
	return algo.ID(v), nil
}

// KindLetters gives each message kind of an algorithm the letter that tells it without colour on
// a canvas: its first letter, or the first of its words after, or of its letters, not taken by a
// kind before it; routine kinds (heartbeats) in lower case, so that background traffic stays
// quiet. The terminal and the page draw the same letters (Packet.Mark, Legend).
func KindLetters(info *algo.Info) map[string]rune {
	out := map[string]rune{}
	used := map[rune]bool{}
	for _, k := range info.Kinds {
		var cands []rune
		for i, r := range k {
			if i == 0 || k[i-1] == '_' {
				cands = append(cands, unicode.ToUpper(r))
			}
		}
		for _, r := range k {
			cands = append(cands, unicode.ToUpper(r))
		}
		g := '?'
		for _, r := range cands {
			if unicode.IsLetter(r) && !used[r] {
				g = r
				break
			}
		}
		used[g] = true
		if info.IsRoutine(k) {
			g = unicode.ToLower(g)
		}
		out[k] = g
	}
	return out
}

// Mark is one entry of a picture's legend: a mark drawn on the canvas and what it means.
type Mark struct {
	Mark  string `json:"mark"`  // as drawn: "★", "E", "V✗", "╳"
	Means string `json:"means"` // "leader", "ELECTION", "no, refused"
	// Class says what the mark is, for a view to style it as it draws the thing: a node status
	// (leader, candidate, follower, crashed, paused, not-started), "kind" (a message of Kind),
	// "yes", "no", "carries", "count", "believes", "term", "lost", "blocked", "timer",
	// "group-line", "role".
	Class string `json:"class"`
	Kind  string `json:"kind,omitempty"` // a message kind's entry: the kind
	// When says when the mark can be seen, for a view that shows an entry only then: "" always,
	// "not-started" while a node has not started, "carries" while a message carries an id,
	// "count" while one carries a hop count or a phase.
	When string `json:"when,omitempty"`
}

// Legend is what the marks of a picture of the algorithm's runs mean, in the order a legend lists
// them: the nodes' statuses, what a node's label says, each message kind's letter, the marks on
// a message, and the marks of faults and timers. The terminal UI and the page list it; their
// drawings use the same marks.
func Legend(info *algo.Info) []Mark {
	letters := KindLetters(info)
	out := []Mark{
		{Mark: report.StatusGlyph(sim.Leader), Means: "leader", Class: "leader"},
		{Mark: report.StatusGlyph(sim.Candidate), Means: "candidate", Class: "candidate"},
		{Mark: report.StatusGlyph(sim.Follower), Means: "follower", Class: "follower"},
		{Mark: report.StatusGlyph(sim.Crashed), Means: "crashed", Class: "crashed"},
		{Mark: report.StatusGlyph(sim.Paused), Means: "paused node", Class: "paused"},
		{Mark: NotStartedGlyph, Means: "not started yet", Class: NotStarted, When: NotStarted},
		{Mark: "→N", Means: "believes N leads", Class: "believes"},
	}
	if info.Terms {
		out = append(out, Mark{Mark: "tN", Means: report.TermWord(info) + " N", Class: "term"})
	}
	if info.Roles != nil {
		out = append(out, Mark{Mark: RoleGlyph, Means: "not a candidate", Class: "role"})
	}
	for _, k := range info.Kinds {
		out = append(out, Mark{Mark: string(letters[k]), Means: k, Class: "kind", Kind: k})
	}
	yes := Mark{Mark: "✓", Means: "yes, granted", Class: "yes"}
	if len(info.Answers) > 0 {
		k := info.Answers[0]
		l := string(letters[k])
		yes = Mark{Mark: l + "✓", Means: "yes, granted", Class: "yes", Kind: k}
		out = append(out, yes, Mark{Mark: l + "✗", Means: "no, refused", Class: "no", Kind: k})
	} else {
		out = append(out, yes)
	}
	if len(info.Kinds) > 0 {
		k := info.Kinds[0]
		out = append(out, Mark{Mark: string(letters[k]) + "8", Means: "carries 8", Class: "carries", Kind: k, When: "carries"},
			Mark{Mark: "hop 3", Means: "its hops, phase or round", Class: "count", When: "count"})
	}
	out = append(out, Mark{Mark: "✗", Means: "lost", Class: "lost"}, Mark{Mark: "╳", Means: "blocked", Class: "blocked"},
		Mark{Mark: "◔", Means: "timer: name, time left", Class: "timer"})
	if info.Groups {
		out = append(out, Mark{Mark: "•", Means: "member to its coordinator", Class: "group-line"})
	}
	return out
}

// The marks of a node beside report.StatusGlyph's: not started, and a node that is not a
// candidate (the lease's lock service).
const (
	NotStartedGlyph = "○"
	RoleGlyph       = "▣"
)

// marks is what a picture's packets are marked with, worked out once per algorithm.
type marks struct {
	info    *algo.Info
	letters map[string]rune
	plain   map[string]string // a kind's letter alone, as a string: the mark of most packets
	legend  []Mark
}

func (m *marks) of(info *algo.Info) *marks {
	if m.info != info {
		*m = marks{info: info, letters: KindLetters(info), plain: map[string]string{}, legend: Legend(info)}
		for k, r := range m.letters {
			m.plain[k] = string(r)
		}
	}
	return m
}

// packet returns the mark a packet is drawn with — its kind's letter, the id it carries, and ✓
// or ✗ for an answer (✓ alone for another kind's flag) — and its count: its hops and phase, in
// words, shown apart from the mark.
func (m *marks) packet(msg algo.Message) (mark, count string) {
	mark = m.plain[msg.Kind]
	if mark == "" {
		mark = "?"
	}
	answer := m.info.IsAnswer(msg.Kind)
	if msg.Value != 0 || msg.Flag || answer {
		var b strings.Builder
		b.WriteString(mark)
		if msg.Value != 0 {
			b.WriteString(strconv.FormatInt(int64(msg.Value), 10))
		}
		switch {
		case msg.Flag:
			b.WriteString("✓")
		case answer:
			b.WriteString("✗")
		}
		mark = b.String()
	}
	if msg.Phase != 0 || msg.Hop != 0 {
		var parts []string
		if msg.Phase != 0 {
			word := m.info.PhaseWord
			if word == "" {
				word = "phase"
			}
			parts = append(parts, word+" "+strconv.FormatUint(uint64(msg.Phase), 10))
		}
		if msg.Hop != 0 {
			parts = append(parts, "hop "+strconv.FormatUint(uint64(msg.Hop), 10))
		}
		count = strings.Join(parts, " · ")
	}
	return mark, count
}
