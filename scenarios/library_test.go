package scenarios

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"electsim/sim"
)

// Every bundled scenario parses, runs on both engines, and all its expectations hold.
func TestLibrary(t *testing.T) {
	names := Bundled()
	if len(names) == 0 {
		t.Fatal("the bundled library is empty")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			sc, err := LoadBundled(name)
			if err != nil {
				t.Fatal(err)
			}
			if sc.Title == "" || len(sc.Expects) == 0 {
				t.Errorf("a bundled scenario needs a title and expectations: %q, %d", sc.Title, len(sc.Expects))
			}
			says := 0
			for _, a := range sc.Actions {
				if a.Op == sim.Say {
					says++
				}
			}
			if says == 0 {
				t.Error("a bundled scenario is narrated: it has no say")
			}
			for _, e := range []sim.Engine{sim.Goroutine, sim.Inline} {
				cfg := sc.Config()
				cfg.Engine = e
				s, err := sim.New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				_, results := Play(s, sc.Expects, nil)
				for _, r := range results {
					if !r.OK {
						t.Errorf("%s: line %d: %s — %s", e, r.Line, r.Expectation, r.Detail)
					}
				}
			}
		})
	}
}

// The default demo is in the library.
func TestDefaultDemoIsBundled(t *testing.T) {
	if _, err := LoadBundled(DefaultDemo); err != nil {
		t.Fatal(err)
	}
}

// Parse(Format(s)) == s over the library.
func TestLibraryRoundTrip(t *testing.T) {
	for _, name := range Bundled() {
		sc, err := LoadBundled(name)
		if err != nil {
			t.Fatal(err)
		}
		text := Format(sc)
		back, err := Parse(name+".scn", []byte(text))
		if err != nil {
			t.Fatalf("%s: the formatted text does not parse:\n%v\n%s", name, err, text)
		}
		if !reflect.DeepEqual(withoutLines(back), withoutLines(sc)) {
			t.Errorf("%s: round trip changed the scenario:\n got %#v\nwant %#v", name, back, sc)
		}
		if again := Format(back); again != text {
			t.Errorf("%s: Format is not stable:\n%s\nthen\n%s", name, text, again)
		}
	}
}

// withoutLines returns a copy of sc without the source lines of its actions and expectations,
// nor the file it was read from: where things were in a file is not part of the scenario, and
// Format does not keep comments.
func withoutLines(sc *Scenario) *Scenario {
	c := *sc
	c.file, c.src, c.bundled, c.topologyAt, c.edgeAt = "", nil, false, place{}, nil
	c.Actions = append([]Step(nil), sc.Actions...)
	c.Expects = append([]Expectation(nil), sc.Expects...)
	for i := range c.Actions {
		c.Actions[i].Line = 0
	}
	for i := range c.Expects {
		c.Expects[i].Line = 0
	}
	return &c
}

// A file that cannot be written says which and why — not the name of the temporary file it was
// being written through — and leaves nothing behind.
func TestWriteFileError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "missing", "x.scn")
	err := WriteFile(path, "nodes 3\n")
	if err == nil || err.Error() != "cannot write "+path+": no such file or directory" {
		t.Fatalf("got %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %v behind", entries)
	}
	// A directory in the way: the rename fails, and the temporary file goes.
	path = filepath.Join(dir, "taken.scn")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	err = WriteFile(path, "nodes 3\n")
	if err == nil || strings.Contains(err.Error(), ".tmp") || !strings.HasPrefix(err.Error(), "cannot write "+path+": ") {
		t.Fatalf("got %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left %v behind", entries)
	}
}

// FromConfig undoes Config: over the library, the scenario comes back but for its title and
// expectations (not part of a run), the order of its set lines (a run's parameters are a map),
// and whether ids 1..n are written `nodes n` (FromConfig writes them so).
func TestFromConfig(t *testing.T) {
	for _, name := range Bundled() {
		sc, err := LoadBundled(name)
		if err != nil {
			t.Fatal(err)
		}
		want := withoutLines(sc)
		want.Title, want.Expects = "", nil
		want.Contig = slices.Equal(want.IDs, contiguous(len(want.IDs)))
		want.Params = slices.Clone(want.Params)
		slices.SortFunc(want.Params, func(a, b Setting) int { return strings.Compare(a.Key, b.Key) })
		if got := FromConfig(name, sc.Config()); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", name, got, want)
		}
	}
}

// Writing through a symbolic link writes its target and keeps the link.
func TestWriteFileFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "real.scn"), filepath.Join(dir, "link.scn")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.scn", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, "nodes 3\n"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(target); string(got) != "nodes 3\n" {
		t.Errorf("target holds %q", got)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
}

// Every kind of expectation fails when the run does not bear it out: the negation of each of
// the bundled expectations above, on the same runs, fails — and the checker says why.
func TestExpectationsFail(t *testing.T) {
	for name, lines := range map[string][]string{
		"bully-partition": {
			"expect no split-brain",       // there was one
			"expect messages ELECTION 18", // 19 were sent
			"expect messages ELECTION <= 18",
			"expect messages ELECTION >= 20",
			"expect leader 4 by 400ms", // 5 leads
			"expect leader 4",
		},
		"lease-pause-no-fencing": {
			"expect no-stale-write", // a stale write was accepted
			"expect violation one-leader-per-term",
			"expect messages REJECT >= 1",
		},
		"gc-pause-split-brain": {
			"expect violation agreement", // the nodes agree at the end
		},
	} {
		sc, err := LoadBundled(name)
		if err != nil {
			t.Fatal(err)
		}
		src, _ := BundledSource(name)
		text := string(src) + "\n" + strings.Join(lines, "\n") + "\n"
		sc2, err := Parse(name+".scn", []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		exps := sc2.Expects[len(sc.Expects):]
		s, err := sim.New(sc2.Config())
		if err != nil {
			t.Fatal(err)
		}
		_, results := Play(s, exps, nil)
		if len(results) != len(lines) {
			t.Fatalf("%s: %d verdicts for %d expectations", name, len(results), len(lines))
		}
		for i, r := range results {
			if r.OK || r.Detail == "" {
				t.Errorf("%s: %s held (%q), want it to fail", name, lines[i], r.Detail)
			}
		}
	}
}

// A failed leader expectation says what the nodes named instead: once, when they all name the
// same node (or none); node by node, up to a few, when they differ — in the same words at a
// time and at the end.
func TestLeaderExpectationSaysWhy(t *testing.T) {
	for src, want := range map[string]string{
		"algo bully\nnodes 40\nat 0ms crash 40\nexpect leader 7 by 2s\n":                                     "at 2s every live node names 39",
		"algo bully\nnodes 5\nexpect leader 5 by 1ms\n":                                                      "at 1ms nodes 1, 2, 3, 4 name no leader",
		"algo bully\nnodes 5\nat 0ms crash 5\nexpect leader 5 by 1s\n":                                       "at 1s node 5 is crashed; every live node names 4",
		"algo bully\nnodes 5\nrun 1s\nat 0ms crash 5\nexpect leader 5\n":                                     "at the end node 5 is crashed; every live node names 4",
		"algo bully\nnodes 6\nrun 1s\nat 0ms partition 1 2 3 | 4 5 6\nexpect leader 6\n":                     "at the end nodes 1, 2, 3 name 3",
		"algo bully\nnodes 5\nat 0ms partition 1 | 2 3 4 5\nexpect leader 5 by 1s\n":                         "at 1s 1 names 1", // one wrong node: no group
		"algo bully\nnodes 6\nrun 1s\nat 0ms partition 1 4 | 2 3 | 5 6\nexpect leader 6\n":                   "at the end 1 names 4, 2 names 3, 3 names 3, 4 names 4",
		"algo lease\nnodes 5\nrun 1s\nexpect leader 3\n":                                                     "at the end every live node names 2", // the lock service and the resource name nobody, and are not counted
		"algo bully\nnodes 6\nat 0ms partition 1 2 3 | 4 5 6\nexpect leader 6 by 1s\n":                       "at 1s nodes 1, 2, 3 name 3",
		"algo bully\nnodes 6\nat 0ms partition 1 2 | 3 4 | 5 6\nexpect leader 6 by 1s\n":                     "at 1s 1 names 2, 2 names 2, 3 names 4, 4 names 4",
		"algo bully\nnodes 20\nat 0ms partition 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9\nexpect leader 20 by 1s\n": "at 1s 1 names 1, 2 names 2, 3 names 3, 4 names 4, 5 names 5, 6 names 6 and 3 more",
		"algo bully\nnodes 20\nat 0ms partition 1 | 2 | 3 | 4 | 5 | 6\nexpect leader 20 by 1s\n":             "at 1s 1 names 1, 2 names 2, 3 names 3, 4 names 4, 5 names 5, 6 names 6", // just all of them
		"algo bully\nnodes 5\nrun 1s\nat 0ms crash 4 5\nexpect leader 4\n":                                   "at the end node 4 is crashed; every live node names 3",                  // another crashed node after it
		"algo bully\nnodes 5\nrun 1s\nat 999ms crash 5\nexpect leader 5\n":                                   "at the end node 5 is crashed",                                           // the others still name it
	} {
		sc, err := Parse("t.scn", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(sc.Config())
		if err != nil {
			t.Fatal(err)
		}
		_, results := Play(s, sc.Expects, nil)
		if len(results) != 1 || results[0].OK || results[0].Detail != want {
			t.Errorf("%s: %+v, want it to fail with %q", src, results, want)
		}
	}
}

// A paused leader still leads — it believes it does, and the run's agreed leader counts it — so
// an expectation of it holds, by a time and at the end, as the summary's leader says; a paused
// node that never led does not.
func TestPausedLeaderStillLeads(t *testing.T) {
	for src, want := range map[string]string{
		"algo bully\nnodes 3\nrun 1s\nat 950ms pause 3\nexpect leader 3 by 990ms\nexpect leader 3\n": "",
		"algo bully\nnodes 3\nrun 1s\nat 0ms pause 3\nexpect leader 3\n":                             "at the end 1 names 2, 2 names 2, 3 names no leader",
	} {
		sc, err := Parse("t.scn", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(sc.Config())
		if err != nil {
			t.Fatal(err)
		}
		sum, results := Play(s, sc.Expects, nil)
		for _, r := range results {
			if r.OK != (want == "") || !r.OK && r.Detail != want {
				t.Errorf("%s: %+v, want %q (summary's leader %d)", src, r, want, sum.Leader)
			}
		}
	}
}
