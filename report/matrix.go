package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"electsim/internal/human"
	"electsim/sim"
	"electsim/sim/check"
)

// WriteMatrix writes the property matrix m, measured on the base run cfg with runs runs a cell:
// its setup, the table of cells, how it compares with the theory (docs/properties.md), and
// each counterexample with the command that reproduces it (commands, by row and column).
func WriteMatrix(w io.Writer, p Palette, m *check.Matrix, cfg sim.Config, runs int, commands [][]string) {
	parts := []string{"electsim check --matrix", nodesText(cfg.IDs),
		fmt.Sprintf("%s a cell from seed %d", human.Plural(runs, "run"), cfg.Seed)}
	parts = append(parts, networkParts(cfg.Network)...)
	if cfg.RunFor > 0 {
		parts = append(parts, "run "+human.Seconds(cfg.RunFor))
	}
	parts = append(parts, cfg.Engine.String()+" engine")
	fmt.Fprintln(w, p.Bold(strings.Join(parts, " · ")))
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Does the property hold under the fault? ✓ it held in every run; ✗ N: a run broke it, and")
	fmt.Fprintln(w, "shrinking left N actions; ! the theory (docs/properties.md) says otherwise.")
	fmt.Fprintln(w)
	disagree, open := writeMatrixTable(w, p, m)
	fmt.Fprintln(w)
	writeTheory(w, p, disagree, open, runs)
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.Heading("Counterexamples")+" — the smallest of each cell's first failing runs, shrunk; the command")
	fmt.Fprintln(w, "reproduces it, and with --out FILE writes it as a scenario")
	for r, row := range m.Rows {
		for col := range m.Columns {
			cell := &m.Cells[r][col]
			if cell.Smallest == nil {
				continue
			}
			fmt.Fprintf(w, "  %s × %s: broken in %d of %d runs; %s\n", row.Label(), cell.Column.Name,
				cell.Result.Failed, cell.Result.Runs, cell.Smallest.Schedule.Size())
			fmt.Fprintf(w, "    %s\n", p.Dim(commands[r][col]))
		}
	}
}

// writeMatrixTable writes the matrix as a table — a row an algorithm and property, a column a
// fault class — and returns the cells that disagree with the theory and, by row, those it
// leaves open, as measured.
func writeMatrixTable(w io.Writer, p Palette, m *check.Matrix) (disagree, open []string) {
	labelWidth := 0
	for _, row := range m.Rows {
		labelWidth = max(labelWidth, utf8.RuneCountInString(row.Label()))
	}
	widths := make([]int, len(m.Columns))
	header := padRight("", labelWidth)
	for i, col := range m.Columns {
		widths[i] = max(utf8.RuneCountInString(col.Name), 5)
		header += "  " + padRight(col.Name, widths[i])
	}
	fmt.Fprintln(w, p.Dim(strings.TrimRight(header, " ")))
	for r, row := range m.Rows {
		var opens []string
		line := padRight(row.Label(), labelWidth)
		for col := range m.Columns {
			cell := &m.Cells[r][col]
			text := "✓"
			if !cell.Holds() {
				text = fmt.Sprintf("✗ %d", cell.Smallest.Schedule.Size().Actions)
			}
			if !cell.Agrees() {
				disagree = append(disagree, fmt.Sprintf("%s × %s: measured %s, the theory says %s", row.Label(), cell.Column.Name, text, cell.Theory))
				text += " !"
			}
			if cell.Theory == check.Open {
				opens = append(opens, cell.Column.Name+" "+strings.TrimSuffix(text, " !"))
			}
			line += "  " + cellStyle(p, cell)(padRight(text, widths[col]))
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
		if len(opens) > 0 {
			open = append(open, row.Label()+": "+strings.Join(opens, ", "))
		}
	}
	return disagree, open
}

// cellStyle is how a cell is coloured: green when the property held, red when a run broke it,
// bold red when that is not what the theory says.
func cellStyle(p Palette, cell *check.Cell) func(string) string {
	switch {
	case !cell.Agrees():
		return func(s string) string { return p.Bold(p.Red(s)) }
	case cell.Holds():
		return p.Green
	}
	return p.Red
}

// writeTheory says whether every cell the theory decides agrees with it, and lists the cells
// it leaves open (open) or those that disagree (disagree).
func writeTheory(w io.Writer, p Palette, disagree, open []string, runs int) {
	if len(disagree) == 0 {
		fmt.Fprintln(w, "Every cell the theory (docs/properties.md) decides agrees with it.")
		if len(open) > 0 {
			fmt.Fprintln(w, "It leaves these open; as measured:")
		}
		for _, o := range open {
			fmt.Fprintln(w, "  "+o)
		}
		return
	}
	fmt.Fprintln(w, p.Red(fmt.Sprintf("%s disagree with the theory (docs/properties.md):", human.Plural(len(disagree), "cell"))))
	for _, d := range disagree {
		fmt.Fprintln(w, "  "+d)
	}
	if runs < 100 {
		fmt.Fprintf(w, "  With %s a cell, a ✗ can go unseen: a fault class breaks a property in some runs, not all.\n", human.Plural(runs, "run"))
		fmt.Fprintf(w, "  Try the default, %d runs a cell.\n", check.DefaultMatrixRuns)
	}
}

// padRight pads s with spaces to width runes.
func padRight(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}
