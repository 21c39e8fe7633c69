package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"electsim/internal/goldenfile"
)

// --svg, --mermaid and --shiviz write whole files, leave no temporary file behind, and change
// nothing else the run prints.
func TestDiagramFiles(t *testing.T) {
	dir := t.TempDir()
	svg, md, mmd, log := filepath.Join(dir, "r.svg"), filepath.Join(dir, "r.md"), filepath.Join(dir, "r.mmd"), filepath.Join(dir, "r.log")
	code, out, errOut := call("run", "bully-recovery", "--quiet", "--svg", svg, "--mermaid", md, "--shiviz", log)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	_, plain, _ := call("run", "bully-recovery", "--quiet")
	if out != plain {
		t.Errorf("the diagrams changed what the run prints")
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b, new(struct{})); err != nil || !strings.HasPrefix(string(b), "<svg ") {
		t.Errorf("--svg: %v: %.100s", err, b)
	}
	if !strings.Contains(string(b), "Bully: the old leader recovers and bullies its way back") {
		t.Errorf("--svg: the scenario's title is missing")
	}
	b, _ = os.ReadFile(md)
	if !strings.HasPrefix(string(b), "```mermaid\nsequenceDiagram\n") || !strings.HasSuffix(string(b), "\n```\n") {
		t.Errorf("--mermaid FILE.md: not a ```mermaid block: %.60q … %q", b, b[max(0, len(b)-20):])
	}
	if code, _, errOut := call("run", "bully-recovery", "--quiet", "--mermaid", mmd); code != 0 {
		t.Fatalf("--mermaid %s: exit %d: %s", mmd, code, errOut)
	}
	b, _ = os.ReadFile(mmd)
	if !strings.HasPrefix(string(b), "sequenceDiagram\n") {
		t.Errorf("--mermaid FILE.mmd: %.60q", b)
	}
	b, _ = os.ReadFile(log)
	if !strings.HasPrefix(string(b), `(?<event>.*)\n(?<host>\S*) (?<clock>{.*})`+"\n\n") {
		t.Errorf("--shiviz: %.80q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("the directory holds %d files, want the 4 diagrams (no temporary files)", len(entries))
	}
	// A diagram to stdout comes alone.
	code, out, _ = call("run", "bully-recovery", "--mermaid", "-")
	if code != 0 || !strings.HasPrefix(out, "sequenceDiagram\n") || strings.Contains(out, "Summary") {
		t.Errorf("--mermaid -: exit %d: %.200s", code, out)
	}
	// The bare command takes the flags too; the demo's expectations still decide the exit code.
	if code, _, errOut := call("--quiet", "--svg", filepath.Join(dir, "demo.svg")); code != 0 || errOut != "" {
		t.Errorf("electsim --svg: exit %d, stderr %q", code, errOut)
	}
}

// Bad diagram flags: one clear line naming the flag, nothing on stdout, exit 2, and no file.
func TestDiagramBadFlags(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "x.svg")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--from", "soon"}, `--from soon: expected a duration such as 250us, 40ms, 1.5s or 2m, got "soon"`},
		{[]string{"--to", "-1s"}, `--to -1s: expected a duration such as 250us, 40ms, 1.5s or 2m, got "-1s"`},
		{[]string{"--to", "9s"}, "--to 9s: 9s is after the end of the run (1600ms)"},
		{[]string{"--from", "2s"}, "--from 2s: 2s is after the end of the run (1600ms)"},
		{[]string{"--from", "1s", "--to", "500ms"}, "--to 500ms: the window must end after it begins (--from 1s); give a later time"},
		{[]string{"--from", "1s", "--to", "1s"}, "--to 1s: the window must end after it begins (--from 1s); give a later time"},
		{[]string{"--kinds", "VOTE"}, `--kinds VOTE: bully has no message kind "VOTE" (its kinds are ELECTION, OK, COORDINATOR, HEARTBEAT; or all)`},
		{[]string{"--kinds", "OK,ELECTED"}, `--kinds OK,ELECTED: bully has no message kind "ELECTED" (its kinds are ELECTION, OK, COORDINATOR, HEARTBEAT; or all)`},
		{[]string{"--kinds", ","}, "--kinds ,: expected message kinds of bully (ELECTION, OK, COORDINATOR, HEARTBEAT), or all"},
		{[]string{"--algo", "ring", "--kinds", "OK"}, `--kinds OK: ring has no message kind "OK" (its kinds are ELECTION, ELECTED, ACK, HEARTBEAT; or all)`},
		{[]string{"--mermaid", ""}, "--mermaid needs a file name (or - for stdout)"},
		{[]string{"--shiviz", "/nonexistent-dir/x.log"}, "--shiviz /nonexistent-dir/x.log: cannot write there: no such file or directory"},
		{[]string{"--mermaid", dir}, "--mermaid " + dir + ": is a directory; give a file name"},
		{[]string{"--mermaid", "-", "--shiviz", "-"}, "--mermaid - and --shiviz - both write to stdout: write all but one to a file"},
		{[]string{"--mermaid", "-", "--json"}, "--mermaid - and --json both write to stdout: write the diagram to a file"},
		{[]string{"--mermaid", "-", "--trace", "-"}, "--mermaid - and --trace - both write to stdout: write one of them to a file"},
	}
	for _, tt := range tests {
		args := append([]string{"run", "bully-recovery", "--svg", svg}, tt.args...)
		code, out, errOut := call(args...)
		if code != 2 || out != "" || errOut != "electsim run: "+tt.want+"\n" {
			t.Errorf("%q: exit %d, stdout %.80q, stderr\n got %q\nwant %q", tt.args, code, out, errOut, "electsim run: "+tt.want+"\n")
		}
	}
	// The window and the kinds without a diagram are a mistake too.
	for _, flag := range []string{"--from", "--to", "--kinds"} {
		value := "1s"
		if flag == "--kinds" {
			value = "all"
		}
		code, _, errOut := call("run", flag, value)
		want := "electsim run: " + flag + " chooses what --svg, --mermaid and --shiviz show; add one of them, e.g. --svg run.svg\n"
		if code != 2 || errOut != want {
			t.Errorf("%s alone: exit %d, stderr %q", flag, code, errOut)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("bad flags left %d files behind", len(entries))
	}
}

// A diagram that cannot be written fails with one line naming the flag, exit 2, and leaves no
// part of a file behind.
func TestDiagramUnwritable(t *testing.T) {
	// Under a plain file: no one can write there, root included.
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--svg", "--mermaid", "--shiviz"} {
		path := filepath.Join(file, "d")
		code, out, errOut := call("run", "bully-recovery", "--trace", filepath.Join(filepath.Dir(file), "t.jsonl"), flag, path)
		if code != 2 || out != "" || errOut != "electsim run: "+flag+" "+path+": cannot write there: not a directory\n" {
			t.Errorf("%s: exit %d, stdout %.60q, stderr %q", flag, code, out, errOut)
		}
	}
	if entries, _ := os.ReadDir(filepath.Dir(file)); len(entries) != 1 {
		t.Errorf("left %d files beside %s (the trace's temporary file?)", len(entries)-1, file)
	}
}

// A read-only directory: the same, and nothing is left in it.
func TestDiagramReadOnlyDir(t *testing.T) {
	dir, reason, left := unwritableDir(t)
	for _, flag := range []string{"--svg", "--mermaid", "--shiviz"} {
		path := filepath.Join(dir, "d")
		code, out, errOut := call("run", "bully-recovery", flag, path)
		if code != 2 || out != "" || errOut != "electsim run: "+flag+" "+path+": cannot write there: "+reason+"\n" {
			t.Errorf("%s: exit %d, stdout %.60q, stderr %q", flag, code, out, errOut)
		}
	}
	if n := left(); n != 0 {
		t.Errorf("left %d files behind", n)
	}
}

// A write that fails half way (a full disk) is one line and exit 2; a file already at the path
// is not touched by a run that fails before it is written.
func TestDiagramWriteFails(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err == nil {
		code, _, errOut := call("run", "bully-recovery", "--quiet", "--svg", "/dev/full")
		if code != 2 || errOut != "electsim run: --svg /dev/full: no space left on device\n" {
			t.Errorf("--svg /dev/full: exit %d, stderr %q", code, errOut)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "lesson.svg")
	if err := os.WriteFile(path, []byte("the old picture"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := call("run", "bully-recovery", "--svg", path, "--kinds", "NOPE"); code != 2 {
		t.Errorf("exit %d", code)
	}
	if b, _ := os.ReadFile(path); string(b) != "the old picture" {
		t.Errorf("a failed run changed the file: %.40q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left %d files behind", len(entries))
	}
}

// --from and --to choose the window of every diagram, --kinds the messages.
func TestDiagramFilters(t *testing.T) {
	events := func(args ...string) []string {
		t.Helper()
		code, out, errOut := call(append([]string{"run", "bully-recovery", "--shiviz", "-"}, args...)...)
		if code != 0 || errOut != "" {
			t.Fatalf("%q: exit %d, stderr %q", args, code, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")[2:]
		var descs []string
		for i := 0; i+1 < len(lines); i += 2 {
			descs = append(descs, lines[i])
		}
		return descs
	}
	at := regexp.MustCompile(`^([\d.]+)ms `)
	ms := func(desc string) float64 {
		m := at.FindStringSubmatch(desc)
		if m == nil {
			t.Fatalf("no time in %q", desc)
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v
	}
	all := events()
	window := events("--from", "1190ms", "--to", "1230ms")
	if len(window) == 0 || len(window) >= len(all) {
		t.Fatalf("window: %d events of %d", len(window), len(all))
	}
	for _, e := range window {
		arrival := strings.Contains(e, " receive ") || strings.Contains(e, "lost on arrival:")
		if t0 := ms(e); t0 < 1190 || t0 > 1230 && !arrival {
			t.Errorf("--from 1190ms --to 1230ms shows %q", e)
		}
	}
	count := func(descs []string, what string) int {
		n := 0
		for _, d := range descs {
			if strings.Contains(d, what) {
				n++
			}
		}
		return n
	}
	if count(all, "send HEARTBEAT") != 0 || count(window, "send HEARTBEAT") != 0 {
		t.Error("HEARTBEATs shown without --kinds")
	}
	if n := count(events("--kinds", "all", "--from", "1190ms", "--to", "1230ms"), "send HEARTBEAT"); n == 0 {
		t.Error("--kinds all shows no HEARTBEAT")
	}
	ok := events("--kinds", "ok")
	if count(ok, "send OK") == 0 || count(ok, "send ELECTION")+count(ok, "send COORDINATOR") != 0 {
		t.Errorf("--kinds ok shows %v", ok)
	}
	// The SVG's caption says what is left out and the window.
	code, out, _ := call("run", "bully-recovery", "--svg", "-", "--from", "1190ms", "--to", "1230ms")
	if code != 0 || !strings.Contains(out, "shown 1190ms–1230ms · not shown: HEARTBEAT") {
		t.Errorf("--svg - caption: exit %d: %.600s", code, out)
	}
}

// run -h lists the diagram flags.
func TestDiagramHelp(t *testing.T) {
	_, out, _ := call("run", "-h")
	for _, flag := range []string{"--svg FILE", "--mermaid FILE", "--shiviz FILE", "--from T", "--to T", "--kinds KINDS"} {
		if !strings.Contains(out, flag) {
			t.Errorf("run -h does not mention %s", flag)
		}
	}
}

// docs/teaching.md shows real output, and every electsim command it gives works: the marked
// blocks are what electsim prints, the SVGs beside it are what their commands write (go test
// -update rewrites both), and each command of its sh blocks runs, in order, in a scratch
// directory, and exits 0.
func TestTeachingDoc(t *testing.T) {
	text := checkOutputBlocks(t, "../../docs/teaching.md", 1)
	for file, args := range map[string]string{
		"bully-recovery.svg":             "run bully-recovery --svg -",
		"bully-recovery-split-brain.svg": "run bully-recovery --svg - --from 1190ms --to 1230ms --kinds all",
	} {
		if !strings.Contains(text, "]("+file+")") {
			t.Errorf("docs/teaching.md does not show %s", file)
		}
		code, out, errOut := call(shellWords(args)...)
		if code != 0 || errOut != "" {
			t.Fatalf("electsim %s: exit %d, stderr %q", args, code, errOut)
		}
		path := filepath.Join("../../docs", file)
		if goldenfile.Updating() {
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != out {
			t.Errorf("docs/%s is not what electsim %s writes (go test -update rewrites it)", file, args)
		}
	}

	// Every electsim command of the sh blocks, placeholders aside.
	t.Chdir(t.TempDir())
	sh := regexp.MustCompile("(?s)```sh\n(.*?)```")
	ran := 0
	for _, block := range sh.FindAllStringSubmatch(text, -1) {
		for _, line := range strings.Split(block[1], "\n") {
			line, _, _ = strings.Cut(line, " #")
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "electsim ") || strings.Contains(line, "SCENARIO") {
				continue
			}
			cmd, redirect, _ := strings.Cut(strings.TrimPrefix(line, "electsim "), " > ")
			code, out, errOut := call(shellWords(cmd)...)
			if code != 0 {
				t.Errorf("%s: exit %d: %s", line, code, errOut)
			}
			if redirect != "" {
				if err := os.WriteFile(strings.TrimSpace(redirect), []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ran++
		}
	}
	if ran < 8 {
		t.Errorf("ran %d commands of docs/teaching.md", ran)
	}
	for _, f := range []string{"lesson.scn", "bully-recovery.svg", "act1-boot.svg", "act2-crash.svg", "act3-recovery.svg", "recovery.md", "partition.log"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("the commands of docs/teaching.md did not write %s", f)
		}
	}
}
