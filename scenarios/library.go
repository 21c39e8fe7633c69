package scenarios

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"electsim/internal/outfile"
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

// Load parses the scenario arg names: a file, or else a bundled scenario. A name that ends in
// .scn or holds a path separator is a file's, and only a file's: missing, it is an error naming
// it. The error says which it looked for. A file is read only if it is a regular file or a pipe (electsim run
// <(curl …)), and only up to MaxFileSize: a device (/dev/zero, a terminal) or a socket is
// refused, and so is a bigger file, before it is read.
func Load(arg string) (*Scenario, error) {
	src, err := readFile(arg)
	switch {
	case err == nil:
		sc, err := Parse(arg, src)
		if err != nil {
			return nil, err
		}
		if err := sc.readEdgeFile(); err != nil {
			return nil, err
		}
		return sc, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if strings.ContainsAny(arg, "/"+string(os.PathSeparator)) || strings.HasSuffix(arg, ".scn") {
		// A path, not a bundled name: playing a bundled scenario of the same name instead would
		// be playing another file than the one asked for.
		if name := strings.TrimSuffix(arg, ".scn"); name != arg && slices.Contains(Bundled(), name) {
			return nil, fmt.Errorf("%s: no such scenario file (the bundled scenario of that name is %s: electsim run %s)", arg, name, name)
		}
		return nil, fmt.Errorf("%s: no such scenario file", arg)
	}
	if slices.Contains(Bundled(), arg) {
		return LoadBundled(arg)
	}
	return nil, fmt.Errorf("no scenario file %s, and no bundled scenario called %q (electsim scenarios lists them)", arg, arg)
}

// readFile reads a scenario file, as Load describes. Its error names the file and says why,
// wrapping fs.ErrNotExist when there is no such file.
func readFile(name string) ([]byte, error) {
	return readBounded(name, scenarioFiles)
}

// fileRules say which files a kind of file electsim reads may be, and how it words what is
// wrong with one.
type fileRules struct {
	limit int64  // the most bytes it may hold
	pipes bool   // a named pipe is read too (electsim run <(curl …))
	give  string // what to give instead: "give a scenario file (.scn) or a bundled scenario's name"
	big   string // why it is short, after a message that it is too big
	what  string // what it is, in "the most %s may hold": "a scenario file"
}

// scenarioFiles are the rules of a scenario file.
var scenarioFiles = fileRules{limit: MaxFileSize, pipes: true, what: "a scenario file",
	give: "give a scenario file (.scn) or a bundled scenario's name", big: shortText}

// readBounded reads the file name names as rules allow: a regular file (or a pipe, where
// allowed) of at most rules.limit bytes, read up to one byte past it and no further; never a
// device, a directory, a socket, nor a file of /proc or /sys — whose size says nothing of what
// they hold (/proc/self/environ says 0). Its error names the file and says why, wrapping
// fs.ErrNotExist when there is no such file, and quotes nothing the file holds.
func readBounded(name string, rules fileRules) ([]byte, error) {
	fi, err := os.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, err
	case err != nil:
		return nil, fmt.Errorf("%s: %w", name, unwrap(err))
	case fi.IsDir():
		return nil, fmt.Errorf("%s: is a directory; %s", name, rules.give)
	case fi.Mode().IsRegular() && fi.Size() > rules.limit:
		return nil, fmt.Errorf("%s: it is %s, and %s may hold at most %s (%d bytes); %s",
			name, byteSize(fi.Size()), rules.what, byteSize(rules.limit), rules.limit, rules.big)
	case fi.Mode()&fs.ModeNamedPipe != 0 && !rules.pipes:
		return nil, fmt.Errorf("%s: is a named pipe, not a file: %s", name, rules.give)
	case !fi.Mode().IsRegular() && fi.Mode()&fs.ModeNamedPipe == 0:
		return nil, fmt.Errorf("%s: is %s, not a file: %s", name, outfile.Kind(fi.Mode()), rules.give)
	case kernelFile(name):
		return nil, fmt.Errorf("%s: is a file of the system's /proc or /sys, not a file of yours: %s", name, rules.give)
	}
	open := os.Open // a pipe waits for its writer
	if !rules.pipes {
		open = openNoWait
	}
	f, err := open(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, unwrap(err))
	}
	defer f.Close()
	if now, err := f.Stat(); err == nil && !now.Mode().IsRegular() && (!rules.pipes || now.Mode()&fs.ModeNamedPipe == 0) {
		return nil, fmt.Errorf("%s: is %s, not a file: %s", name, outfile.Kind(now.Mode()), rules.give) // changed since it was looked at
	}
	// A pipe says nothing of its size, and a file may grow while it is read: read one byte
	// past the limit to know.
	src, err := io.ReadAll(io.LimitReader(f, rules.limit+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w", name, unwrap(err))
	case int64(len(src)) > rules.limit:
		return nil, fmt.Errorf("%s: it holds more than %s (%d bytes), the most %s may hold; %s",
			name, byteSize(rules.limit), rules.limit, rules.what, rules.big)
	case fi.Mode().IsRegular() && fi.Size() == 0 && len(src) > 0:
		// A file that says it is empty and is not: the kernel's (procfs, sysfs), wherever mounted.
		return nil, fmt.Errorf("%s: is not an ordinary file (it says it is empty, and holds more): %s", name, rules.give)
	}
	return src, nil
}

// kernelFile reports whether name, once symbolic links are followed, is in /proc or /sys.
func kernelFile(name string) bool {
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return false
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return false
	}
	for _, dir := range []string{"/proc", "/sys"} {
		if real == dir || strings.HasPrefix(real, dir+"/") {
			return true
		}
	}
	return false
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
