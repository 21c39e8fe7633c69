package web

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"electsim/algo"
	"electsim/report"
	"electsim/scenarios"
	"electsim/session"
	"electsim/sim"
)

// replayData is a whole run as the replay page plays it. The pictures are encoded once per
// change: each thing drawn — a node's state, a timer, a held input, a packet, a drop, a blocked
// link — is an item shown from one step to another, and the page draws at step i the items whose
// span holds i, at the instant it plays (a packet at its fraction, a timer's time left): the
// picture the live page gets from the server at that step and instant.
type replayData struct {
	Title     string `json:"title"`
	Name      string `json:"name"`
	Algorithm string `json:"algorithm"`
	Members   string `json:"members"`
	RunFor    int64  `json:"runFor"`
	Layout    string `json:"layout"`
	// Topology, Edges and Directed are the picture's: they do not change during a run.
	Topology string         `json:"topology,omitempty"`
	Edges    session.Links  `json:"edges,omitempty"`
	Directed bool           `json:"directed,omitempty"`
	Legend   []session.Mark `json:"legend"` // the picture's: it does not change during a run
	Kinds    []string       `json:"kinds"`
	Times    []int64        `json:"times"` // Times[i] is the time of step i; Times[0] is 0, before the first
	Log      []row          `json:"log"`   // Log[i] is step i+1
	Items    []item         `json:"items"`
	Verdicts []string       `json:"verdicts"`
	// Groups is an algorithm of groups' groups as the page lists them (view.Groups), from each
	// step at which they read differently.
	Groups     []replayGroups `json:"groups,omitempty"`
	GroupLines bool           `json:"groupLines,omitempty"` // as view.GroupLines
	SaveName   string         `json:"saveName"`             // the run as a scenario file, for the page's save
	SaveText   string         `json:"saveText"`
}

// replayGroups is the groups as listed from step Step on.
type replayGroups struct {
	Step  int      `json:"step"`
	Lines []string `json:"lines"`
}

// item is one thing drawn, from step A to step B, both included.
type item struct {
	K string          `json:"k"` // n node, t timer, h held, p packet, d drop, b blocked, g groups, s split brain
	A int             `json:"a"`
	B int             `json:"b"`
	V json.RawMessage `json:"v"`
}

// timerItem is a node's pending timer, by when it fires: the page draws fires − instant left.
type timerItem struct {
	Node  algo.ID `json:"node,string"`
	Name  string  `json:"name"`
	Fires int64   `json:"fires"`
	Total int64   `json:"total"`
}

// heldItem is an input a paused node holds, at its place in the node's queue.
type heldItem struct {
	Node  algo.ID      `json:"node,string"`
	Index int          `json:"i"`
	Held  session.Held `json:"held"`
}

// nodeItem is a node's state and place, in ring order (Order).
type nodeItem struct {
	session.PicNode
	Order int `json:"order"`
}

// maxReplaySteps bounds a replay: a run longer than this is cut, and says so.
const maxReplaySteps = 200_000

// WriteReplay plays the run cfg describes (sc: the scenario it comes from, or nil) to its end,
// and writes it to w as one self-contained HTML page: the page's script and styles inline, the
// run gzip-compressed inside. It opens from file:// without a network.
func WriteReplay(w io.Writer, cfg sim.Config, sc *scenarios.Scenario) error {
	data, err := replayOf(cfg, sc)
	if err != nil {
		return err
	}
	return writeReplayPage(w, data)
}

// replayOf plays the run and encodes every step's picture.
func replayOf(cfg sim.Config, sc *scenarios.Scenario) (*replayData, error) {
	if sc != nil && sc.Name == "" {
		sc = nil // a run the flags describe: no title, narration nor expectations of its own
	}
	ss, err := session.New(cfg, sc)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	name := ""
	if sc != nil {
		name = sc.Name
	}
	d := &replayData{Title: ss.Title(), Name: name, Algorithm: cfg.Algorithm.Name, Members: ss.Members().String(),
		RunFor: int64(ss.Config().RunFor), Kinds: append([]string{}, cfg.Algorithm.Kinds...), Verdicts: []string{},
		GroupLines: cfg.Algorithm.Groups}
	enc := newSpans()
	var p session.Picture
	for step := 0; ; step++ {
		ss.Picture(&p, 0)
		d.Layout, d.Topology, d.Edges, d.Directed, d.Legend = p.Layout, p.Topology, p.Edges, p.Directed, p.Legend
		d.Times = append(d.Times, int64(p.At))
		if err := enc.add(step, &p); err != nil {
			return nil, err
		}
		if cfg.Algorithm.Groups {
			d.addGroups(step, report.GroupsLines(ss.Summary().Groups, ss.Done()))
		}
		if step == maxReplaySteps {
			break
		}
		st, ok := ss.Next()
		if !ok {
			break
		}
		d.Log = append(d.Log, rowOf(st, ss))
	}
	if cfg.Algorithm.Groups { // the last step's again, now that the run is known to be over
		d.addGroups(len(d.Times)-1, report.GroupsLines(ss.Summary().Groups, ss.Done()))
	}
	if e := ss.Ending(); e != nil {
		d.Verdicts = verdictLines(e)
	} else {
		d.Verdicts = []string{fmt.Sprintf("This replay holds the first %d steps of a longer run, to %s of virtual time: electsim run plays it whole.",
			maxReplaySteps, algo.FormatDuration(ss.Now()))}
	}
	d.SaveName = ss.SaveName()
	d.SaveText = ss.File(d.SaveName, "electsim run --html")
	d.Items = enc.done()
	return d, nil
}

// spans turns each step's picture into items that span the steps they are drawn in.
type spans struct {
	open  map[string]int // an item's key → its index in items, while it is drawn
	items []item
	step  int
	buf   bytes.Buffer
}

func newSpans() *spans { return &spans{open: map[string]int{}} }

// add records the things drawn at step.
func (s *spans) add(step int, p *session.Picture) error {
	s.step = step
	for i, n := range p.Nodes {
		for _, t := range n.Timers {
			if err := s.put("t", timerItem{n.ID, t.Name, int64(t.Fires), int64(t.Total)}); err != nil {
				return err
			}
		}
		for j, h := range n.Held {
			if err := s.put("h", heldItem{n.ID, j, h}); err != nil {
				return err
			}
		}
		n.Timers, n.Held = nil, nil
		if err := s.put("n", nodeItem{n, i}); err != nil {
			return err
		}
	}
	for _, pk := range p.Packets {
		pk.Fraction, pk.Others, pk.Newest = 0, 0, false // the page works them out at its instant
		if err := s.put("p", pk); err != nil {
			return err
		}
	}
	for _, dr := range p.Drops {
		if err := s.put("d", dr); err != nil {
			return err
		}
	}
	for _, b := range p.Blocked {
		if err := s.put("b", b); err != nil {
			return err
		}
	}
	if p.Groups > 0 {
		if err := s.put("g", map[string]int{"groups": p.Groups}); err != nil {
			return err
		}
	}
	if len(p.SplitBrain) > 0 {
		if err := s.put("s", p.SplitBrain); err != nil {
			return err
		}
	}
	return nil
}

// put draws one thing at the current step: it extends its item from the step before, or starts one.
func (s *spans) put(kind string, v any) error {
	s.buf.Reset()
	if err := json.NewEncoder(&s.buf).Encode(v); err != nil {
		return fmt.Errorf("encoding the replay: %w", err)
	}
	raw := bytes.TrimSpace(s.buf.Bytes())
	key := kind + string(raw)
	if i, ok := s.open[key]; ok && s.items[i].B == s.step-1 {
		s.items[i].B = s.step
		return nil
	}
	s.open[key] = len(s.items)
	s.items = append(s.items, item{K: kind, A: s.step, B: s.step, V: json.RawMessage(slices.Clone(raw))})
	return nil
}

func (s *spans) done() []item { return s.items }

// writeReplayPage writes the page with data inside.
func writeReplayPage(w io.Writer, data *replayData) error {
	var js bytes.Buffer
	if err := json.NewEncoder(&js).Encode(data); err != nil {
		return fmt.Errorf("encoding the replay: %w", err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.ModTime = time.Time{} // the same run writes the same file
	if _, err := zw.Write(js.Bytes()); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	page, err := inlinePage()
	if err != nil {
		return err
	}
	blob := `<script type="application/octet-stream" id="replay" data-encoding="gzip+base64">` +
		base64.StdEncoding.EncodeToString(gz.Bytes()) + "</script>\n"
	page = strings.Replace(page, "<!--replay-->", blob, 1)
	_, err = io.WriteString(w, page)
	return err
}

// addGroups notes the groups as listed from step on, unless they read as they did before it;
// a second note of one step replaces the first.
func (d *replayData) addGroups(step int, lines []string) {
	n := len(d.Groups)
	if n > 0 && slices.Equal(d.Groups[n-1].Lines, lines) {
		return
	}
	if n > 0 && d.Groups[n-1].Step == step {
		d.Groups[n-1].Lines = lines
		return
	}
	d.Groups = append(d.Groups, replayGroups{Step: step, Lines: lines})
}
