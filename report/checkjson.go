package report

import (
	"time"

	"electsim/algo"
	"electsim/scenarios"
	"electsim/sim"
	"electsim/sim/check"
)

// CheckJSON is the object `electsim check --json` prints: what was checked, how many runs broke
// the property, the first that did — as drawn and shrunk — and the command that reproduces it.
type CheckJSON struct {
	Algorithm  string        `json:"algorithm"`
	IDs        []algo.ID     `json:"ids"`
	Faults     string        `json:"faults"`
	Property   string        `json:"property"`
	Seed       uint64        `json:"seed"`
	Runs       int           `json:"runs"`
	RunMS      float64       `json:"run_ms"`
	WindowMS   float64       `json:"window_ms"`
	SettleMS   float64       `json:"settle_ms"`
	Violations int           `json:"violations"`
	Halted     int           `json:"halted"`
	First      *failureJSON  `json:"first"`
	Shrunk     *scheduleJSON `json:"shrunk"`
	Reproduce  *string       `json:"reproduce"`
	Out        *string       `json:"out"`
	Wall       wallJSON      `json:"wall"`
}

type failureJSON struct {
	Run  int    `json:"run"`
	Seed uint64 `json:"seed"`
	scheduleJSON
}

type scheduleJSON struct {
	Size      sizeJSON      `json:"size"`
	IDs       []algo.ID     `json:"ids"`
	Actions   []string      `json:"actions"`
	Violation ViolationJSON `json:"violation"`
	Say       string        `json:"say,omitempty"`
	Runs      int           `json:"shrink_runs,omitempty"`
}

type sizeJSON struct {
	Actions int     `json:"actions"`
	Nodes   int     `json:"nodes"`
	RunMS   float64 `json:"run_ms"`
}

// wallJSON holds the figures that depend on the machine, not on the seed.
type wallJSON struct {
	Seconds    float64 `json:"seconds"`
	RunsPerSec float64 `json:"runs_per_sec"`
}

func wallOf(runs int, elapsed time.Duration) wallJSON {
	w := wallJSON{Seconds: elapsed.Seconds()}
	if elapsed > 0 {
		w.RunsPerSec = float64(runs) / elapsed.Seconds()
	}
	return w
}

func scheduleJSONOf(s check.Schedule, v sim.Violation) scheduleJSON {
	z := s.Size()
	out := scheduleJSON{Size: sizeJSON{z.Actions, z.Nodes, msOf(z.RunFor)}, IDs: s.IDs, Actions: []string{},
		Violation: violationJSONOf(v)}
	for _, a := range s.Actions {
		out.Actions = append(out.Actions, scenarios.FormatAt(a))
	}
	return out
}

func violationJSONOf(v sim.Violation) ViolationJSON {
	nodes := v.Nodes
	if nodes == nil {
		nodes = []algo.ID{}
	}
	return ViolationJSON{Property: v.Property, FromMS: msOf(v.From), ToMS: msOf(v.To), Nodes: nodes, Detail: v.Detail}
}

// CheckJSONOf returns the JSON object of check c, which injected faults and found res in
// elapsed wall-clock time: cx is its first failure shrunk (nil when none), reproduce the command
// that runs that failure again, and written the file it was written to ("" when none).
func CheckJSONOf(c *check.Check, faults check.Faults, res check.Result, cx *check.Counterexample, reproduce, written string, elapsed time.Duration) CheckJSON {
	cfg := c.Base()
	out := CheckJSON{Algorithm: cfg.Algorithm.Name, IDs: cfg.IDs, Faults: faults.String(), Property: c.Property(),
		Seed: cfg.Seed, Runs: res.Runs, RunMS: msOf(c.RunFor()), WindowMS: msOf(c.Window()), SettleMS: msOf(c.Settle()),
		Violations: res.Failed, Halted: res.Halted, Wall: wallOf(res.Runs, elapsed)}
	if cx != nil {
		f := res.Failures[0]
		out.First = &failureJSON{Run: f.Run, Seed: f.Seed, scheduleJSON: scheduleJSONOf(f.Schedule, f.Violation)}
		s := scheduleJSONOf(cx.Schedule, cx.Violation)
		s.Say, s.Runs = cx.Narration.Text, cx.Runs
		out.Shrunk = &s
		out.Reproduce = &reproduce
	}
	if written != "" {
		out.Out = &written
	}
	return out
}

// MatrixJSON is the object `electsim check --matrix --json` prints: every cell of the property
// matrix, what it measured beside what the theory says, and the command that reproduces each
// counterexample.
type MatrixJSON struct {
	IDs     []algo.ID       `json:"ids"`
	Seed    uint64          `json:"seed"`
	Runs    int             `json:"runs_per_cell"`
	Columns []string        `json:"columns"`
	Rows    []matrixRowJSON `json:"rows"`
	Agrees  bool            `json:"agrees"`
	Wall    wallJSON        `json:"wall"`
}

type matrixRowJSON struct {
	Algorithm string            `json:"algorithm"`
	Params    map[string]string `json:"params"`
	Property  string            `json:"property"`
	Cells     []matrixCellJSON  `json:"cells"`
}

type matrixCellJSON struct {
	Faults     string    `json:"faults"`
	Holds      bool      `json:"holds"`
	Theory     string    `json:"theory"`
	Agrees     bool      `json:"agrees"`
	Runs       int       `json:"runs"`
	Violations int       `json:"violations"`
	Smallest   *sizeJSON `json:"smallest"`
	Reproduce  *string   `json:"reproduce"`
}

// MatrixJSONOf returns the JSON object of matrix m, measured on the base run cfg with runs runs a
// cell in elapsed wall-clock time; commands gives, by row and column, the command that
// reproduces each failing cell's counterexample.
func MatrixJSONOf(m *check.Matrix, cfg sim.Config, runs int, commands [][]string, elapsed time.Duration) MatrixJSON {
	out := MatrixJSON{IDs: cfg.IDs, Seed: cfg.Seed, Runs: runs, Agrees: m.Agrees(),
		Wall: wallOf(runs*len(m.Rows)*len(m.Columns), elapsed)}
	for _, col := range m.Columns {
		out.Columns = append(out.Columns, col.Name)
	}
	for r, row := range m.Rows {
		rj := matrixRowJSON{Algorithm: row.Algorithm, Params: map[string]string{}, Property: row.Property}
		for _, s := range row.Params {
			rj.Params[s.Key] = s.Value
		}
		for col := range m.Columns {
			cell := &m.Cells[r][col]
			cj := matrixCellJSON{Faults: cell.Column.Faults.String(), Holds: cell.Holds(), Theory: cell.Theory.String(),
				Agrees: cell.Agrees(), Runs: cell.Result.Runs, Violations: cell.Result.Failed}
			if cell.Smallest != nil {
				z := cell.Smallest.Schedule.Size()
				cj.Smallest = &sizeJSON{z.Actions, z.Nodes, msOf(z.RunFor)}
				cmd := commands[r][col]
				cj.Reproduce = &cmd
			}
			rj.Cells = append(rj.Cells, cj)
		}
		out.Rows = append(out.Rows, rj)
	}
	return out
}
