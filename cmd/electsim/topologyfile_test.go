package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// file:PATH in a scenario's topology line is read relative to the scenario file; on the command
// line, --topology file:PATH relative to the current directory. A missing file is an error at
// its line and column in the scenario, or naming the flag, exit 2.
func TestTopologyFilePaths(t *testing.T) {
	dir := t.TempDir()
	lessons := filepath.Join(dir, "lessons")
	if err := os.Mkdir(lessons, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"lessons/net.txt":   "1 2\n2 3\n3 4\n",
		"lessons/graph.scn": "algo echo\nnodes 4\ntopology file:net.txt\nrun 1s\n",
		"lessons/gone.scn":  "algo echo\nnodes 4\ntopology file:gone.txt\n",
		"star.txt":          "1 2\n1 3\n1 4\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)

	code, out, errOut := call("run", "lessons/graph.scn", "--quiet", "--json")
	if code != 0 || errOut != "" || !strings.Contains(out, `"edges":[[1,2],[2,3],[3,4]]`) {
		t.Errorf("the scenario's file, relative to it: exit %d, stderr %q\n%s", code, errOut, out)
	}
	code, out, errOut = call("run", "lessons/graph.scn", "--topology", "file:star.txt", "--quiet", "--json")
	if code != 0 || errOut != "" || !strings.Contains(out, `"edges":[[1,2],[1,3],[1,4]]`) {
		t.Errorf("--topology, relative to the current directory: exit %d, stderr %q\n%s", code, errOut, out)
	}
	code, _, errOut = call("run", "lessons/gone.scn")
	if want := "lessons/gone.scn:3:10: lessons/gone.txt: no such file"; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("a missing file in a scenario: exit %d, stderr %q, want %q", code, errOut, want)
	}
	code, _, errOut = call("run", "--algo", "echo", "--nodes", "4", "--topology", "file:net.txt")
	if want := "--topology file:net.txt: net.txt: no such file"; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("a missing file on the command line: exit %d, stderr %q, want %q", code, errOut, want)
	}
}
