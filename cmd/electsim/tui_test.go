package main

import (
	"strings"
	"testing"
)

// Flags that describe a run (--algo, --nodes, --ids) without a scenario play that run, as
// electsim run does — bare electsim too, not the default demo on other nodes; flags that tune a
// run still apply to the demo.
func TestFlagsDescribeARun(t *testing.T) {
	for _, flags := range [][]string{
		{"--nodes", "3", "--run", "200ms"},
		{"--algo", "ring", "--run", "100ms"},
		{"--ids", "4,2,9", "--run", "100ms", "--json"},
	} {
		code, bare, errOut := call(flags...)
		_, run, _ := call(append([]string{"run"}, flags...)...)
		if code != 0 || errOut != "" || bare != run {
			t.Errorf("electsim %s: exit %d, stderr %q; it does not print what electsim run does:\n%s\n---\n%s",
				strings.Join(flags, " "), code, errOut, bare, run)
		}
		if strings.Contains(bare, "Bully: the leader crashes") {
			t.Errorf("electsim %s plays the demo", strings.Join(flags, " "))
		}
	}
	code, out, _ := call("--seed", "7", "--quiet")
	if code != 0 || !strings.Contains(out, "Summary — bully, 5 nodes") {
		t.Errorf("electsim --seed 7: exit %d\n%s", code, out)
	}
	if code, _, _ := call("--seed", "7", "--json"); code != 0 {
		t.Errorf("electsim --seed 7 --json: exit %d", code)
	}
	// Not on a terminal, tui says how to play the same run headless.
	for _, tt := range []struct{ args, want string }{
		{"tui --nodes 40", "electsim tui: the terminal UI needs a terminal; electsim run --nodes 40 plays it headless\n"},
		{"tui --seed 3", "electsim tui: the terminal UI needs a terminal; electsim run bully-leader-crash --seed 3 plays it headless\n"},
		{"tui ring-partition", "electsim tui: the terminal UI needs a terminal; electsim run ring-partition plays it headless\n"},
		{"tui ring-partition --theme contrast", "electsim tui: the terminal UI needs a terminal; electsim run ring-partition plays it headless\n"},
		{"tui --theme=light --seed 3", "electsim tui: the terminal UI needs a terminal; electsim run bully-leader-crash --seed 3 plays it headless\n"},
		{"tui --theme neon", "electsim tui: --theme \"neon\": expected dark, light, contrast\n"},
	} {
		if code, _, errOut := call(strings.Fields(tt.args)...); code != 2 || errOut != tt.want {
			t.Errorf("electsim %s: exit %d, stderr %q, want %q", tt.args, code, errOut, tt.want)
		}
	}
}
