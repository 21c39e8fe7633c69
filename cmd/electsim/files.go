package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// atomicFile is a file written whole or not at all: it is written to a temporary file beside
// its destination and renamed into place by Commit. Abort (or a failed Commit) removes it.
type atomicFile struct {
	*os.File
	dest string
}

// createAtomic opens a temporary file for dest; flag names the flag that asked for it, for the
// error message.
func createAtomic(flag, dest string) (*atomicFile, error) {
	dir := filepath.Dir(dest)
	if fi, err := os.Stat(dest); err == nil && fi.IsDir() {
		return nil, usagef("%s %s: is a directory; give a file name", flag, dest)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(dest)+".*.tmp")
	if err != nil {
		return nil, usagef("%s %s: cannot write there: %v", flag, dest, unwrapPath(err))
	}
	return &atomicFile{File: f, dest: dest}, nil
}

// Commit closes the file and moves it into place.
func (a *atomicFile) Commit() error {
	if err := a.Close(); err != nil {
		os.Remove(a.Name())
		return fmt.Errorf("writing %s: %v", a.dest, err)
	}
	if err := os.Chmod(a.Name(), 0o644); err != nil {
		os.Remove(a.Name())
		return fmt.Errorf("writing %s: %v", a.dest, err)
	}
	if err := os.Rename(a.Name(), a.dest); err != nil {
		os.Remove(a.Name())
		return fmt.Errorf("writing %s: %v", a.dest, err)
	}
	return nil
}

// Abort discards the file.
func (a *atomicFile) Abort() {
	a.Close()
	os.Remove(a.Name())
}

// unwrapPath drops the temporary file's name from a *PathError.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

var _ io.Writer = (*atomicFile)(nil)
