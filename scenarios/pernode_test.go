package scenarios

import (
	"strings"
	"testing"

	"electsim/algo"
)

// A per-node parameter's pairs may be written with or without a space after each comma; they
// must name nodes of the scenario, and a mistake is placed at the value.
func TestSetPerNodeParam(t *testing.T) {
	for _, value := range []string{"3:9,1:4", "3:9, 1:4", "3:9 ,1:4"} {
		sc, err := Parse("z.scn", []byte("algo zab\nnodes 5\nset zxid "+value+"\n"))
		if err != nil {
			t.Fatalf("%q: %v", value, err)
		}
		if len(sc.Params) != 1 || sc.Params[0].Value != (algo.Value{Numbers: "1:4,3:9"}) {
			t.Errorf("%q: params %+v", value, sc.Params)
		}
		if text := Format(sc); !strings.Contains(text, "set     zxid 1:4,3:9\n") && !strings.Contains(text, "set zxid 1:4,3:9\n") {
			t.Errorf("%q: formatted as\n%s", value, text)
		}
	}
	for src, want := range map[string]string{
		"algo zab\nnodes 5\nset zxid 1:4,7:9\n":  "z.scn:3:10: zxid: unknown node 7 (nodes are 1..5)",
		"algo zab\nnodes 5\nset zxid 1:4 2:9\n":  `z.scn:3:14: unexpected "2:9": expected the end of the line`,
		"algo zab\nnodes 5\nset zxid 1:4,\n":     `z.scn:3:10: zxid: expected node:number pairs separated by commas, such as 1:4,2:9, got ""`,
		"algo zab\nids 3 8\nset epoch 8:1,1:2\n": "z.scn:3:11: epoch: unknown node 1 (nodes are 3 8)",
	} {
		_, err := Parse("z.scn", []byte(src))
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v\nwant %s", src, err, want)
		}
	}
}
