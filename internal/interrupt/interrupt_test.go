package interrupt

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"electsim/internal/outfile"
)

// What an interrupt undoes: the children still running are killed, the outputs in progress
// leave no file behind; those forgotten (finished, committed) are left alone.
func TestUndo(t *testing.T) {
	var c Cleanup
	child := exec.Command("sleep", "30")
	if err := child.Start(); err != nil {
		t.Skip("no sleep to run:", err)
	}
	c.AddChild(child.Process)
	dir := t.TempDir()
	inProgress, err := outfile.Create(filepath.Join(dir, "half.svg"))
	if err != nil {
		t.Fatal(err)
	}
	c.AddFile(inProgress)
	done, err := outfile.Create(filepath.Join(dir, "done.svg"))
	if err != nil {
		t.Fatal(err)
	}
	c.AddFile(done)
	if err := done.Commit(); err != nil {
		t.Fatal(err)
	}
	c.ForgetFile(done)

	if !c.undo() {
		t.Error("undo says no file was in progress")
	}
	if err := child.Wait(); err == nil {
		t.Error("the child was not killed")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "done.svg" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left %v, want only done.svg", names)
	}
}
