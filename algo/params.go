package algo

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ParamKind is the type of value a parameter takes.
type ParamKind uint8

// The kinds of parameter value.
const (
	DurationParam ParamKind = iota // "150ms"
	RangeParam                     // "150ms..300ms", or one duration for a fixed value
	SwitchParam                    // "on" or "off"
	ChoiceParam                    // one of the words in Param.Choices: "predecessor" or "leader"
	CountParam                     // a positive whole number: "12"
	PerNodeParam                   // a number for each of some nodes, as node:number pairs: "1:4,2:9"
)

// Param describes one parameter an algorithm accepts.
type Param struct {
	Key     string
	Kind    ParamKind
	Default string // the default as the user would write it; a sentence when it is computed
	Help    string
	Choices []string // a ChoiceParam's words, the default first
}

// Value is a parameter's value: a duration (Min == Max), a range of durations, or a switch.
type Value struct {
	Min, Max time.Duration
	On       bool
	Choice   string // a ChoiceParam's word
	Count    int    // a CountParam's number
	// Numbers is a PerNodeParam's pairs, written canonically — ascending by node, no spaces:
	// "1:4,2:9". A string keeps Value comparable; Value.NodeNumbers reads it.
	Numbers string
}

// Params holds the parameters a scenario or flag set explicitly; the others take the
// algorithm's defaults.
type Params map[string]Value

// Duration returns the value set for key, or def when it was not set.
func (p Params) Duration(key string, def time.Duration) time.Duration {
	if v, ok := p[key]; ok {
		return v.Min
	}
	return def
}

// Range returns the range set for key, or [lo, hi] when it was not set.
func (p Params) Range(key string, lo, hi time.Duration) (time.Duration, time.Duration) {
	if v, ok := p[key]; ok {
		return v.Min, v.Max
	}
	return lo, hi
}

// Count returns the number set for key, or def when it was not set.
func (p Params) Count(key string, def int) int {
	if v, ok := p[key]; ok {
		return v.Count
	}
	return def
}

// Switch returns the switch set for key, or def when it was not set.
func (p Params) Switch(key string, def bool) bool {
	if v, ok := p[key]; ok {
		return v.On
	}
	return def
}

// Choice returns the word set for key, or def when it was not set.
func (p Params) Choice(key, def string) string {
	if v, ok := p[key]; ok {
		return v.Choice
	}
	return def
}

// NodeNumbers returns the node:number pairs set for key, ascending by node, or nil when it was
// not set.
func (p Params) NodeNumbers(key string) []NodeNumber {
	if v, ok := p[key]; ok {
		return v.NodeNumbers()
	}
	return nil
}

// Keys returns the keys that are set, sorted.
func (p Params) Keys() []string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Param returns the description of the parameter key, or false when the algorithm has none.
func (a *Info) Param(key string) (Param, bool) {
	for _, p := range a.Params {
		if p.Key == key {
			return p, true
		}
	}
	return Param{}, false
}

// ParamKeys returns the keys of the algorithm's parameters, in the order it declares them.
func (a *Info) ParamKeys() []string {
	keys := make([]string, len(a.Params))
	for i, p := range a.Params {
		keys[i] = p.Key
	}
	return keys
}

// ParseParam parses text as the value of the algorithm's parameter key. The error says which
// keys exist or what a value of that kind looks like.
func (a *Info) ParseParam(key, text string) (Value, error) {
	p, ok := a.Param(key)
	if !ok {
		return Value{}, fmt.Errorf("%s has no parameter %q (its parameters are %s)",
			a.Name, key, strings.Join(a.ParamKeys(), ", "))
	}
	if p.Kind == ChoiceParam {
		if !slices.Contains(p.Choices, text) {
			return Value{}, fmt.Errorf("%s: expected %s, got %q", key, orList(p.Choices), text)
		}
		return Value{Choice: text}, nil
	}
	v, err := ParseValue(p.Kind, text)
	if err != nil {
		return Value{}, fmt.Errorf("%s: %w", key, err)
	}
	return v, nil
}

// ParseValue parses text as a value of the given kind.
func ParseValue(kind ParamKind, text string) (Value, error) {
	// A timer of zero would fire again at the same virtual instant for ever, and a timer of a
	// nanosecond would flood the run: durations are at least MinTimer.
	switch kind {
	case DurationParam:
		d, err := ParseDuration(text)
		if err != nil {
			return Value{}, err
		}
		if d < MinTimer {
			return Value{}, fmt.Errorf("%s is too short: expected at least 100us, such as 50ms", text)
		}
		return Value{Min: d, Max: d}, nil
	case RangeParam:
		lo, hi, err := ParseRange(text)
		if err != nil {
			return Value{}, err
		}
		if lo < MinTimer {
			return Value{}, fmt.Errorf("%s is too short: expected durations of at least 100us, such as 150ms..300ms", text)
		}
		return Value{Min: lo, Max: hi}, nil
	case SwitchParam:
		switch text {
		case "on":
			return Value{On: true}, nil
		case "off":
			return Value{On: false}, nil
		}
		return Value{}, fmt.Errorf("expected on or off, got %q", text)
	case ChoiceParam:
		if text == "" {
			return Value{}, fmt.Errorf("expected a word")
		}
		return Value{Choice: text}, nil // which words it may be is the parameter's: Info.ParseParam checks
	case CountParam:
		k, err := strconv.Atoi(text)
		if err != nil || k < 1 || k > 1<<30 {
			return Value{}, fmt.Errorf("expected a positive whole number, such as 12, got %q", text)
		}
		return Value{Count: k}, nil
	case PerNodeParam:
		pairs, err := parseNodeNumbers(text)
		if err != nil {
			return Value{}, err
		}
		return Value{Numbers: formatNodeNumbers(pairs)}, nil
	}
	return Value{}, fmt.Errorf("unknown parameter kind %d", kind)
}

// FormatValue writes v the way ParseValue reads it back.
func FormatValue(kind ParamKind, v Value) string {
	switch kind {
	case DurationParam:
		return FormatDuration(v.Min)
	case RangeParam:
		return FormatRange(v.Min, v.Max)
	case SwitchParam:
		if v.On {
			return "on"
		}
		return "off"
	case ChoiceParam:
		return v.Choice
	case CountParam:
		return strconv.Itoa(v.Count)
	case PerNodeParam:
		return v.Numbers
	}
	return "?"
}

// orList writes words as "a", "a or b", or "a, b or c".
func orList(words []string) string {
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// MinTimer is the shortest value a timing parameter may take.
const MinTimer = 100 * time.Microsecond

// MaxDuration is the longest virtual duration electsim reads: long enough for any lesson, short
// enough that sums of durations never overflow.
const MaxDuration = 1000 * time.Hour

// ParseDuration reads a virtual duration: "0", or a non-negative number with a unit, as in
// "250us", "40ms", "1.5s", "2m", up to MaxDuration.
func ParseDuration(s string) (time.Duration, error) {
	if s == "0" {
		return 0, nil
	}
	bad := fmt.Errorf("expected a duration such as 250us, 40ms, 1.5s or 2m, got %q", s)
	switch {
	case s == "":
		return 0, bad
	case s[0] == '.':
		return 0, fmt.Errorf("expected a duration such as 250us, 40ms, 1.5s or 2m, got %q: write 0%s", s, s)
	case s[0] < '0' || s[0] > '9':
		return 0, bad
	case strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0:
		return 0, fmt.Errorf("expected a duration with a unit, such as %sms or %ss, got %q", s, s, s)
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, bad
	}
	if d > MaxDuration {
		return 0, fmt.Errorf("%s is too long: durations go up to 1000h", s)
	}
	return d, nil
}

// ParseRange reads "D" (a fixed duration) or "D1..D2" with D1 ≤ D2.
func ParseRange(s string) (lo, hi time.Duration, err error) {
	a, b, isRange := strings.Cut(s, "..")
	if !isRange {
		d, err := ParseDuration(s)
		return d, d, err
	}
	if strings.HasPrefix(b, ".") {
		return 0, 0, fmt.Errorf("expected a range with two dots, such as 5ms..15ms, got %q", s)
	}
	if lo, err = ParseDuration(a); err != nil {
		return 0, 0, err
	}
	if hi, err = ParseDuration(b); err != nil {
		return 0, 0, err
	}
	if lo > hi {
		return 0, 0, fmt.Errorf("range %q runs backwards: write the smaller duration first", s)
	}
	return lo, hi, nil
}

// FormatDuration writes d in the largest unit that keeps it a whole number — "2m", "2s",
// "150ms", "250us", "0" — except that a duration over a millisecond that is not a whole number
// of them is written in milliseconds with decimals: "305.28ms", not "305280us". ParseDuration
// reads it back exactly.
func FormatDuration(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	case d%time.Millisecond == 0:
		return strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
	case d > time.Millisecond || d < -time.Millisecond:
		// 305.28ms, not 305280us: exact, and read at a glance beside whole milliseconds.
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', -1, 64) + "ms"
	case d%time.Microsecond == 0:
		return strconv.FormatInt(int64(d/time.Microsecond), 10) + "us"
	}
	return strconv.FormatInt(int64(d), 10) + "ns"
}

// FormatRange writes "D" when lo == hi and "D1..D2" otherwise.
func FormatRange(lo, hi time.Duration) string {
	if lo == hi {
		return FormatDuration(lo)
	}
	return FormatDuration(lo) + ".." + FormatDuration(hi)
}

// AndList writes ids as "1", "1 and 3", or "1, 3 and 4".
func AndList(ids []ID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
