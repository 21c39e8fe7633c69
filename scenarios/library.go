package scenarios

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

//go:embed library/*.scn
var library embed.FS

// DefaultDemo is the bundled scenario bare `electsim` plays.
const DefaultDemo = "bully-leader-crash"

// Bundled returns the names of the bundled scenarios, sorted.
func Bundled() []string {
	entries, err := library.ReadDir("library")
	if err != nil {
		panic("scenarios: the bundled library is missing: " + err.Error())
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".scn"))
	}
	slices.Sort(names)
	return names
}

// LoadBundled parses the bundled scenario called name.
func LoadBundled(name string) (*Scenario, error) {
	src, err := library.ReadFile(path.Join("library", name+".scn"))
	if err != nil {
		return nil, fmt.Errorf("no bundled scenario called %q (electsim scenarios lists them)", name)
	}
	sc, err := Parse(name+".scn", src)
	if sc != nil {
		sc.bundled = true
	}
	return sc, err
}

// BundledSource returns the text of the bundled scenario called name.
func BundledSource(name string) ([]byte, error) {
	return library.ReadFile(path.Join("library", name+".scn"))
}

// MaxFileSize is the most bytes a scenario file may hold: room for an ids line of MaxNodes
// ids of up to 18 digits, or some 250,000 actions, while what the worst such file takes to
// read stays within a few hundred megabytes (docs/scenarios.md).
const MaxFileSize = 4 << 20

// Load parses the scenario arg names: a file, or else a bundled scenario. The error says which
// it looked for. A file is read only if it is a regular file or a pipe (electsim run
// <(curl …)), and only up to MaxFileSize: a device (/dev/zero, a terminal) or a socket is
// refused, and so is a bigger file, before it is read.
func Load(arg string) (*Scenario, error) {
	src, err := readFile(arg)
	switch {
	case err == nil:
		return Parse(arg, src)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if strings.ContainsRune(arg, os.PathSeparator) {
		return nil, fmt.Errorf("%s: no such scenario file", arg) // a path: not a bundled name
	}
	if slices.Contains(Bundled(), strings.TrimSuffix(arg, ".scn")) {
		return LoadBundled(strings.TrimSuffix(arg, ".scn"))
	}
	return nil, fmt.Errorf("no scenario file %s, and no bundled scenario called %q (electsim scenarios lists them)", arg, arg)
}

// readFile reads a scenario file, as Load describes. Its error names the file and says why,
// wrapping fs.ErrNotExist when there is no such file.
func readFile(name string) ([]byte, error) {
	fi, err := os.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, err
	case err != nil:
		return nil, fmt.Errorf("%s: %w", name, unwrap(err))
	case fi.IsDir():
		return nil, fmt.Errorf("%s: is a directory; give a scenario file (.scn) or a bundled scenario's name", name)
	case fi.Mode().IsRegular() && fi.Size() > MaxFileSize:
		return nil, fmt.Errorf("%s: it is %s, and a scenario file may hold at most %s (%d bytes); %s",
			name, byteSize(fi.Size()), byteSize(MaxFileSize), MaxFileSize, shortText)
	case !fi.Mode().IsRegular() && fi.Mode()&fs.ModeNamedPipe == 0:
		return nil, fmt.Errorf("%s: is %s, not a file: give a scenario file (.scn) or a bundled scenario's name", name, kindOf(fi.Mode()))
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, unwrap(err))
	}
	defer f.Close()
	// A pipe says nothing of its size, and a file may grow while it is read: read one byte
	// past the limit to know.
	src, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w", name, unwrap(err))
	case len(src) > MaxFileSize:
		return nil, fmt.Errorf("%s: it holds more than %s (%d bytes), the most a scenario file may hold; %s",
			name, byteSize(MaxFileSize), MaxFileSize, shortText)
	}
	return src, nil
}

// shortText ends the messages about a file too big.
const shortText = "a scenario is a short text file (electsim scenarios --show NAME prints one)"

// byteSize writes a size in bytes for people: "79.2 MB", "8 MB", "512 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		s := strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64)
		return strings.TrimSuffix(s, ".0") + " MB"
	case n >= 1<<10:
		return strconv.FormatInt(n>>10, 10) + " kB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// kindOf names what a file that is not a regular one is: "a character device (such as
// /dev/zero or a terminal)".
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeCharDevice != 0:
		return "a character device (such as /dev/zero or a terminal)"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// unwrap returns the reason of a file operation's error, without the paths it names.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
