package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docs/algorithms.md's example of too short an answer-timeout shows what it says: its command
// runs, warns that the timing assumption is broken, and reports the split brain the text
// quotes — which the default answer-timeout, on the same run, does not have.
func TestAlgorithmsDocAnswerTimeout(t *testing.T) {
	doc, err := os.ReadFile("../../docs/algorithms.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\\*\\*Too short an answer-timeout[^*]*\\*\\*(.*?)```sh\n(electsim [^\n]*)\n```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/algorithms.md has no example of too short an answer-timeout with its command")
	}
	text, command := strings.Join(strings.Fields(string(m[1])), " "), string(m[2])
	quoted := regexp.MustCompile("`(at-most-one-leader [^`]*)`").FindStringSubmatch(text)
	if quoted == nil {
		t.Fatalf("the example quotes no violation: %s", text)
	}
	args := append(shellWords(strings.TrimPrefix(command, "electsim ")), "--no-color", "--quiet")
	code, out, errOut := call(args...)
	if code != 0 || !strings.Contains(errOut, "warning: answer-timeout 20ms is not more than 2 × the max delay 15ms") ||
		!strings.Contains(out, "violations   "+quoted[1]) {
		t.Errorf("%s: exit %d, stderr %q, and no %q in:\n%s", command, code, errOut, quoted[1], out)
	}
	var without []string
	for i := 0; i < len(args); i++ {
		if args[i] == "--set" {
			i++
			continue
		}
		without = append(without, args[i])
	}
	if _, out, _ := call(without...); !strings.Contains(out, "✓ at-most-one-leader") || !strings.Contains(out, "★ 4") {
		t.Errorf("without --set answer-timeout: no ✓ at-most-one-leader with leader 4:\n%s", out)
	}
}

// A page that runs benchstat in its commands says how to install it, before it first runs it.
func TestDocsInstallBenchstat(t *testing.T) {
	const install = "go install golang.org/x/perf/cmd/benchstat@latest"
	pages, _ := filepath.Glob("../../docs/*.md")
	for _, page := range append(pages, "../../README.md") {
		doc, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllSubmatchIndex(doc, -1)
		for _, b := range blocks {
			block := string(doc[b[2]:b[3]])
			if !regexp.MustCompile(`(^|[|&;]\s*)benchstat `).MatchString(strings.ReplaceAll(block, "&& benchstat", "; benchstat")) {
				continue
			}
			if i := strings.Index(string(doc), install); i < 0 || i > b[2]+strings.Index(block, "benchstat ") {
				t.Errorf("%s runs benchstat before it says how to install it (%s)", filepath.Base(page), install)
			}
			break
		}
	}
}
