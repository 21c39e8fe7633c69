package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeScenario writes src to a file in a fresh folder and returns its path.
func writeScenario(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A scenario with old Mac line endings (a carriage return alone) is run as written: its
// directives count, and its expectations are judged — here one fails, so the run exits 1.
func TestRunCROnlyFile(t *testing.T) {
	path := writeScenario(t, "mac.scn", "title Old Mac\ralgo ring\rnodes 3\rrun 1s\rexpect leader 1\rexpect no split-brain\r")
	code, out, errOut := call("run", path, "--no-color", "--quiet")
	if code != exitFailed || errOut != "" || !strings.Contains(out, "Summary — ring, 3 nodes, 1s of virtual time") ||
		!strings.Contains(out, "Expectations — 1 of 2 hold") || !strings.Contains(out, "✗ line 5") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

// hostile is text a shared scenario file could carry to retitle, clear or reorder a reader's
// terminal: an OSC title change ended by BEL, a clear-screen CSI, a C1 CSI and a right-to-left
// override.
const hostile = "\x1b]0;PWNED\x07x \x1b[2J \u009b31m \u202eevil"

// unsafeIn returns the first character of s a terminal would act on (besides the line feeds
// and the palette's own colours, which these tests turn off), or "" when there is none.
func unsafeIn(s string) string {
	for _, r := range s {
		switch {
		case r == '\n':
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return strconv.QuoteRune(r)
		}
	}
	return ""
}

// Text from a scenario file reaches the terminal written out, never as the escape sequences
// or bidirectional controls it holds: the title above the timeline (with and without colour),
// narration in the timeline, and the file's name wherever it is echoed.
func TestRunEscapesFileText(t *testing.T) {
	src := "title " + hostile + "\nalgo bully\nnodes 3\nrun 1s\nat 10ms say " + strconv.Quote(hostile) + "\nat 20ms break\nexpect no split-brain\n"
	path := writeScenario(t, "t.scn", src)
	for _, args := range [][]string{{"run", path, "--no-color"}, {"run", path}} {
		code, out, errOut := call(args...)
		if code != 0 || errOut != "" || unsafeIn(out) != "" {
			t.Errorf("%v: exit %d, stderr %q, unsafe %s in stdout:\n%s", args, code, errOut, unsafeIn(out), out)
		}
		if !strings.Contains(out, `\x1b]0;PWNED\x07x \x1b[2J \u009b31m \u202eevil — t`) {
			t.Errorf("%v: the title is not shown written out:\n%s", args, out)
		}
	}
	// The file's name, in the header and in every message that names it.
	dir := t.TempDir()
	named := filepath.Join(dir, "x\x1b]0;PWNED\x07\u202e.scn")
	if err := os.WriteFile(named, []byte("algo bully\nnodes 3\nfrob\nat 5s crash 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"run", named}, {"run", named + "x"}, {"run", dir + "/\x1b[2J/x.scn"}, {"run", "\x1b[2J"}} {
		code, out, errOut := call(args...)
		if code != exitBadUsage || out != "" || unsafeIn(errOut) != "" || !strings.Contains(errOut, `\x1b`) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if err := os.WriteFile(named, []byte("title ok\nalgo bully\nnodes 3\nrun 100ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := call("run", named, "--quiet")
	if code != 0 || unsafeIn(out+errOut) != "" {
		t.Errorf("a hostile file name: exit %d, unsafe %s:\n%s%s", code, unsafeIn(out+errOut), out, errOut)
	}
	// A flag that makes a line of the file wrong echoes the file's name.
	code, _, errOut = call("run", named, "--nodes", "2", "--at", "10ms crash 7")
	if code != exitBadUsage || unsafeIn(errOut) != "" {
		t.Errorf("a flag against a hostile file: exit %d, stderr %q", code, errOut)
	}
}

// The diagrams carry no control characters (XML forbids most of them) or bidirectional
// controls from a file: they are written out, as on the terminal.
func TestDiagramsEscapeFileText(t *testing.T) {
	src := "title " + hostile + "\nalgo bully\nnodes 3\nrun 300ms\nat 10ms say " + strconv.Quote(hostile+"\x00\ufffe") +
		"\nat 20ms partition 1 | 2 3\nat 30ms heal\nat 40ms break\n"
	dir := t.TempDir()
	path := filepath.Join(dir, "x\x1b]0;t\x07.scn")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	svg, mmd, shiviz := filepath.Join(dir, "d.svg"), filepath.Join(dir, "d.mmd"), filepath.Join(dir, "d.shiviz")
	code, _, errOut := call("run", path, "--quiet", "--svg", svg, "--mermaid", mmd, "--shiviz", shiviz)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []string{svg, mmd, shiviz} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if u := unsafeIn(string(b)); u != "" {
			t.Errorf("%s holds %s", filepath.Base(f), u)
		}
		if !strings.Contains(string(b), `PWNED\x07x`) || !strings.Contains(string(b), `\u202eevil`) || !strings.Contains(string(b), `\x00`) {
			t.Errorf("%s does not show the title or the narration written out", filepath.Base(f))
		}
	}
	if strings.Contains(string(must(os.ReadFile(svg))), "\ufffe") {
		t.Error("the SVG holds U+FFFE, which XML forbids")
	}
	if err := xml.Unmarshal(must(os.ReadFile(svg)), new(struct{})); err != nil {
		t.Errorf("the SVG is not XML: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// run reads a scenario file only if it is one, and only so much: /dev/zero, which never ends,
// and a file bigger than a scenario may be are refused at once, exit 2, naming the file (and
// the limit).
func TestRunRefusesUnboundedInput(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.scn")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(79 << 20)
	f.Close()
	for path, want := range map[string]string{
		"/dev/zero": "electsim run: /dev/zero: is a character device (such as /dev/null or a terminal), not a file: give a scenario file (.scn) or a bundled scenario's name\n",
		big:         "electsim run: " + big + ": it is 79 MB, and a scenario file may hold at most 4 MB (4194304 bytes); a scenario is a short text file (electsim scenarios --show NAME prints one)\n",
	} {
		code, out, errOut := call("run", path)
		if code != exitBadUsage || out != "" || errOut != want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", path, code, out, errOut)
		}
	}
}

// The diagrams hold what they draw, and no more than they can: a run whose diagram would draw
// more than maxDiagramRecords records stops there, exit 2, saying why and what to do, and
// leaves no file; drawn from a part of the run, the same diagram is made. A ShiViz log of more
// nodes than its vector clocks fit is refused before the run.
func TestDiagramsBounded(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "x.svg")
	code, _, errOut := call("run", "--algo", "bully", "--nodes", "5", "--run", "1000h", "--kinds", "all", "--svg", svg, "--quiet", "--engine", "inline")
	want := "electsim run: --svg " + svg + ": the diagram would draw more than 200,000 trace records — that many by 18m31s of virtual time, of the 1000h asked for: too many to draw, or to read; draw a part of the run (--from and --to) or fewer message kinds (--kinds)\n"
	if code != exitBadUsage || errOut != want {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if names := must(os.ReadDir(dir)); len(names) != 0 {
		t.Errorf("left %v", names)
	}
	// A part of a longer run — longer than the limit — keeps only the records of the part.
	code, _, errOut = call("run", "--algo", "bully", "--nodes", "5", "--run", "1500s", "--kinds", "all", "--from", "1200s", "--svg", svg, "--quiet", "--engine", "inline")
	if code != 0 || !strings.Contains(string(must(os.ReadFile(svg))), "1499950") {
		t.Errorf("a window of a long run: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut := call("run", "--algo", "ring", "--nodes", "10000", "--shiviz", svg)
	want = "electsim run: --shiviz " + svg + ": a ShiViz log of 10000 nodes keeps a vector clock of 10001 entries for each of them, more than the 20000000 entries a log may hold: it can show at most 4471 nodes (ShiViz itself shows a few dozen well)\n"
	if code != exitBadUsage || out != "" || errOut != want {
		t.Errorf("--shiviz among 10,000 nodes: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
