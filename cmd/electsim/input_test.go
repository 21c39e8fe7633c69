package main

import (
	"os"
	"path/filepath"
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
