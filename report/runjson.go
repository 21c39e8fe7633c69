package report

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"electsim/algo"
	"electsim/scenarios"
	"electsim/sim"
)

// RunJSON is the object `electsim run --json` prints: the run's setup, its messages by kind,
// the final state of its nodes, its metrics, its violations and its expectations. Its fields
// are written in this order, and scripts rely on them (README, "A worked example").
type RunJSON struct {
	Scenario     *string           `json:"scenario"`
	Algorithm    string            `json:"algorithm"`
	Engine       string            `json:"engine"`
	IDs          []algo.ID         `json:"ids"`
	Topology     TopologyJSON      `json:"topology"`
	Seed         uint64            `json:"seed"`
	EndMS        float64           `json:"end_ms"`
	Steps        int               `json:"steps"`
	Messages     messagesJSON      `json:"messages"`
	Final        finalJSON         `json:"final"`
	Metrics      metricsJSON       `json:"metrics"`
	Unfinished   int64             `json:"unfinished,omitempty"` // Verdicts.Unfinished: election messages in flight at the end, no leader agreed
	Groups       []GroupsJSON      `json:"groups,omitempty"`     // an algorithm of groups' (sim.Summary.Groups)
	Violations   []ViolationJSON   `json:"violations"`
	Expectations []ExpectationJSON `json:"expectations"`
}

// GroupsJSON is an algorithm of groups' groups at one moment: just before a fault (Before
// names it) or, last, at the end.
type GroupsJSON struct {
	AtMS    float64     `json:"at_ms"`
	Before  string      `json:"before,omitempty"`
	Groups  []GroupJSON `json:"groups"`
	Joining []algo.ID   `json:"joining,omitempty"`
}

// GroupJSON is one group: its coordinator, its counter, its members, and whether the
// coordinator leads it.
type GroupJSON struct {
	Coordinator algo.ID   `json:"coordinator"`
	Number      uint64    `json:"number"`
	Members     []algo.ID `json:"members"`
	Led         bool      `json:"led"`
}

// TopologyJSON is a run's topology: its name and, unless it is the complete graph (every pair),
// its edges — [a, b] lets a send to b on a directed topology (a ring's go round in ring order),
// and each send to the other on an undirected one.
type TopologyJSON struct {
	Name  string       `json:"name"`
	Edges [][2]algo.ID `json:"edges,omitempty"`
}

type messagesJSON struct {
	Sent      counts `json:"sent"`
	Delivered counts `json:"delivered"`
	Dropped   counts `json:"dropped"`
}

// counts is a JSON object of message counts keyed by kind, in the algorithm's order.
type counts struct {
	kinds []string
	n     []int64
}

func (c counts) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range c.kinds {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.WriteString(strconv.FormatInt(c.n[i], 10))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

type finalJSON struct {
	Leader *algo.ID  `json:"leader"`
	Nodes  nodesJSON `json:"nodes"`
}

// nodesJSON is a JSON object keyed by node id, ascending numerically.
type nodesJSON []sim.NodeView

type nodeJSON struct {
	Status string  `json:"status"`
	Leader algo.ID `json:"leader"`
	Term   uint64  `json:"term"`
	Role   string  `json:"role,omitempty"` // "lock service", "resource": not a candidate
}

func (ns nodesJSON) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, n := range ns {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + strconv.Itoa(int(n.ID)) + `":`)
		v, err := json.Marshal(nodeJSON{Status: n.Status.String(), Leader: n.Leader, Term: n.Term, Role: n.Role})
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

type metricsJSON struct {
	Elections     int       `json:"elections"`
	LeaderChanges int       `json:"leader_changes"`
	FirstLeaderMS *float64  `json:"first_leader_ms"`
	SplitBrainMS  float64   `json:"split_brain_ms"`
	LeaderlessMS  float64   `json:"leaderless_ms"`
	RecoveriesMS  []float64 `json:"recoveries_ms"`
}

// ViolationJSON is a violation of a property: which, from when to when, among which nodes.
type ViolationJSON struct {
	Property string    `json:"property"`
	FromMS   float64   `json:"from_ms"`
	ToMS     float64   `json:"to_ms"`
	Nodes    []algo.ID `json:"nodes"`
	Detail   string    `json:"detail,omitempty"`
}

// ExpectationJSON is the verdict on one of a scenario's expectations, at its line.
type ExpectationJSON struct {
	Line   int    `json:"line"`
	Text   string `json:"text"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

func msOf[D ~int64](d D) float64 { return float64(d) / 1e6 }

// RunJSONOf returns the JSON object of a finished run of the scenario named scenario (nil: a run the
// flags describe), with its expectations' results.
func RunJSONOf(scenario *string, sum sim.Summary, results []scenarios.Result) RunJSON {
	out := RunJSON{
		Scenario: scenario, Algorithm: sum.Algorithm, Engine: sum.Engine.String(), IDs: sum.IDs,
		Topology: TopologyJSON{Name: sum.Topology, Edges: sum.Edges},
		Seed:     sum.Seed, EndMS: msOf(sum.End), Steps: sum.Steps,
		Messages: messagesJSON{
			Sent:      counts{sum.Kinds, sum.Sent},
			Delivered: counts{sum.Kinds, sum.Delivered},
			Dropped:   counts{sum.Kinds, sum.Dropped},
		},
		Final: finalJSON{Nodes: nodesJSON(sum.Nodes)},
		Metrics: metricsJSON{
			Elections: sum.Elections, LeaderChanges: sum.LeaderChanges,
			SplitBrainMS: msOf(sum.SplitBrain), LeaderlessMS: msOf(sum.Leaderless),
			RecoveriesMS: []float64{},
		},
		Unfinished:   Judge(sum, results).Unfinished,
		Violations:   []ViolationJSON{},
		Expectations: []ExpectationJSON{},
	}
	if sum.Leader != 0 {
		l := sum.Leader
		out.Final.Leader = &l
	}
	if sum.FirstLeader >= 0 {
		f := msOf(sum.FirstLeader)
		out.Metrics.FirstLeaderMS = &f
	}
	for _, r := range sum.Recoveries {
		out.Metrics.RecoveriesMS = append(out.Metrics.RecoveriesMS, msOf(r))
	}
	for _, g := range sum.Groups {
		gj := GroupsJSON{AtMS: msOf(g.At), Before: g.Before, Groups: []GroupJSON{}, Joining: g.Joining}
		for _, x := range g.Groups {
			gj.Groups = append(gj.Groups, GroupJSON{Coordinator: x.Coordinator, Number: x.Number, Members: x.Members, Led: x.Led})
		}
		out.Groups = append(out.Groups, gj)
	}
	for _, r := range results {
		out.Expectations = append(out.Expectations, ExpectationJSON{Line: r.Line, Text: r.Expectation.String(),
			OK: r.OK, Detail: r.Detail})
	}
	for _, v := range sum.Violations {
		nodes := v.Nodes
		if nodes == nil {
			nodes = []algo.ID{}
		}
		out.Violations = append(out.Violations, ViolationJSON{Property: v.Property,
			FromMS: msOf(v.From), ToMS: msOf(v.To), Nodes: nodes, Detail: v.Detail})
	}
	return out
}

// WriteJSON writes v as JSON on one line, without HTML escaping.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
