package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"electsim/algo"
)

// A scenario's topology file:PATH is read relative to the scenario file's folder, whatever the
// current directory; the run gets the path it resolved, and Format writes it as written. A file
// that is missing is an error at the topology line's word, naming the path it looked for.
func TestTopologyFileIsRelativeToTheScenario(t *testing.T) {
	dir := t.TempDir()
	lessons := filepath.Join(dir, "lessons")
	if err := os.Mkdir(lessons, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(lessons, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("net.txt", "1 2\n2 3\n3 4\n")
	write("graph.scn", "algo echo\nnodes 4\ntopology file:net.txt\n")
	write("missing.scn", "algo echo\nnodes 4\ntopology file:nowhere.txt\n")
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
	if !strings.Contains(Format(sc), "topology  file:net.txt\n") && !strings.Contains(Format(sc), "topology file:net.txt\n") {
		t.Errorf("formatted, the topology line is not as written:\n%s", Format(sc))
	}
	if cfg := sc.Config(); cfg.Topology != "file:"+filepath.Join("lessons", "net.txt") {
		t.Errorf("the run's topology %q", cfg.Topology)
	}

	_, err = Load(filepath.Join("lessons", "missing.scn"))
	want := filepath.Join("lessons", "missing.scn") + ":3:10: " + filepath.Join("lessons", "nowhere.txt") + ": no such file"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("missing file: %v, want it to begin %q", err, want)
	}
}
