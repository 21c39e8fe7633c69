package scenarios

import (
	"fmt"
	"runtime"
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

// A line with more ids than a scenario may have nodes is refused as it is read — not once
// millions of tokens have been made of it: what parsing a 4 MB line of ids allocates stays a
// fraction of what its tokens would take. A line of 200,001 ids says there are too many nodes.
func TestLongLineRefusedEarly(t *testing.T) {
	line := "ids " + strings.Repeat("1 ", 2_000_000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Parse("big.scn", []byte(line))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "big.scn:1:800035: this line is too long: more than 400016 words and separators, and a scenario has at most 200000 nodes") {
		t.Errorf("got %.300v", err)
	}
	// Its 2,000,001 tokens would take 80 MB, and growing to them several times that; the
	// 400,016 read before the refusal take 16 MB, and growing to them as much again.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 48<<20 {
		t.Errorf("parsing allocated %d MB", alloc>>20)
	}
	var ids strings.Builder
	ids.WriteString("algo ring\nids")
	for i := 1; i <= MaxNodes+1; i++ {
		fmt.Fprintf(&ids, " %d,", i)
	}
	_, err = Parse("ids.scn", []byte(ids.String()))
	if err == nil || err.Error() != "ids.scn:2:1: at most 200000 nodes" {
		t.Errorf("200,001 ids: %.300v", err)
	}
}
