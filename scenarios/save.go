package scenarios

import (
	"fmt"
	"os"
	"path/filepath"
)

// Save writes s to path in canonical form (Format), whole or not at all: to a temporary file
// beside it, renamed into place only once everything is written.
func Save(path string, s *Scenario) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, unwrap(err))
	}
	_, err = f.WriteString(Format(s))
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
