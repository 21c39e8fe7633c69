package scenarios

import (
	"fmt"
	"os"
	"path/filepath"
)

// Save writes s to path in canonical form (Format), whole or not at all; see WriteFile.
func Save(path string, s *Scenario) error { return WriteFile(path, Format(s)) }

// WriteFile writes text to path whole or not at all: to a temporary file beside it, renamed
// into place only once everything is written; a symbolic link's target is written. Its error
// names path and why, never the temporary file.
func WriteFile(path, text string) error {
	if to, err := filepath.EvalSymlinks(path); err == nil {
		path = to // a link's target is written, not the link replaced
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("cannot write %s: it is a folder; give a file name", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, unwrap(err))
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cannot write %s: %v", path, unwrap(err))
	}
	return nil
}
