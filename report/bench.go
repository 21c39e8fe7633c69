package report

import (
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/sim"
	"electsim/sim/bench"
)

// WriteBenchHeading writes what heads a bench's tables: the machine the figures come from.
func WriteBenchHeading(w io.Writer, p Palette) {
	fmt.Fprintln(w, p.Bold("electsim bench")+" · "+machine())
}

// machine describes where the figures come from: Go, the system, the cores.
func machine() string {
	return fmt.Sprintf("%s %s/%s · %d cores", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
}

// WriteBenchTitle writes the title of the table of algorithm name's elections: what the
// election measured is.
func WriteBenchTitle(w io.Writer, p Palette, name string) {
	fmt.Fprintf(w, "\n%s\n", p.Heading(benchTitle(name)))
}

func benchTitle(name string) string {
	switch name {
	case "bully":
		return "Bully — the top node down from time 0, every other node booting into an election"
	case "ring":
		return "Chang–Roberts — random ids round the ring, every node initiating, no ACKs"
	case "lowest-id":
		return "Lowest-ID — from boot to the first agreed leader"
	case "raft":
		return "Raft — from boot to the first agreed leader"
	}
	if a, err := algo.Lookup(name); err == nil && a.Summary != "" {
		return name + " — " + a.Summary
	}
	return name
}

// WriteBenchTable writes one algorithm's results: a row per size and engine with its messages
// by kind beside the theory's count (✓ when equal), the virtual time to the agreed leader and
// what the run cost; then a note on each run that was stopped or not run, and on the ring's
// average count.
func WriteBenchTable(w io.Writer, p Palette, rows []bench.Result) {
	if len(rows) == 0 {
		return
	}
	kinds := benchKinds(rows[0])
	theory := len(rows[0].Theory) > 0
	header := []string{"nodes", "engine"}
	for _, k := range kinds {
		if k == bench.Phases {
			k = phasesWord(rows[0].Algorithm)
		}
		header = append(header, k)
		if theory {
			header = append(header, "theory")
		}
	}
	header = append(header, "leader at", "procs", "wall", "msgs/s", "heap", "RSS")
	table := [][]string{header}
	var notes []string
	for _, r := range rows {
		table = append(table, benchRow(&r, kinds, theory))
		notes = append(notes, benchNotes(&r, rows[0].Engine)...)
	}
	writeColumns(w, table)
	for _, n := range notes {
		fmt.Fprintln(w, p.Dim("  "+n))
	}
}

// benchRow is one run's row of the table.
func benchRow(r *bench.Result, kinds []string, theory bool) []string {
	engine := r.Engine.String()
	if r.Worst {
		engine += ", " + worstName(r.Algorithm)
	}
	row := []string{human.Thousands(int64(r.Nodes)), engine}
	notRun := r.Steps == 0 && r.Stopped != ""
	for _, k := range kinds {
		th, ok := r.TheoryOf(k)
		if notRun {
			row = append(row, "—")
			switch {
			case !theory:
			case th.Bound > 0:
				row = append(row, "≤ "+human.Thousands(th.Bound))
			case th.Exact < 0 && th.Mean > 0:
				row = append(row, "≈ "+meanText(th.Mean))
			case th.Exact < 0:
				row = append(row, "—")
			default:
				row = append(row, human.Thousands(th.Exact))
			}
			continue
		}
		got := r.SentOf(k)
		row = append(row, human.Thousands(got))
		switch {
		case !theory:
		case !ok:
			row = append(row, "—")
		case th.Bound > 0 && got <= th.Bound:
			row = append(row, "≤ "+human.Thousands(th.Bound)+" ✓")
		case th.Bound > 0:
			row = append(row, "≤ "+human.Thousands(th.Bound)+" ✗")
		case th.Exact < 0 && th.Mean > 0:
			row = append(row, "≈ "+meanText(th.Mean))
		case th.Exact < 0:
			row = append(row, "—")
		case th.Exact == got:
			row = append(row, human.Thousands(th.Exact)+" ✓")
		default:
			row = append(row, human.Thousands(th.Exact)+" ✗")
		}
	}
	if notRun {
		return append(row, "—", "—", "not run", "—", "—", "—")
	}
	at := "—"
	if r.Elected >= 0 {
		at = human.Brief(r.Elected)
	}
	return append(row, at, strconv.Itoa(r.Procs), human.Wall(r.Wall), human.SI(r.DeliveredPerSecond()),
		memoryText(r.PeakHeap), memoryText(r.PeakRSS))
}

// benchNotes are what the table says under a run's row: why it stopped or was not run, and —
// once, for the first engine's rows — the ring's exact count beside its average.
func benchNotes(r *bench.Result, firstEngine sim.Engine) []string {
	var notes []string
	nodes := human.Thousands(int64(r.Nodes))
	switch {
	case r.Stopped == "":
	case r.Steps == 0:
		notes = append(notes, fmt.Sprintf("%s nodes, %s: %s", nodes, r.Engine, r.Stopped))
	default:
		notes = append(notes, fmt.Sprintf("%s nodes, %s: stopped — %s", nodes, r.Engine, r.Stopped))
	}
	if r.Runs > 1 && r.Engine == firstEngine {
		n := fmt.Sprintf("%s nodes: over %s seeds, %s messages on average", nodes, human.Thousands(int64(r.Runs)), meanText(r.MeanSent))
		th, ok := r.TheoryOf(bench.AllKinds)
		if ok && th.Mean > 0 {
			n += " (expected " + meanText(th.Mean) + ")"
		}
		if ok && th.Mean == 0 && th.Bound > 0 { // a count that varies with the schedule, under a bound
			n += fmt.Sprintf(", %s to %s", human.Thousands(r.MinSent), human.Thousands(r.MaxSent))
			if len(r.OverBound) == 0 {
				n += fmt.Sprintf("; each within its graph's bound %s (this one's: %s)", th.Note, human.Thousands(th.Bound))
			} else {
				n += fmt.Sprintf("; %s above their graph's bound %s", human.Plural(len(r.OverBound), "run"), th.Note)
			}
		}
		if r.MeanPhases > 0 {
			n += fmt.Sprintf(", %s %s", meanText(r.MeanPhases), phasesWord(r.Algorithm))
			if th, ok := r.TheoryOf(bench.Phases); ok && th.Mean > 0 {
				n += " (expected " + meanText(th.Mean) + ")"
			}
		}
		notes = append(notes, n)
	}
	for _, th := range r.Theory {
		if th.Mean > 0 && th.Exact >= 0 && r.Engine == firstEngine {
			notes = append(notes, fmt.Sprintf("%s nodes: %s %s — this ring's exact count; n·H_n = %s on average",
				nodes, human.Thousands(th.Exact), th.Kind, human.Thousands(int64(th.Mean+0.5))))
		}
	}
	return notes
}

// benchKinds are the kinds a table shows: those with a theory, else those sent at all.
func benchKinds(r bench.Result) []string {
	var kinds []string
	for _, th := range r.Theory {
		kinds = append(kinds, th.Kind)
	}
	if len(kinds) > 0 {
		return kinds
	}
	for i, k := range r.Kinds {
		if r.Sent[i] > 0 {
			kinds = append(kinds, k)
		}
	}
	return kinds
}

// phasesWord is what algorithm name calls its phases (algo.Info.PhaseWord), in the plural:
// "rounds" for Itai–Rodeh, "phases" for an algorithm without a word of its own.
func phasesWord(name string) string {
	if a, err := algo.Lookup(name); err == nil && a.PhaseWord != "" {
		return a.PhaseWord + "s"
	}
	return "phases"
}

// worstName is what algorithm name calls its worst-case ring order.
func worstName(name string) string {
	if a, err := algo.Lookup(name); err == nil && a.Theory != nil && a.Theory.WorstName != "" {
		return a.Theory.WorstName
	}
	return "worst-case ids"
}

// meanText writes a mean: to two decimals below 10, else whole, with thousands separated.
func meanText(x float64) string {
	if x < 10 {
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return human.Thousands(int64(x + 0.5))
}

// writeColumns writes rows as right-aligned columns (the first two left-aligned).
func writeColumns(w io.Writer, rows [][]string) {
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		b.WriteString("  ")
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			if i == 1 {
				b.WriteString(c + pad)
			} else {
				b.WriteString(pad + c)
			}
			b.WriteString("  ")
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// memoryText writes an amount of memory for the table: "12MB", "1.5MB", "512kB", or "—" when
// it is not known.
func memoryText(b uint64) string {
	switch {
	case b == 0:
		return "—"
	case b >= 10<<20:
		return fmt.Sprintf("%dMB", b>>20)
	case b >= 1000<<10:
		return fmt.Sprintf("%.1fMB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%dkB", b>>10)
}

// WriteBenchFootnote says what the table's columns of cost mean.
func WriteBenchFootnote(w io.Writer, p Palette) {
	fmt.Fprintln(w, p.Dim("\nprocs: GOMAXPROCS during the run (the goroutine engine runs one goroutine at a time: a second processor\nonly adds wake-ups); wall: setting up and running the election; heap: the most live heap and\ngoroutine stacks seen; RSS: the process's peak during the run."))
}

// BenchMisses lists the counts of results that differ from their exact theory, each with its
// run: "ring, 1,000 nodes, inline engine: ELECTION 999 ≠ 1,000".
func BenchMisses(results []bench.Result) []string {
	var misses []string
	for _, r := range results {
		for _, m := range r.Misses() {
			misses = append(misses, fmt.Sprintf("%s, %s nodes, %s engine: %s", r.Algorithm, human.Thousands(int64(r.Nodes)), r.Engine, m))
		}
	}
	return misses
}

// WriteBenchMisses writes, after the tables, that counts differ from their theory, and which.
func WriteBenchMisses(w io.Writer, p Palette, misses []string) {
	fmt.Fprintf(w, "\n%s a count differs from the theory — a bug in the algorithm, the engine or the oracle: %s\n",
		p.Red("✗"), strings.Join(misses, "; "))
}
