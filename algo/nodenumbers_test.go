package algo

import (
	"slices"
	"strings"
	"testing"
)

// A per-node value reads node:number pairs in any order, and is written back ascending by node,
// without spaces; Params and NumberOf read it.
func TestPerNodeParamRoundTrip(t *testing.T) {
	v, err := ParseValue(PerNodeParam, "3:9,1:4,12:0")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Value{Numbers: "1:4,3:9,12:0"}); v != want {
		t.Fatalf("ParseValue = %+v, want %+v", v, want)
	}
	if s := FormatValue(PerNodeParam, v); s != "1:4,3:9,12:0" {
		t.Errorf("FormatValue = %q", s)
	}
	if back, err := ParseValue(PerNodeParam, FormatValue(PerNodeParam, v)); err != nil || back != v {
		t.Errorf("read back: %+v, %v", back, err)
	}
	pairs := Params{"zxid": v}.NodeNumbers("zxid")
	if !slices.Equal(pairs, []NodeNumber{{1, 4}, {3, 9}, {12, 0}}) {
		t.Errorf("NodeNumbers = %v", pairs)
	}
	if (Params{}).NodeNumbers("zxid") != nil || (Value{}).NodeNumbers() != nil {
		t.Error("an unset per-node parameter has pairs")
	}
	for id, want := range map[ID]uint64{1: 4, 3: 9, 12: 0, 2: 7, 13: 7} {
		if got := NumberOf(pairs, id, 7); got != want {
			t.Errorf("NumberOf(%d) = %d, want %d", id, got, want)
		}
	}
	if v, err := ParseValue(PerNodeParam, "1:4294967295"); err != nil || v.NodeNumbers()[0].N != MaxNodeNumber {
		t.Errorf("the largest number: %+v, %v", v, err)
	}
}

// Every malformed per-node value is refused, saying what was expected and quoting no more than
// the pair at fault, shortened.
func TestPerNodeParamRejects(t *testing.T) {
	for text, want := range map[string]string{
		"":                              "expected node:number pairs separated by commas, such as 1:4,2:9",
		"14":                            `such as 1:4,2:9, got "14"`,
		"1:4,":                          `got ""`,
		"1:4,,2:3":                      `got ""`,
		"x:4":                           `a node id (a positive whole number) before the colon of "x:4"`,
		"0:4":                           `a node id (a positive whole number) before the colon of "0:4"`,
		"-1:4":                          `before the colon of "-1:4"`,
		"1:-4":                          `a whole number from 0 to 4294967295 after the colon of "1:-4"`,
		"1:+4":                          `after the colon of "1:+4"`,
		"1:04":                          `after the colon of "1:04"`,
		"1:4294967296":                  `after the colon of "1:4294967296"`,
		"1:4,2:9,1:3":                   `node 1 is given twice (1:4 and "1:3"): give each node once`,
		"1:" + strings.Repeat("9", 500): `after the colon of "1:999999999999999999…"`,
	} {
		_, err := ParseValue(PerNodeParam, text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseValue(%.20q) = %v, want an error with %q", text, err, want)
		}
		if err != nil && len(err.Error()) > 160 {
			t.Errorf("ParseValue(%.20q): an error of %d bytes quotes too much", text, len(err.Error()))
		}
	}
}
