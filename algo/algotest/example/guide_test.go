package example_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The code docs/writing-an-algorithm.md shows of the example is the example's own, word for
// word, so that a student who copies the guide copies code that compiles and passes: every Go
// block of the guide that declares LeLann, its methods or its Info appears in lelann.go.
func TestGuideShowsTheExample(t *testing.T) {
	guide, err := os.ReadFile("../../../docs/writing-an-algorithm.md")
	if err != nil {
		t.Fatal(err)
	}
	var src []byte
	for _, f := range []string{"lelann.go", "lelann_test.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, b...)
	}
	checked := 0
	for _, m := range regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(guide), -1) {
		block := m[1]
		if !strings.Contains(block, "LeLann") && !strings.Contains(block, "func Info()") ||
			strings.Contains(block, "package algo") {
			continue
		}
		checked++
		for _, chunk := range strings.Split(strings.TrimSpace(block), "\n\n") {
			if !strings.Contains(string(src), chunk) {
				t.Errorf("the guide shows, and lelann.go does not have:\n%s", chunk)
			}
		}
	}
	if checked < 2 {
		t.Fatalf("the guide shows %d blocks of the example; the state machine and its Info expected", checked)
	}
}

// An algorithm added to algo/ itself meets one more test than the example does: every field of
// its node needs a decision on how Clone copies it and whether AppendState writes it
// (TestCloneAndStateCoverEveryField, algo/state_test.go). The guide says so, with the names a
// student types: the hook the test reads, and the external test package its conformance test
// needs.
func TestGuideNamesTheTestsOfAnAlgorithmInAlgo(t *testing.T) {
	guide, err := os.ReadFile("../../../docs/writing-an-algorithm.md")
	if err != nil {
		t.Fatal(err)
	}
	state, err := os.ReadFile("../../state_test.go")
	if err != nil {
		t.Fatal(err)
	}
	hook := regexp.MustCompile(`(?m)^var (\w+) = map\[reflect\.Type\]`).FindSubmatch(state)
	if hook == nil {
		t.Fatal("algo/state_test.go declares no map of field decisions by node type")
	}
	for _, want := range []string{string(hook[1]) + "[reflect.TypeFor[", "package algo_test", "TestCloneAndStateCoverEveryField"} {
		if !strings.Contains(string(guide), want) {
			t.Errorf("docs/writing-an-algorithm.md does not say %q", want)
		}
	}
}
