package web

import (
	"errors"

	"electsim/report"
	"electsim/session"
	"electsim/sim"
)

// row is one step of the event log as the page shows it (report.Describe, plain).
type row struct {
	Step    int      `json:"step"`
	At      int64    `json:"at"` // nanoseconds
	Who     string   `json:"who"`
	Event   string   `json:"event"`
	Parts   []string `json:"parts,omitempty"`
	Routine bool     `json:"routine,omitempty"`
	Say     string   `json:"say,omitempty"`   // a narration step's text
	Break   bool     `json:"break,omitempty"` // a break step
}

// view is what every answer of the API carries: the session as the page shows it.
type view struct {
	ID        string           `json:"id"`
	Gen       int              `json:"gen"` // changes when the run starts again: the page drops its log
	Title     string           `json:"title"`
	Name      string           `json:"name"` // the scenario's name, "" for a run the flags describe
	Algorithm string           `json:"algorithm"`
	Members   string           `json:"members"`
	Step      int              `json:"step"` // steps shown
	Time      int64            `json:"time"` // virtual time of the latest step shown
	RunFor    int64            `json:"runFor"`
	Done      bool             `json:"done"`
	AtBreak   bool             `json:"atBreak"`
	Picture   *session.Picture `json:"picture"`
	// From is the index of the first log row in Log: the page keeps its rows before From and
	// replaces the rest with Log.
	From      int      `json:"from"`
	Log       []row    `json:"log"`
	Narration []string `json:"narration"`
	Verdicts  []string `json:"verdicts,omitempty"` // the verdicts, once the run has ended
	// Groups is an algorithm of groups' groups (Invitation's: one coordinator each, by design,
	// not a split brain), as report.GroupsLines words them: before each fault, and now or at
	// the end.
	Groups []string `json:"groups,omitempty"`
	// GroupLines is set for an algorithm of groups (algo.Info.Groups): the canvas draws each
	// member's line to its coordinator, as the TUI's does.
	GroupLines bool     `json:"groupLines,omitempty"`
	Message    string   `json:"message,omitempty"` // what the request did: "crash 3 at 412ms"
	Kinds      []string `json:"kinds"`             // the algorithm's message kinds, for the filter
}

// viewOf describes ss for the page, with the log rows from index from (the rows the page has;
// a different generation than gen sends them all).
func viewOf(id string, ss *session.Session, sc scenarioInfo, gen, from int) *view {
	var p session.Picture
	ss.Picture(&p, 0) // linger 0: a drop is drawn at the step it happened, as the replay draws it
	steps := ss.Steps()
	if gen != ss.Generation() || from < 0 || from > len(steps) {
		from = 0
	}
	info := ss.Config().Algorithm
	v := &view{
		ID: id, Gen: ss.Generation(), Title: ss.Title(), Name: sc.name, Algorithm: info.Name,
		Members: ss.Members().String(), Step: len(steps), Time: int64(ss.Now()),
		RunFor: int64(ss.Config().RunFor), Done: ss.Done(), AtBreak: ss.AtBreak(), Picture: &p,
		From: from, Log: make([]row, 0, len(steps)-from), Narration: []string{},
	}
	for i := from; i < len(steps); i++ {
		v.Log = append(v.Log, rowOf(steps[i], ss))
	}
	if lines, _ := ss.Narration(); lines != nil {
		v.Narration = lines
	}
	if e := ss.Ending(); e != nil {
		v.Verdicts = verdictLines(e)
	}
	if info.Groups {
		v.Groups = report.GroupsLines(ss.Summary().Groups, ss.Done())
		v.GroupLines = true
	}
	v.Kinds = append([]string{}, info.Kinds...)
	return v
}

// rowOf describes one step for the log.
func rowOf(st session.Step, ss *session.Session) row {
	d := report.Describe(st.Records, ss.Config().Algorithm, report.Plain{})
	r := row{Step: d.Step, At: int64(d.At), Who: d.Who, Event: d.Event, Parts: d.Parts, Routine: st.Routine}
	switch first := st.Records[0]; first.Type {
	case sim.RecSay:
		r.Say = first.Action.Text
	case sim.RecBreak:
		r.Break = true
	}
	return r
}

// verdictLines is the verdicts on an ended run as report words them, without colour.
func verdictLines(e *session.Ending) []string {
	v := report.Judge(e.Summary, e.Results)
	return v.Lines(report.Plain{})
}

// refusal is the message of an action the session did not take, or "" if err is not one.
func refusal(err error) string {
	var r *session.Refused
	if errors.As(err, &r) || errors.Is(err, session.ErrOver) {
		return err.Error()
	}
	return ""
}
