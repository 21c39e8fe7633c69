package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"electsim/internal/goldenfile"
)

// The README shows real output: every block marked <!-- output of: ARGS --> must be exactly
// what electsim ARGS prints. When the output changes on purpose, go test -update rewrites the
// blocks; review the diff.
func TestREADMEOutputs(t *testing.T) { checkOutputBlocks(t, "../../README.md", 2) }

// checkOutputBlocks checks the blocks of the page marked <!-- output of: ARGS --> against what
// electsim ARGS prints (exit 0, nothing on stderr) — or with -update rewrites them — and
// returns the page's text. It wants at least min blocks.
func checkOutputBlocks(t *testing.T, page string, min int) string {
	t.Helper()
	doc, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	re := regexp.MustCompile("(?s)<!-- output of: (.*?) -->\n```[a-z]*\n(.*?)```")
	blocks := re.FindAllStringSubmatch(text, -1)
	if len(blocks) < min {
		t.Fatalf("found %d marked output blocks in %s, want at least %d", len(blocks), page, min)
	}
	for _, b := range blocks {
		code, out, errOut := call(shellWords(b[1])...)
		if code != 0 || errOut != "" {
			t.Errorf("electsim %s: exit %d, stderr %q", b[1], code, errOut)
		}
		if out == b[2] {
			continue
		}
		if goldenfile.Updating() {
			text = strings.Replace(text, b[0], strings.Replace(b[0], b[2], out, 1), 1)
			continue
		}
		t.Errorf("%s shows output of electsim %s that it no longer prints (go test -update rewrites it; review the diff); got:\n%s", page, b[1], out)
	}
	if goldenfile.Updating() && text != string(doc) {
		if err := os.WriteFile(page, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return text
}

// shellWords splits a command line as a shell would, for words and single-quoted strings.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
			inWord = true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
