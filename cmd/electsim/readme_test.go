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
func TestREADMEOutputs(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- output of: (.*?) -->\n```[a-z]*\n(.*?)```")
	blocks := re.FindAllStringSubmatch(string(readme), -1)
	if len(blocks) < 2 {
		t.Fatalf("found %d marked output blocks in README.md, want at least 2", len(blocks))
	}
	text := string(readme)
	for _, b := range blocks {
		args := shellWords(b[1])
		code, out, errOut := call(args...)
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
		t.Errorf("README.md shows output of electsim %s that it no longer prints (go test -update rewrites it; review the diff); got:\n%s", b[1], out)
	}
	if goldenfile.Updating() && text != string(readme) {
		if err := os.WriteFile("../../README.md", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
