package check

import (
	"fmt"
	"slices"
	"strings"

	"electsim/algo"
	"electsim/sim"
)

// Column is a column of the property matrix: one fault class, or none, or crash+recover.
type Column struct {
	Name   string // "none", "crash", "crash+recover", "partition", "delay spike", "pause", "loss"
	Faults Faults
}

// Columns returns the columns of the matrix (docs/properties.md, "The matrix, in theory"), in its
// order.
func Columns() []Column {
	return []Column{
		{"none", None}, {"crash", Crash}, {"crash+recover", Crash | Recover}, {"partition", Partition},
		{"delay spike", Delay}, {"pause", Pause}, {"loss", Loss},
	}
}

// Verdict is what the theory says of a cell.
type Verdict uint8

// The verdicts of the theory: a property that holds under the faults, one that a schedule
// breaks, and a cell the theory leaves open ("-": reported, not asserted).
const (
	Open Verdict = iota
	Holds
	Breaks
)

// String returns "✓", "✗" or "-".
func (v Verdict) String() string {
	switch v {
	case Holds:
		return "✓"
	case Breaks:
		return "✗"
	}
	return "-"
}

// Row is a row of the property matrix: an algorithm, with some parameters, judged by one
// property.
type Row struct {
	Algorithm string
	Params    []Setting // parameters the row sets, beyond the defaults
	Property  string
	Theory    []Verdict // by column
}

// Setting is an algorithm parameter as the command line writes it: key=value.
type Setting struct{ Key, Value string }

// Label names the row: "raft (one-leader-per-term)", "lease, fencing off (no-stale-write)".
func (r *Row) Label() string {
	s := r.Algorithm
	for _, p := range r.Params {
		s += ", " + p.Key + " " + p.Value
	}
	return s + " (" + r.Property + ")"
}

// Rows returns the rows of the matrix: every registered algorithm's Guarantees, in the
// registry's order (docs/properties.md, "The matrix, in theory").
func Rows() []Row { return RowsOf(algo.Algorithms()) }

// RowsOf returns the rows the algorithms declare, in their order.
func RowsOf(algorithms []*algo.Info) []Row {
	var rows []Row
	for _, a := range algorithms {
		for _, g := range a.Guarantees {
			r := Row{Algorithm: a.Name, Property: g.Property}
			for _, kv := range g.Params {
				k, v, _ := strings.Cut(kv, "=")
				r.Params = append(r.Params, Setting{k, v})
			}
			for _, c := range g.Faults {
				switch c {
				case 'y':
					r.Theory = append(r.Theory, Holds)
				case 'n':
					r.Theory = append(r.Theory, Breaks)
				default:
					r.Theory = append(r.Theory, Open)
				}
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// Cell is one measured cell of the matrix.
type Cell struct {
	Column Column
	Theory Verdict
	Result Result
	// Smallest is the smallest counterexample the kept failures shrank to, and Failure the
	// run it came from; both nil when no run failed.
	Smallest *Counterexample
	Failure  *Failure
}

// Holds reports whether the property held in every run of the cell.
func (c *Cell) Holds() bool { return c.Result.Failed == 0 }

// Agrees reports whether the cell agrees with the theory: a ✓ held, a ✗ broke, a - either.
func (c *Cell) Agrees() bool {
	switch c.Theory {
	case Holds:
		return c.Holds()
	case Breaks:
		return !c.Holds()
	}
	return true
}

// MatrixOptions configure Matrix.
type MatrixOptions struct {
	// Base is the run of every cell: the nodes, network, engine, seed and run length (0: each
	// algorithm's default); its algorithm, parameters and actions are the rows' business.
	Base sim.Config
	// Algorithms, if set, are the algorithms whose rows are measured; nil is every registered.
	Algorithms []*algo.Info
	// Runs is the number of runs in each cell.
	Runs    int
	Workers int
	// Keep is how many failing runs of a cell are shrunk, for the smallest counterexample; 0 is 3.
	Keep         int
	ShrinkBudget int
	// Progress, if not nil, is called after each run: the cell (counted from 0 over the rows,
	// then the columns), the number of cells, and the runs done in the cell.
	Progress func(cell, cells, done int)
}

// Matrix is the property matrix as measured.
type Matrix struct {
	Rows    []Row
	Columns []Column
	Cells   [][]Cell // by row, then column
}

// MeasureMatrix runs every row × column: Runs runs a cell, each failing cell's first Keep
// failures shrunk. It errors, before running anything, when a row cannot run on the base (too
// few nodes for Lease, a run too short to settle).
func MeasureMatrix(opts MatrixOptions) (*Matrix, error) {
	if opts.Keep <= 0 {
		opts.Keep = 3
	}
	m := &Matrix{Rows: Rows(), Columns: Columns()}
	if opts.Algorithms != nil {
		m.Rows = RowsOf(opts.Algorithms)
	}
	var checks [][]*Check // by row, then column
	for r := range m.Rows {
		row := &m.Rows[r]
		info, err := algo.Lookup(row.Algorithm)
		if err != nil {
			return nil, err
		}
		base := opts.Base
		base.Algorithm, base.Params, base.Actions = info, algo.Params{}, nil
		if info.CheckTopology(base.Topology) != nil {
			base.Topology = sim.DefaultTopology(info) // each row on its algorithm's usual topology
		}
		for _, p := range row.Params {
			v, err := info.ParseParam(p.Key, p.Value)
			if err != nil {
				return nil, err
			}
			base.Params[p.Key] = v
		}
		checks = append(checks, make([]*Check, len(m.Columns)))
		for col, column := range m.Columns {
			c, err := New(Options{Base: base, Faults: column.Faults, Property: row.Property, Runs: opts.Runs,
				Workers: opts.Workers, Keep: opts.Keep, ShrinkBudget: opts.ShrinkBudget})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", row.Label(), err)
			}
			checks[r][col] = c
		}
	}
	cells := len(m.Rows) * len(m.Columns)
	for r, row := range m.Rows {
		m.Cells = append(m.Cells, make([]Cell, len(m.Columns)))
		for col, column := range m.Columns {
			c := checks[r][col]
			index := r*len(m.Columns) + col
			var progress func(done, failed int)
			if opts.Progress != nil {
				progress = func(done, _ int) { opts.Progress(index, cells, done) }
			}
			cell := Cell{Column: column, Theory: row.Theory[col], Result: c.Run(progress)}
			for i := range cell.Result.Failures {
				f := &cell.Result.Failures[i]
				cx := c.Shrink(*f)
				if cell.Smallest == nil || cx.Schedule.Size().Less(cell.Smallest.Schedule.Size()) {
					cell.Smallest, cell.Failure = &cx, f
				}
			}
			m.Cells[r][col] = cell
		}
	}
	return m, nil
}

// Agrees reports whether every cell agrees with the theory.
func (m *Matrix) Agrees() bool {
	for _, row := range m.Cells {
		if slices.ContainsFunc(row, func(c Cell) bool { return !c.Agrees() }) {
			return false
		}
	}
	return true
}
