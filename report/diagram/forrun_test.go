package diagram_test

import (
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/report/diagram"
	"electsim/sim"
)

// A diagram's title is the scenario's or the algorithm's; its caption says the run's setup,
// the window shown when it is not the whole run, and the kinds left out.
func TestForRun(t *testing.T) {
	info, err := algo.Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig(info, 3)
	o := diagram.ForRun(cfg, "", "", 0, 0, nil)
	if o.Title != "electsim · bully" || !strings.HasPrefix(o.Caption, "bully · 3 nodes (1..3) · seed 1") ||
		!strings.HasSuffix(o.Caption, " · not shown: HEARTBEAT") {
		t.Errorf("title %q, caption %q", o.Title, o.Caption)
	}
	o = diagram.ForRun(cfg, "Two leaders", "split", 500*time.Millisecond, 0, []string{"ELECTION", "HEARTBEAT"})
	if o.Title != "Two leaders" || !strings.HasPrefix(o.Caption, "split · bully · ") ||
		!strings.HasSuffix(o.Caption, " · shown 500ms–5s · not shown: OK, COORDINATOR") {
		t.Errorf("title %q, caption %q", o.Title, o.Caption)
	}
}
