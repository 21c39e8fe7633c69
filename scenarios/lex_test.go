package scenarios

import (
	"strings"
	"testing"
)

// A file with old Mac line endings — a carriage return alone — is read line by line, as one
// with Unix or Windows endings is: its directives and expectations all count, and a mistake is
// reported on its own line.
func TestLineEndings(t *testing.T) {
	lines := []string{"title Ring of three", "algo ring", "nodes 3", "run 1s", "expect leader 2 by 900ms"}
	for _, c := range []struct{ name, sep string }{{"CR", "\r"}, {"CRLF", "\r\n"}, {"LF", "\n"}, {"CR without a last one", "\r"}} {
		src := strings.Join(lines, c.sep)
		if c.name != "CR without a last one" {
			src += c.sep
		}
		sc, err := Parse("mac.scn", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if sc.Title != "Ring of three" || sc.Algorithm != "ring" || len(sc.IDs) != 3 || sc.RunFor.String() != "1s" ||
			len(sc.Expects) != 1 || sc.Expects[0].Line != 5 || sc.Expects[0].Leader != 2 {
			t.Errorf("%s: title %q, algo %s, %d nodes, run %v, expectations %+v", c.name, sc.Title, sc.Algorithm, len(sc.IDs), sc.RunFor, sc.Expects)
		}
	}
	// A mistake on the third of CR-ended lines is on line 3; a blank line between a CR and a
	// CRLF counts as one.
	for src, want := range map[string]string{
		"algo ring\rnodes 3\rfrob\r":                    "m.scn:3:1: unknown directive",
		"algo ring\r\r\nnodes 3\r\nfrob\r\n":            "m.scn:4:1: unknown directive",
		"algo ring\rnodes 3\rsay \xff\r":                "m.scn:3:5: this is not UTF-8 text",
		"title x\r\n\rnodes 3\r\nrun 1s\rat 2s crash 1": "m.scn:5:4: at 2s is after the end of the run",
	} {
		_, err := Parse("m.scn", []byte(src))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v, want %s…", src, err, want)
		}
	}
}
