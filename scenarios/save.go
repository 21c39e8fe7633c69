package scenarios

import (
	"errors"
	"fmt"

	"electsim/internal/outfile"
)

// Save writes s to path in canonical form (Format), whole or not at all; see WriteFile.
func Save(path string, s *Scenario) error { return WriteFile(path, Format(s)) }

// WriteFile writes text to path as electsim writes a file its user asked it to save (package
// outfile, CreateFile): a regular file whole or not at all, through a temporary file beside it
// that is renamed into place, keeping the permissions of the file it replaces; a symbolic
// link's target is written. Anything but a regular file — a named pipe, whose open would wait
// for a reader, a device, a standard stream, a directory — is refused before it is opened. Its
// error names path and why, never the temporary file.
func WriteFile(path, text string) error {
	err := outfile.WriteRegularFile(path, []byte(text))
	switch {
	case errors.Is(err, outfile.ErrIsDir):
		return fmt.Errorf("cannot write %s: it is a folder; give a file name", path)
	case errors.Is(err, outfile.ErrNotFile):
		return fmt.Errorf("cannot write %s: it %v; give the name of a file", path, err)
	case err != nil:
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}
