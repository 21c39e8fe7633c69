package outfile

import (
	"errors"
	"io/fs"
	"os"
)

// ErrNotFile is what CheckFile's and CreateFile's errors wrap for a path that names neither a
// regular file nor nothing.
var ErrNotFile = errors.New("not a file")

// NotFileError says what a path names that is not a regular file: "is a named pipe, not a
// file".
type NotFileError struct {
	What string // "a named pipe", "a character device (such as a terminal)", …
}

func (e *NotFileError) Error() string { return "is " + e.What + ", not a file" }

// Is makes errors.Is(err, ErrNotFile) true.
func (e *NotFileError) Is(target error) bool { return target == ErrNotFile }

// CheckFile says whether path may be written by CreateFile: nil for a regular file (once
// symbolic links are followed) or a path where nothing is yet; ErrIsDir for a directory; a
// *NotFileError for anything else — a named pipe, a device, a terminal, a socket, an open
// descriptor (/dev/stdout, /dev/fd/3). It only looks: it opens nothing, so it never waits.
func CheckFile(path string) error {
	if _, descriptor := followLinks(path); descriptor {
		return &NotFileError{What: "an open descriptor (a standard stream, /dev/fd/N)"}
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return reason(err)
	case fi.IsDir():
		return ErrIsDir
	case fi.Mode().IsRegular():
		return nil
	}
	return &NotFileError{What: Kind(fi.Mode())}
}

// Kind names what a file that is not a regular one is, for a message: "a named pipe", "a
// character device (such as /dev/null or a terminal)", …
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device (such as /dev/null or a terminal)"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// CreateFile is Create for what must only ever write a regular file — an interactive program
// saving where its user typed, which must never wait on a named pipe no one reads, nor write
// into a device: anything CheckFile refuses is refused before it is opened, and a regular file
// is written whole or not at all, as Create writes it.
func CreateFile(path string) (*File, error) {
	if path == "" {
		return nil, errors.New("no file name")
	}
	if err := CheckFile(path); err != nil {
		return nil, err
	}
	return Create(path)
}

// WriteRegularFile writes data to path whole or not at all, through CreateFile: only to a
// regular file, or where nothing is yet.
func WriteRegularFile(path string, data []byte) error {
	f, err := CreateFile(path)
	return writeWhole(f, err, data)
}
