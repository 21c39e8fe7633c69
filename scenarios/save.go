package scenarios

import (
	"errors"
	"fmt"

	"electsim/internal/outfile"
)

// Save writes s to path in canonical form (Format), whole or not at all; see WriteFile.
func Save(path string, s *Scenario) error { return WriteFile(path, Format(s)) }

// WriteFile writes text to path as electsim writes every file for its user (package outfile):
// a regular file whole or not at all, through a temporary file beside it that is renamed into
// place, keeping the permissions of the file it replaces; a symbolic link's target is written;
// a device or a named pipe (/dev/null) is written in place, never replaced. Its error names
// path and why, never the temporary file.
func WriteFile(path, text string) error {
	err := outfile.WriteFile(path, []byte(text))
	switch {
	case errors.Is(err, outfile.ErrIsDir):
		return fmt.Errorf("cannot write %s: it is a folder; give a file name", path)
	case err != nil:
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}
