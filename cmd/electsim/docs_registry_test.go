package main

import (
	"os"
	"strings"
	"testing"

	"electsim/algo"
	"electsim/sim/check"
)

// docs/properties.md's matrix in theory is the registry's: a row for every row an algorithm
// declares (algo.Info.Guarantees), with the same verdicts, in the same order. An algorithm that
// changes what it declares, or a new one, fails here until the docs say so too.
func TestPropertiesDocMatchesTheRegistry(t *testing.T) {
	doc, err := os.ReadFile("../../docs/properties.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "## The matrix, in theory")
	end := strings.Index(text, "## The matrix, as measured")
	if start < 0 || end < start {
		t.Fatal("docs/properties.md has no section The matrix, in theory")
	}
	var got []string
	for _, line := range strings.Split(text[start:end], "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| row") {
			continue
		}
		got = append(got, strings.Join(strings.Fields(line), " "))
	}
	var want []string
	for _, r := range check.Rows() {
		cells := []string{r.Label()}
		for _, v := range r.Theory {
			cells = append(cells, v.String())
		}
		want = append(want, "| "+strings.Join(cells, " | ")+" |")
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("docs/properties.md's matrix in theory:\n%s\nthe registry's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// docs/algorithms.md describes every registered algorithm: its name appears as `--algo`
// would take it, or in its section's heading.
func TestAlgorithmsDocCoversTheRegistry(t *testing.T) {
	doc, err := os.ReadFile("../../docs/algorithms.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range algo.Algorithms() {
		if !strings.Contains(string(doc), "`"+a.Name+"`") && !strings.Contains(strings.ToLower(string(doc)), "## "+a.Name) {
			t.Errorf("docs/algorithms.md does not describe %s", a.Name)
		}
	}
}
