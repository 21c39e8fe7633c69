package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/scenarios"
	"electsim/sim"
	"electsim/sim/sweep"
)

// WriteSweepHeading writes what heads a sweep's table: the run every value is measured on —
// its algorithm, nodes, network, other parameters, actions and length — and how many runs.
func WriteSweepHeading(w io.Writer, p Palette, base sim.Config, param string, values []string, runs int) {
	fmt.Fprintln(w, p.Bold(fmt.Sprintf("electsim sweep · %s · %s · %s: %s",
		base.Algorithm.Name, nodesText(base.IDs), param, strings.Join(values, ", "))))
	parts := []string{fmt.Sprintf("%s a value, seeds %d..%d for each", human.Plural(runs, "run"), sweep.Seed(base.Seed, 0), sweep.Seed(base.Seed, runs-1))}
	parts = append(parts, networkParts(base.Network)...)
	for _, part := range paramParts(base) {
		if !strings.HasPrefix(part, param+" ") {
			parts = append(parts, part)
		}
	}
	parts = append(parts, "run "+algo.FormatDuration(base.RunFor), base.Engine.String()+" engine")
	fmt.Fprintln(w, strings.Join(parts, " · "))
	for _, a := range base.Actions {
		if a.Op != sim.Say && a.Op != sim.Break {
			fmt.Fprintln(w, p.Dim("  at "+scenarios.FormatAt(a)))
		}
	}
	fmt.Fprintln(w)
}

// SweepSetup writes in one line what every value of a sweep was run on, for its plot: "bully ·
// 5 nodes (1..5) · delay 5ms..80ms · run 5s · 100 runs a value, seeds 1..100 · at 2s crash 5".
func SweepSetup(base sim.Config, param string, runs int) string {
	parts := []string{base.Algorithm.Name, nodesText(base.IDs)}
	parts = append(parts, networkParts(base.Network)...)
	for _, part := range paramParts(base) {
		if !strings.HasPrefix(part, param+" ") {
			parts = append(parts, part)
		}
	}
	parts = append(parts, "run "+algo.FormatDuration(base.RunFor),
		fmt.Sprintf("%s a value, seeds %d..%d", human.Plural(runs, "run"), sweep.Seed(base.Seed, 0), sweep.Seed(base.Seed, runs-1)))
	for _, a := range base.Actions {
		if a.Op != sim.Say && a.Op != sim.Break {
			parts = append(parts, "at "+scenarios.FormatAt(a))
		}
	}
	return strings.Join(parts, " · ")
}

// SweepProgressText is the progress line of a sweep: "[#####.....] 340 of 1,000 runs".
func SweepProgressText(done, total int) string {
	return fmt.Sprintf("%s %s of %s runs", progressBar(int64(done), int64(total), 20), human.Thousands(int64(done)), human.Thousands(int64(total)))
}

// WriteSweep writes a sweep's table — one row per value: false suspicions per run, the time to
// recover from a leader crash, the time without a leader and with two (mean and 95th
// percentile), and the messages per second of the kinds sent — then what the columns mean.
func WriteSweep(w io.Writer, p Palette, res *sweep.Result) {
	kinds := sentKinds(res)
	head1 := []string{res.Param, "false suspicions", "", "recovery ms", "", "leaderless ms", "", "split brain ms", ""}
	head2 := []string{"", "mean", "p95", "mean", "p95", "mean", "p95", "mean", "p95"}
	if len(kinds) > 0 {
		head1 = append(head1, "messages per second")
		for range kinds[1:] {
			head1 = append(head1, "")
		}
	}
	for _, k := range kinds {
		head2 = append(head2, res.Kinds[k])
	}
	rows := [][]string{head1, head2}
	for _, r := range res.Rows {
		row := []string{r.Value}
		for _, s := range []sweep.Stat{r.FalseSuspicions, r.Recovery, r.Leaderless, r.SplitBrain} {
			row = append(row, statText(s.Mean, s.N), statText(s.P95, s.N))
		}
		for _, k := range kinds {
			row = append(row, fmt.Sprintf("%.1f", r.PerSecond[k]))
		}
		rows = append(rows, row)
	}
	writeSweepColumns(w, p, rows)
	fmt.Fprintln(w)
	for _, line := range sweepNotes(res) {
		fmt.Fprintln(w, p.Dim(line))
	}
}

// sentKinds returns the indices of the kinds some value's runs sent.
func sentKinds(res *sweep.Result) []int {
	var kinds []int
	for k := range res.Kinds {
		for _, r := range res.Rows {
			if r.PerSecond[k] > 0 {
				kinds = append(kinds, k)
				break
			}
		}
	}
	return kinds
}

// statText writes a mean or a percentile to one decimal, or "-" when there were no samples.
func statText(v float64, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", v)
}

// writeSweepColumns writes rows as columns two spaces apart, the first left-aligned and the others
// right-aligned; the first two rows are the heading, in bold. A heading cell that spans the
// empty cells after it is left-aligned over them.
func writeSweepColumns(w io.Writer, p Palette, rows [][]string) {
	width := make([]int, len(rows[1]))
	for _, row := range rows[1:] {
		for i, c := range row {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	spanEnd := func(row []string, i int) int { // the column after the empty ones following i
		j := i + 1
		for j < len(row) && row[j] == "" {
			j++
		}
		return j
	}
	head := rows[0]
	width[0] = max(width[0], len([]rune(head[0])))
	for i := 1; i < len(head); i = spanEnd(head, i) {
		j := spanEnd(head, i)
		span := -2
		for k := i; k < j; k++ {
			span += 2 + width[k]
		}
		if extra := len([]rune(head[i])) - span; extra > 0 { // the heading is wider than its columns: widen them
			for k := i; k < j; k++ {
				width[k] += extra / (j - i)
			}
			width[j-1] += extra % (j - i)
		}
	}
	for r, row := range rows {
		var b strings.Builder
		for i := 0; i < len(row); i++ {
			c := row[i]
			if r == 0 && i > 0 { // a spanning heading, left-aligned over its columns
				j := spanEnd(row, i)
				span := -2
				for k := i; k < j; k++ {
					span += 2 + width[k]
				}
				b.WriteString("  " + c + strings.Repeat(" ", max(span-len([]rune(c)), 0)))
				i = j - 1
				continue
			}
			pad := strings.Repeat(" ", max(width[i]-len([]rune(c)), 0))
			if i == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString("  " + pad + c)
			}
		}
		line := strings.TrimRight(b.String(), " ")
		if r < 2 {
			line = p.Bold(line)
		}
		fmt.Fprintln(w, line)
	}
}

// sweepNotes says what the columns mean, and how many leader crashes no leader followed.
func sweepNotes(res *sweep.Result) []string {
	notes := []string{
		"false suspicions: a node's own timer fired and it gave up the leader it named (became a candidate,",
		"  or named another) while that leader was alive, leading and reachable — not crashed, not paused,",
		"  not cut off by a partition or a cut link. Per run.",
		"recovery: from a leader's crash until every live node names one live leader again. Per crash.",
		"leaderless, split brain: time without an agreed leader, and with two or more leaders. Per run.",
		"messages per second: sent, per second of virtual time, the mean of the runs.",
	}
	for _, r := range res.Rows {
		if r.Unrecovered > 0 {
			notes = append(notes, fmt.Sprintf("%s=%s: %d of %d leader crashes had no agreed leader after them by the end of the run; recovery counts the others.",
				res.Param, r.Value, r.Unrecovered, r.Crashes))
		}
	}
	return notes
}

// SweepJSON is the object `electsim sweep --json` prints (docs/teaching.md).
type SweepJSON struct {
	Algorithm string         `json:"algorithm"`
	Param     string         `json:"param"`
	Runs      int            `json:"runs"`
	Rows      []sweepRowJSON `json:"rows"`
}

type sweepRowJSON struct {
	Value           string             `json:"value"`
	FalseSuspicions statJSON           `json:"false_suspicions"`
	RecoveryMS      statJSON           `json:"recovery_ms"`
	LeaderlessMS    statJSON           `json:"leaderless_ms"`
	SplitBrainMS    statJSON           `json:"split_brain_ms"`
	MessagesPerS    map[string]float64 `json:"messages_per_s"`
}

// statJSON is a mean and a 95th percentile, null when nothing was measured (no leader crashed).
type statJSON struct {
	Mean *float64 `json:"mean"`
	P95  *float64 `json:"p95"`
}

// SweepJSONOf returns the JSON of a sweep's result. Numbers are rounded to a thousandth; every
// kind of the algorithm is in messages_per_s, sent or not.
func SweepJSONOf(res *sweep.Result) SweepJSON {
	out := SweepJSON{Algorithm: res.Algorithm, Param: res.Param, Runs: res.Runs, Rows: []sweepRowJSON{}}
	stat := func(s sweep.Stat) statJSON {
		if s.N == 0 {
			return statJSON{}
		}
		mean, p95 := thousandth(s.Mean), thousandth(s.P95)
		return statJSON{Mean: &mean, P95: &p95}
	}
	for _, r := range res.Rows {
		row := sweepRowJSON{Value: r.Value, FalseSuspicions: stat(r.FalseSuspicions), RecoveryMS: stat(r.Recovery),
			LeaderlessMS: stat(r.Leaderless), SplitBrainMS: stat(r.SplitBrain), MessagesPerS: map[string]float64{}}
		for k, kind := range res.Kinds {
			row.MessagesPerS[kind] = thousandth(r.PerSecond[k])
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

func thousandth(v float64) float64 { return math.Round(v*1000) / 1000 }
