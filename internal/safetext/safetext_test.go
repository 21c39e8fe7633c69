package safetext

import "testing"

func TestEscape(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Bully: the leader crashes", "Bully: the leader crashes"},
		{"Who leads — ★5?", "Who leads — ★5?"},
		{"\x1b]0;PWNED\x07x", `\x1b]0;PWNED\x07x`},
		{"\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"a\rb\nc", `a\x0db\x0ac`},
		{"tab\there", "tab here"},
		{"del\x7f", `del\x7f`},
		{"csi\u009b31m", `csi\u009b31m`},
		{"\u202eevil\u202c", `\u202eevil\u202c`},
		{"iso\u2066x\u2069", `iso\u2066x\u2069`},
		{"mark\u200f", `mark\u200f`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"", ""},
	}
	for _, c := range cases {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEscapeKeepsSafeStringsWithoutAllocating(t *testing.T) {
	s := "Node 5, the leader, crashes. Who notices first — 4 or 3?"
	if n := testing.AllocsPerRun(100, func() { _ = Escape(s) }); n != 0 {
		t.Errorf("Escape of a safe string allocated %v times", n)
	}
}

func FuzzEscape(f *testing.F) {
	f.Add("\x1b]0;x\x07")
	f.Add("plain")
	f.Fuzz(func(t *testing.T, s string) {
		out := Escape(s)
		if firstUnsafe(out) >= 0 {
			t.Fatalf("Escape(%q) = %q still holds an unsafe character", s, out)
		}
		if firstUnsafe(s) < 0 && out != s {
			t.Fatalf("Escape changed a safe string %q to %q", s, out)
		}
	})
}

func TestEscapeLinesKeepsLineBreaks(t *testing.T) {
	if got, want := EscapeLines("one\x1b[31m\ntwo\r\n"), "one\\x1b[31m\ntwo\\x0d\n"; got != want {
		t.Errorf("EscapeLines = %q, want %q", got, want)
	}
	if got, want := Escape("one\ntwo"), "one\\x0atwo"; got != want {
		t.Errorf("Escape = %q, want %q", got, want)
	}
}
