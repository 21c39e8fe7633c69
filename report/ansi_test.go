package report

import (
	"testing"

	"electsim/sim"
)

// The escapes the command line colours with, and none around nothing.
func TestANSI(t *testing.T) {
	var p Palette = ANSI{}
	for _, tt := range []struct{ got, want string }{
		{p.Red("✗"), "\x1b[31m✗\x1b[0m"},
		{p.Heading("Summary"), "\x1b[1;4mSummary\x1b[0m"},
		{p.Status(sim.Leader, "★ 5"), "\x1b[1;33m★ 5\x1b[0m"},
		{p.Status(sim.Follower, "3"), "3"},
		{p.Kind("HEARTBEAT", 3, true), "\x1b[2mHEARTBEAT\x1b[0m"},
		{p.Kind("OK", 8, false), "\x1b[34mOK\x1b[0m"},
		{p.Kind("OTHER", -1, false), "OTHER"},
		{p.Dim(""), ""},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
