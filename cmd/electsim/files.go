package main

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"

	"electsim/internal/interrupt"
	"electsim/internal/outfile"
)

// outFile is a file electsim writes for the user, named by a flag: whole or not at all, and
// never in place of a device or a pipe (see package outfile). An interrupt removes it (see
// package interrupt).
type outFile struct {
	*outfile.File
	temp *interrupt.Cleanup
}

// createOut opens dest for writing; flag names the flag that asked for it, for the error.
func createOut(flag, dest string, temp *interrupt.Cleanup) (*outFile, error) {
	if dest == "" {
		if flag == "--trace" { // the only output of these that may go to stdout
			return nil, usagef("%s needs a file name (or - for stdout)", flag)
		}
		return nil, usagef("%s needs a file name", flag)
	}
	f, err := outfile.Create(dest)
	switch {
	case errors.Is(err, outfile.ErrIsDir):
		return nil, usagef("%s %s: is a directory; give a file name", flag, dest)
	case err != nil:
		return nil, usagef("%s %s: cannot write there: %v", flag, dest, err)
	}
	temp.AddFile(f)
	return &outFile{File: f, temp: temp}, nil
}

// Commit finishes the file: a regular one is moved into place.
func (o *outFile) Commit() error {
	defer o.temp.ForgetFile(o.File)
	if err := o.File.Commit(); err != nil {
		dest := o.Dest()
		if dest == "" {
			dest = o.Name()
		}
		return fmt.Errorf("writing %s: %w", dest, err)
	}
	return nil
}

// Abort discards the file; it is a no-op after Commit.
func (o *outFile) Abort() {
	o.File.Abort()
	o.temp.ForgetFile(o.File)
}

// unwrapPath drops the paths from a file operation's error.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// distinctOutputs checks that no two outputs (flag → path; "" and "-" are not files) name one
// file, and that none is the scenario being run (scenario; "" for none or a bundled one).
func distinctOutputs(scenario string, outputs map[string]string) error {
	flags := slices.Sorted(maps.Keys(outputs))
	for i, f := range flags {
		path := outputs[f]
		if path == "" || path == "-" {
			continue
		}
		if scenario != "" && outfile.Same(path, scenario) {
			return usagef("%s %s: that is the scenario being run; write to another file", f, path)
		}
		for _, g := range flags[i+1:] {
			if other := outputs[g]; other != "" && other != "-" && outfile.Same(path, other) {
				return usagef("%s %s: %s writes there too; give each output a file of its own", g, other, f)
			}
		}
	}
	return nil
}
