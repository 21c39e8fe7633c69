package scenarios

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
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

// Load parses the scenario arg names: a file, or else a bundled scenario. The error says which
// it looked for.
func Load(arg string) (*Scenario, error) {
	src, err := os.ReadFile(arg)
	switch {
	case err == nil:
		return Parse(arg, src)
	case isDir(arg):
		return nil, fmt.Errorf("%s: is a directory; give a scenario file (.scn) or a bundled scenario's name", arg)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: %v", arg, unwrap(err))
	}
	if strings.ContainsRune(arg, os.PathSeparator) {
		return nil, fmt.Errorf("%s: no such scenario file", arg) // a path: not a bundled name
	}
	if slices.Contains(Bundled(), strings.TrimSuffix(arg, ".scn")) {
		return LoadBundled(strings.TrimSuffix(arg, ".scn"))
	}
	return nil, fmt.Errorf("no scenario file %s, and no bundled scenario called %q (electsim scenarios lists them)", arg, arg)
}

// isDir reports whether name is a directory.
func isDir(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
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
