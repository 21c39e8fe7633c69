package session

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/report"
	"electsim/scenarios"
	"electsim/sim"
)

const ms = time.Millisecond

// open returns a session of a bundled scenario on the inline engine, changed by change.
func open(t testing.TB, name string, change func(*sim.Config)) *Session {
	t.Helper()
	sc, err := scenarios.LoadBundled(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.Engine = sim.Inline
	if change != nil {
		change(&cfg)
	}
	s, err := New(cfg, sc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// next takes n steps.
func next(t testing.TB, s *Session, n int) {
	t.Helper()
	for range n {
		if _, ok := s.Next(); !ok {
			t.Fatalf("the run ended at step %d", len(s.Steps()))
		}
	}
}

func jsonl(recs []sim.Record) string {
	var b bytes.Buffer
	for i := range recs {
		b.Write(report.AppendJSON(nil, &recs[i]))
		b.WriteByte('\n')
	}
	return b.String()
}

// fresh returns the run a session shows, replayed from the start with its trace: the scenario
// with the user's actions.
func fresh(t testing.TB, s *Session) *sim.Sim {
	t.Helper()
	cfg := s.Config()
	cfg.Actions = append(slices.Clone(cfg.Actions), s.User()...)
	cfg.Trace, cfg.Engine = true, sim.Inline
	r, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// sameAsFresh says how the session differs from a fresh replay of it — its steps record by
// record, its nodes, time and summary — or returns "".
func sameAsFresh(t testing.TB, s *Session) string {
	r := fresh(t, s)
	for i, st := range s.Steps() {
		step, ok := r.Step()
		if !ok {
			return fmt.Sprintf("the fresh run ended at step %d of %d", i, len(s.Steps()))
		}
		if got, want := jsonl(st.Records), jsonl(step.Records); got != want {
			return fmt.Sprintf("step %d differs:\nsession %s\nfresh   %s", i+1, got, want)
		}
	}
	if _, more := r.Step(); s.Done() && more { // the session's run has ended: so must the fresh one
		return fmt.Sprintf("at step %d: the session's run is over, the fresh run goes on", len(s.Steps()))
	} else if more {
		r = fresh(t, s)
		for range s.Steps() {
			r.Step()
		}
	}
	if !slices.Equal(s.Nodes(), r.Nodes()) || s.Now() != r.Now() {
		return fmt.Sprintf("at step %d: nodes %v at %v, fresh %v at %v", len(s.Steps()), s.Nodes(), s.Now(), r.Nodes(), r.Now())
	}
	got, want := s.Summary(), r.Summary()
	got.Engine = want.Engine
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Sprintf("summary:\n%v\nfresh:\n%v", got, want)
	}
	return ""
}

// A session shows its steps one by one; a step back is exactly the state shown then; the steps
// stepped back over come again going forward.
func TestNextAndBack(t *testing.T) {
	s := open(t, "bully-leader-crash", nil)
	type snap struct {
		now   time.Duration
		nodes []sim.NodeView
		sum   string
	}
	shot := func() snap { return snap{s.Now(), s.Nodes(), fmt.Sprint(s.Summary())} }
	var shots []snap
	for range 40 {
		shots = append(shots, shot())
		next(t, s, 1)
	}
	for i := len(shots) - 1; i >= 0; i -= 3 {
		if err := s.Back(len(s.Steps()) - i); err != nil {
			t.Fatal(err)
		}
		if got := shot(); got.now != shots[i].now || !slices.Equal(got.nodes, shots[i].nodes) || got.sum != shots[i].sum {
			t.Fatalf("back to step %d: %v %v, shown then %v %v", i, got.now, got.nodes, shots[i].now, shots[i].nodes)
		}
	}
	next(t, s, 50)
	shown := len(s.Steps())
	for _, n := range []int{0, -3} {
		if err := s.Back(n); err != nil || len(s.Steps()) != shown {
			t.Errorf("Back(%d): %v, at step %d", n, err, len(s.Steps()))
		}
	}
	if why := sameAsFresh(t, s); why != "" {
		t.Error(why)
	}
	if err := s.Back(1000); err != nil || len(s.Steps()) != 0 || s.Now() != 0 {
		t.Errorf("back past the start: %v, at step %d", err, len(s.Steps()))
	}
}

// NextBy takes the steps due by a virtual time, and no more: playing time continuously.
func TestNextBy(t *testing.T) {
	s := open(t, "bully-boot", func(c *sim.Config) { c.Actions = nil })
	n := 0
	for {
		st, ok := s.NextBy(10 * ms)
		if !ok {
			break
		}
		if st.Records[0].At > 10*ms {
			t.Fatalf("a step at %v, after 10ms", st.Records[0].At)
		}
		n++
	}
	if s.Now() != 10*ms || s.Done() {
		t.Fatalf("after NextBy(10ms): at %v, done %v", s.Now(), s.Done())
	}
	st, ok := s.Next()
	if !ok || st.Records[0].At <= 10*ms {
		t.Errorf("the next step is at %v", st.Records[0].At)
	}
	r := fresh(t, s)
	want := 0
	for {
		if _, ok := r.StepUntil(10 * ms); !ok {
			break
		}
		want++
	}
	if n != want || want == 0 {
		t.Errorf("%d steps by 10ms, want %d", n, want)
	}
}

// The narration is every say of the latest instant that had any; Says is its history.
func TestNarration(t *testing.T) {
	s := open(t, "bully-leader-crash", nil)
	if says, _ := s.Narration(); says != nil {
		t.Errorf("narration before any say: %q", says)
	}
	for s.Now() < 1250*ms || !s.AtBreak() {
		next(t, s, 1)
	}
	says, at := s.Narration()
	if at != 1250*ms || len(says) != 2 || !strings.HasPrefix(says[0], "After 150ms without a heartbeat") {
		t.Errorf("narration at %v: %q", at, says)
	}
	if n := len(s.Says()); n != 5 {
		t.Errorf("%d says so far, want 5", n)
	}
	for _, i := range s.Says() {
		if r := s.Steps()[i].Records[0]; r.Type != sim.RecSay {
			t.Errorf("Says names step %d, a %s", i+1, r.Type)
		}
	}
}

// At the end of the run, Ending has the verdicts: the summary's, and the scenario's
// expectations judged on the run with the user's actions. Before the end, it is nil.
func TestEnding(t *testing.T) {
	s := open(t, "bully-leader-crash", nil)
	for !s.AtBreak() || s.Now() < 1000*ms {
		next(t, s, 1)
	}
	if s.Ending() != nil {
		t.Fatal("an ending before the end")
	}
	if _, err := s.Act(sim.Action{Op: sim.Crash, Nodes: []algo.ID{4}}, false); err != nil {
		t.Fatal(err)
	}
	for {
		if _, ok := s.Next(); !ok {
			break
		}
	}
	e := s.Ending()
	if e == nil || e.Summary.End != 2*time.Second || len(e.Results) != 4 {
		t.Fatalf("ending %+v", e)
	}
	var failed []string
	for _, r := range e.Results {
		if !r.OK {
			failed = append(failed, r.Expectation.String())
		}
	}
	if !slices.Equal(failed, []string{"expect leader 4 by 1500ms"}) {
		t.Errorf("failed expectations %q", failed)
	}
	if _, err := s.Act(sim.Action{Op: sim.Crash, Nodes: []algo.ID{1}}, false); !errors.Is(err, ErrOver) {
		t.Errorf("acting at the end: %v, want ErrOver", err)
	}
	if err := s.Back(1); err != nil || s.Ending() != nil {
		t.Errorf("a step back from the end: %v, ending %v", err, s.Ending())
	}
}

// Restart forgets the user's actions and every step, and a new generation begins.
func TestRestart(t *testing.T) {
	s := open(t, "bully-boot", nil)
	next(t, s, 12)
	if _, err := s.Act(sim.Action{Op: sim.Crash, Nodes: []algo.ID{1}}, false); err != nil {
		t.Fatal(err)
	}
	gen := s.Generation()
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	if len(s.Steps()) != 0 || len(s.User()) != 0 || s.Now() != 0 || s.Generation() == gen {
		t.Errorf("after Restart: %d steps, user %v, at %v, generation %d (was %d)", len(s.Steps()), s.User(), s.Now(), s.Generation(), gen)
	}
	next(t, s, 30)
	if why := sameAsFresh(t, s); why != "" {
		t.Error(why)
	}
}

// The title is the scenario's, or for a run the flags describe its algorithm and nodes; the
// file a session is saved to is named after the scenario.
func TestTitleAndSaveName(t *testing.T) {
	s := open(t, "bully-boot", nil)
	if s.Title() != "Bully at boot: counting an election's messages" || s.SaveName() != "bully-boot-session.scn" {
		t.Errorf("title %q, save name %q", s.Title(), s.SaveName())
	}
	info, err := algo.Lookup("ring")
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(sim.DefaultConfig(info, 7), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Title() != "ring, 7 nodes (1..7)" || r.SaveName() != "session.scn" {
		t.Errorf("title %q, save name %q", r.Title(), r.SaveName())
	}
}

// A saved session is the scenario with the user's actions at their times, which electsim run
// replays to the same trace, with a comment saying what was done.
func TestFileReplaysTheSession(t *testing.T) {
	s := open(t, "bully-leader-crash", nil)
	next(t, s, 30)
	for _, a := range []sim.Action{{Op: sim.Crash, Nodes: []algo.ID{3}}, {Op: sim.Partition, Groups: [][]algo.ID{{1}, {2, 4}}}} {
		if _, err := s.Act(a, false); err != nil {
			t.Fatal(err)
		}
		next(t, s, 25)
	}
	text := s.File("lesson", "electsim tui")
	for _, want := range []string{"# A session of electsim tui: bully-leader-crash, with these actions taken in it:\n",
		"#   at 21ms crash 3\n", "may no longer match", "\nexpect leader 4 by 1500ms\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("the file lacks %q:\n%s", want, text)
		}
	}
	sc, err := scenarios.Parse("lesson.scn", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Title != "Bully: the leader crashes (a saved session)" {
		t.Errorf("title %q", sc.Title)
	}
	cfg := sc.Config()
	cfg.Trace, cfg.Engine = true, sim.Inline
	r, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i, st := range s.Steps() {
		step, ok := r.Step()
		if !ok || jsonl(step.Records) != jsonl(st.Records) {
			t.Fatalf("the saved session differs at step %d", i+1)
		}
	}
}
