package scenarios

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"electsim/algo"
	"electsim/sim"
)

// writeIn writes text to dir/name and returns its path.
func writeIn(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A scenario's topology file:PATH is read relative to the scenario file's folder, whatever the
// current directory; the run gets the path it resolved and the edges read, and Format writes
// the edges in (topology edges …), so that the text runs the same without the file. A file
// that is missing is an error at the topology line's word, naming the path it looked for.
func TestTopologyFileIsRelativeToTheScenario(t *testing.T) {
	dir := t.TempDir()
	lessons := filepath.Join(dir, "lessons")
	if err := os.Mkdir(lessons, 0o755); err != nil {
		t.Fatal(err)
	}
	writeIn(t, lessons, "net.txt", "1 2\n2 3\n3 4\n")
	writeIn(t, lessons, "graph.scn", "algo echo\nnodes 4\ntopology file:net.txt\n")
	writeIn(t, lessons, "missing.scn", "algo echo\nnodes 4\ntopology file:nowhere.txt\n")
	t.Chdir(dir) // not the scenario's folder: a path relative to here would be wrong

	sc, err := Load(filepath.Join("lessons", "graph.scn"))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	info, err := algo.Lookup("echo")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sc.TopologyFor(info), "file:"+filepath.Join("lessons", "net.txt"); got != want {
		t.Errorf("topology %q, want %q", got, want)
	}
	cfg := sc.Config()
	if cfg.Topology != "file:"+filepath.Join("lessons", "net.txt") || !slices.Equal(cfg.Edges, [][2]algo.ID{{1, 2}, {2, 3}, {3, 4}}) {
		t.Errorf("the run's topology %q, edges %v", cfg.Topology, cfg.Edges)
	}
	text := Format(sc)
	if !strings.Contains(text, "\ntopology edges 1-2 2-3 3-4\n") {
		t.Errorf("formatted, the file's edges are not written in:\n%s", text)
	}
	back, err := Parse("back.scn", []byte(text))
	if err != nil || !slices.Equal(back.Config().Edges, cfg.Edges) {
		t.Errorf("the formatted text parses back to edges %v: %v", back.Config().Edges, err)
	}

	_, err = Load(filepath.Join("lessons", "missing.scn"))
	want := filepath.Join("lessons", "missing.scn") + ":3:10: " + filepath.Join("lessons", "nowhere.txt") + ": no such file"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("missing file: %v, want it to begin %q", err, want)
	}
}

// The file is read once, when the scenario is loaded: the run configured from it carries its
// edges, and runs — again, and copied — on those edges after the file has changed or is gone
// (issue 28, item 6).
func TestTopologyFileReadOnce(t *testing.T) {
	dir := t.TempDir()
	net := writeIn(t, dir, "net.txt", "1 2\n2 3\n3 4\n")
	scn := writeIn(t, dir, "g.scn", "algo echo\nnodes 4\ntopology file:net.txt\n")
	sc, err := Load(scn)
	if err != nil {
		t.Fatal(err)
	}
	edges := func(cfg sim.Config) [][2]algo.ID {
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatalf("the run after the file changed: %v", err)
		}
		defer s.Close()
		return s.Topology().Edges()
	}
	before := edges(sc.Config())
	writeIn(t, dir, "net.txt", "1 4\n4 3\n3 2\n1 3\n")
	if after := edges(sc.Config()); !slices.Equal(after, before) {
		t.Errorf("the file changed, and the run's edges with it: %v, then %v", before, after)
	}
	if err := os.Remove(net); err != nil {
		t.Fatal(err)
	}
	if after := edges(sc.Config()); !slices.Equal(after, before) {
		t.Errorf("the file is gone, and the run's edges with it: %v, then %v", before, after)
	}
}

// A scenario reads only what travels with it (issue 28, item 7): its topology file must be in
// its own folder — not an absolute path, not a path that climbs out, not a link that leads out
// — and a regular file: a named pipe, a directory or a file of /proc is refused before it is
// read, at the topology line, saying how to give such a file.
func TestTopologyFileStaysInTheScenarioFolder(t *testing.T) {
	dir := t.TempDir()
	lessons := filepath.Join(dir, "lessons")
	if err := os.Mkdir(lessons, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := writeIn(t, dir, "secret.txt", "1 2\n2 3\n")
	if err := os.Symlink(outside, filepath.Join(lessons, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/proc/self/environ", filepath.Join(lessons, "env.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(lessons, "pipe.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(lessons, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		outside:                "a scenario names its edge-list file relative to its own folder, and this path is absolute; put the file in the scenario's folder, or give it on the command line: --topology file:" + outside,
		"../secret.txt":        "a scenario reads only files in its own folder, and this path leads out of it",
		"link.txt":             "a link that leads out of the scenario's folder",
		"env.txt":              "a link that leads out of the scenario's folder",
		"/proc/self/environ":   "this path is absolute",
		"pipe.txt":             "is a named pipe, not a file: give an edge-list file",
		"sub":                  "is a directory; give an edge-list file",
		"sub/../../secret.txt": "this path leads out of it",
	} {
		scn := writeIn(t, lessons, "g.scn", "algo echo\nnodes 3\ntopology file:"+name+"\n")
		_, err := Load(scn)
		if err == nil || !strings.HasPrefix(err.Error(), scn+":3:10: ") || !strings.Contains(err.Error(), want) {
			t.Errorf("topology file:%s: %v\nwant at %s:3:10: … %s", name, err, scn, want)
		}
	}
}

// An edge-list file's content is never shown beyond a short, escaped word, however long or
// strange its lines, and what is read is bounded: a file past MaxEdgeFileSize is refused by its
// size, unread; a file of /proc (which says it is empty) is refused on the command line too.
func TestEdgeFileErrorsQuoteLittle(t *testing.T) {
	dir := t.TempDir()
	for text, want := range map[string]string{
		"1 2\n2 x\n":                        `:2:3: "x": expected a node id`,
		"1 2\n 3\n":                         ":2:2: an edge needs two node ids",
		"1 2 3\n":                           `:1:5: "3" after the edge's two ids`,
		"1 2\n4 4\n":                        ":2:3: edge 4–4 joins a node to itself",
		"1 2\n2 -3\n":                       `:2:3: "-3": expected a node id`,
		"# nothing\n\n":                     ": no edges",
		"root:x:0:0:root:/root:/bin/bash\n": `:1:1: "root:x:0:0:r"…: expected a node id`,
		"\x1b]0;owned\x07 2\n":              `:1:1: "\x1b]0;owned\a": expected a node id`,
		strings.Repeat("y", 1<<20) + "\n":   `:1:1: "yyyyyyyyyyyy"…: expected a node id`,
	} {
		p := writeIn(t, dir, "bad.txt", text)
		_, err := ReadEdgeFile(p)
		if err == nil || !strings.Contains(err.Error(), p+want) || len(err.Error()) > len(p)+120 {
			t.Errorf("%.40q: %.300v, want %q", text, err, want)
		}
	}
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxEdgeFileSize+1); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadEdgeFile(big); err == nil || !strings.Contains(err.Error(), "it is 16 MB, and an edge-list file may hold at most 16 MB (16777216 bytes)") {
		t.Errorf("a file of 16 MB and a byte: %v", err)
	}
	for _, p := range []string{"/proc/self/environ", "/proc/self/status"} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		_, err := ReadEdgeFile(p)
		if err == nil || !strings.Contains(err.Error(), "is a file of the system's /proc or /sys") {
			t.Errorf("%s: %v", p, err)
		}
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadEdgeFile(fifo); err == nil || err.Error() != fifo+": is a named pipe, not a file: give an edge-list file, one edge a line: two node ids" {
		t.Errorf("a named pipe no one writes to: %v", err)
	}
}

// The edges of a file name the run's nodes: one that does not is an error at its place in the
// file — when the scenario is loaded, and when the flags choose other nodes (Recheck).
func TestEdgeFileNamesTheRunsNodes(t *testing.T) {
	dir := t.TempDir()
	writeIn(t, dir, "net.txt", "1 2\n2 3\n3 7\n")
	scn := writeIn(t, dir, "g.scn", "algo echo\nnodes 3\ntopology file:net.txt\n")
	_, err := Load(scn)
	want := scn + ":3:10: " + filepath.Join(dir, "net.txt") + ":3:1: the edge 3–7 names node 7, which is not in the run (nodes are 1..3)"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
	writeIn(t, dir, "g.scn", "algo echo\nnodes 7\ntopology file:net.txt\n")
	_, err = Load(scn)
	if want := scn + ":3:10: topology file:" + filepath.Join(dir, "net.txt") + " is not connected"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("nodes 4 to 6 on no edge: %v", err)
	}
	writeIn(t, dir, "g.scn", "algo echo\nnodes 7\ntopology file:net.txt\n")
	writeIn(t, dir, "net.txt", "1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n")
	sc, err := Load(scn)
	if err != nil {
		t.Fatal(err)
	}
	err = sc.Recheck(Override{IDs: []algo.ID{1, 2, 3}, NodesFlag: "--nodes 3"})
	want = scn + ":3:10: " + filepath.Join(dir, "net.txt") + ":3:1: the edge 3–4 names node 4, which is not in the run (nodes are 1..3, set by --nodes 3)"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("with --nodes 3: %v\nwant %s", err, want)
	}
}
