package human

import (
	"fmt"
	"strconv"
)

// Plural writes n with its noun: "1 node", "3 nodes". The plural is one with an s, or many
// when given: Plural(2, "action of yours", "actions of yours").
func Plural(n int, one string, many ...string) string {
	if n == 1 {
		return "1 " + one
	}
	if len(many) > 0 {
		return strconv.Itoa(n) + " " + many[0]
	}
	return strconv.Itoa(n) + " " + one + "s"
}

// Thousands writes n with thousands separators: "20,000,000", "-1,500".
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// SI writes a rate with an SI prefix: "1.3M", "850k", "42".
func SI(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.0fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}
