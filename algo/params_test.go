package algo

import (
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// ParseDuration reads "0", or a non-negative number with a unit, as in "250us", "40ms", "1.5s",
// "2m".
func TestParseDurationAccepts(t *testing.T) {
	cases := []struct {
		in   string
		want time.Duration
	}{
		{"0", 0},
		{"250us", 250 * time.Microsecond},
		{"40ms", 40 * time.Millisecond},
		{"1.5s", 1500 * time.Millisecond},
		{"2m", 2 * time.Minute},
		{"0ms", 0},
		{"7ns", 7},
	}
	for _, c := range cases {
		got, err := ParseDuration(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

// ParseDuration rejects an empty string, a negative duration, a number without a unit, a word,
// and a unit without a number; the error shows an example of what it wants.
func TestParseDurationRejects(t *testing.T) {
	for _, in := range []string{"", "-5ms", "5", "fast", "ms", "+5ms", " 5ms", "5 ms", "00"} {
		d, err := ParseDuration(in)
		if err == nil {
			t.Errorf("ParseDuration(%q) = %v, want an error", in, d)
			continue
		}
		example := strings.Contains(err.Error(), "40ms") || strings.Contains(err.Error(), "such as "+in+"ms")
		if !example || !strings.Contains(err.Error(), `"`+in+`"`) {
			t.Errorf("ParseDuration(%q): error %q should give an example and quote the input", in, err)
		}
	}
}

// "FormatDuration writes d in the largest unit that keeps it a whole number […] except that a
// duration over a millisecond that is not a whole number of them is written in milliseconds with
// decimals […]. ParseDuration reads it back exactly."
func TestFormatDurationRoundTrip(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want string
	}{
		{0, "0"},
		{7, "7ns"},
		{250 * time.Microsecond, "250us"},
		{1500 * time.Millisecond, "1500ms"},
		{150 * time.Millisecond, "150ms"},
		{2 * time.Second, "2s"},
		{2 * time.Minute, "2m"},
		{time.Hour + time.Nanosecond, "3600000.000001ms"},
		{1001 * time.Microsecond, "1.001ms"},
		{305280 * time.Microsecond, "305.28ms"},
		{999 * time.Microsecond, "999us"},
	}
	for _, c := range cases {
		s := FormatDuration(c.d)
		if s != c.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", c.d, s, c.want)
		}
		back, err := ParseDuration(s)
		if err != nil || back != c.d {
			t.Errorf("ParseDuration(FormatDuration(%v) = %q) = %v, %v", c.d, s, back, err)
		}
	}
	// A spread of awkward values.
	for d := time.Duration(1); d < 10*time.Minute; d = d*7 + 3 {
		s := FormatDuration(d)
		if back, err := ParseDuration(s); err != nil || back != d {
			t.Errorf("ParseDuration(FormatDuration(%d) = %q) = %v, %v", d, s, back, err)
		}
	}
}

// "ParseRange reads "D" (a fixed duration) or "D1..D2" with D1 ≤ D2."
func TestParseRange(t *testing.T) {
	good := []struct {
		in     string
		lo, hi time.Duration
	}{
		{"5ms..15ms", 5 * ms, 15 * ms},
		{"10ms", 10 * ms, 10 * ms},
		{"10ms..10ms", 10 * ms, 10 * ms},
		{"0..1.5s", 0, 1500 * ms},
	}
	for _, c := range good {
		lo, hi, err := ParseRange(c.in)
		if err != nil || lo != c.lo || hi != c.hi {
			t.Errorf("ParseRange(%q) = %v, %v, %v; want %v, %v", c.in, lo, hi, err, c.lo, c.hi)
		}
	}
	_, _, err := ParseRange("15ms..5ms")
	if err == nil || !strings.Contains(err.Error(), "backwards") {
		t.Errorf("ParseRange(15ms..5ms): error %v, want one saying the range runs backwards", err)
	}
	for _, in := range []string{"", "..", "5ms..", "..5ms", "5ms...15ms", "5ms..10ms..15ms", "5..15ms", "fast"} {
		if lo, hi, err := ParseRange(in); err == nil {
			t.Errorf("ParseRange(%q) = %v, %v, want an error", in, lo, hi)
		}
	}
}

// ParseRange rejects "D1...D2" (a typo'd third dot). Regression: it used to read it as "D1" ..
// ".D2", because ParseDuration accepted a leading dot, so "10us...5ms" was silently the range
// 10us..500us and "150ms...300ms" was rejected as running backwards.
func TestParseRangeRejectsThreeDots(t *testing.T) {
	for _, in := range []string{"10us...5ms", "150ms...300ms"} {
		lo, hi, err := ParseRange(in)
		if err == nil {
			t.Errorf("ParseRange(%q) = %v..%v, want an error (three dots)", in, lo, hi)
		} else if strings.Contains(err.Error(), "backwards") {
			t.Errorf("ParseRange(%q): error %q blames the order, not the extra dot", in, err)
		}
	}
}

// FormatRange writes "D" when lo == hi and "D1..D2" otherwise, and ParseRange reads it back.
func TestFormatRangeRoundTrip(t *testing.T) {
	cases := []struct {
		lo, hi time.Duration
		want   string
	}{
		{5 * ms, 15 * ms, "5ms..15ms"},
		{10 * ms, 10 * ms, "10ms"},
		{0, 1500 * ms, "0..1500ms"},
		{250 * time.Microsecond, 2 * time.Second, "250us..2s"},
	}
	for _, c := range cases {
		s := FormatRange(c.lo, c.hi)
		if s != c.want {
			t.Errorf("FormatRange(%v, %v) = %q, want %q", c.lo, c.hi, s, c.want)
		}
		lo, hi, err := ParseRange(s)
		if err != nil || lo != c.lo || hi != c.hi {
			t.Errorf("ParseRange(%q) = %v, %v, %v; want %v, %v", s, lo, hi, err, c.lo, c.hi)
		}
	}
}

// "ParseParam […] The error says which keys exist": an unknown key lists the valid keys.
func TestParseParamUnknownKey(t *testing.T) {
	info, err := Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	_, err = info.ParseParam("election-timeout", "100ms")
	if err == nil {
		t.Fatal("ParseParam(election-timeout) on bully: no error")
	}
	for _, want := range []string{"bully", `"election-timeout"`, "heartbeat", "timeout", "answer-timeout", "coordinator-timeout"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

// "ParseParam […] The error says […] what a value of that kind looks like", and names the key.
func TestParseParamBadValue(t *testing.T) {
	info, err := Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"fast", "-5ms", "5", "", "5ms..10ms"} {
		_, err := info.ParseParam("answer-timeout", bad)
		if err == nil {
			t.Errorf("ParseParam(answer-timeout, %q): no error", bad)
			continue
		}
		if !strings.HasPrefix(err.Error(), "answer-timeout: ") || !strings.Contains(err.Error(), "such as") {
			t.Errorf("ParseParam(answer-timeout, %q): error %q should name the key and give an example", bad, err)
		}
	}
	v, err := info.ParseParam("answer-timeout", "80ms")
	if err != nil || v != (Value{Min: 80 * ms, Max: 80 * ms}) {
		t.Errorf("ParseParam(answer-timeout, 80ms) = %+v, %v", v, err)
	}
}

// A switch parameter reads exactly "on" or "off".
func TestSwitchParam(t *testing.T) {
	for in, want := range map[string]bool{"on": true, "off": false} {
		v, err := ParseValue(SwitchParam, in)
		if err != nil || v != (Value{On: want}) {
			t.Errorf("ParseValue(switch, %q) = %+v, %v; want On=%v", in, v, err, want)
		}
	}
	for _, in := range []string{"", "ON", "Off", "true", "false", "yes", "no", "1", "0", " on"} {
		if v, err := ParseValue(SwitchParam, in); err == nil {
			t.Errorf("ParseValue(switch, %q) = %+v, want an error", in, v)
		} else if !strings.Contains(err.Error(), "on or off") {
			t.Errorf("ParseValue(switch, %q): error %q should say on or off", in, err)
		}
	}
}

// "FormatValue writes v the way ParseValue reads it back", for every kind.
func TestFormatValueRoundTrip(t *testing.T) {
	cases := []struct {
		kind ParamKind
		v    Value
		want string
	}{
		{DurationParam, Value{Min: 150 * ms, Max: 150 * ms}, "150ms"},
		{DurationParam, Value{Min: 250 * time.Microsecond, Max: 250 * time.Microsecond}, "250us"},
		{RangeParam, Value{Min: 150 * ms, Max: 300 * ms}, "150ms..300ms"},
		{RangeParam, Value{Min: 2 * time.Second, Max: 2 * time.Second}, "2s"},
		{SwitchParam, Value{On: true}, "on"},
		{SwitchParam, Value{On: false}, "off"},
	}
	for _, c := range cases {
		s := FormatValue(c.kind, c.v)
		if s != c.want {
			t.Errorf("FormatValue(%d, %+v) = %q, want %q", c.kind, c.v, s, c.want)
		}
		back, err := ParseValue(c.kind, s)
		if err != nil || back != c.v {
			t.Errorf("ParseValue(%d, %q) = %+v, %v; want %+v", c.kind, s, back, err, c.v)
		}
	}
	if _, err := ParseValue(ParamKind(99), "1ms"); err == nil {
		t.Error("ParseValue of an unknown kind: no error")
	}
}

// A timer parameter of zero would fire at the same virtual instant for ever, stalling the
// run, and one of a few nanoseconds would flood it: ParseValue refuses anything under 100us,
// and says what to write instead; 100us itself is fine.
func TestParseValueRefusesTinyTimers(t *testing.T) {
	for kind, text := range map[ParamKind]string{DurationParam: "0", RangeParam: "0..10ms"} {
		_, err := ParseValue(kind, text)
		if err == nil || !strings.Contains(err.Error(), "at least 100us") {
			t.Errorf("ParseValue(%d, %q) = %v, want an error asking for at least 100us", kind, text, err)
		}
	}
	for _, text := range []string{"99us", "1ns"} {
		if _, err := ParseValue(DurationParam, text); err == nil {
			t.Errorf("ParseValue(%q): no error", text)
		}
	}
	if _, err := ParseValue(DurationParam, "100us"); err != nil {
		t.Errorf("ParseValue(100us): %v", err)
	}
}

// Params: Duration, Range and Switch return the value set, or the default; Keys are sorted.
func TestParamsAccessors(t *testing.T) {
	p := Params{
		"b": {Min: 5 * ms, Max: 15 * ms},
		"a": {On: true},
		"c": {Min: 80 * ms, Max: 80 * ms},
	}
	if got := p.Duration("c", time.Second); got != 80*ms {
		t.Errorf("Duration(set) = %v", got)
	}
	if got := p.Duration("x", time.Second); got != time.Second {
		t.Errorf("Duration(unset) = %v", got)
	}
	if lo, hi := p.Range("b", 0, 0); lo != 5*ms || hi != 15*ms {
		t.Errorf("Range(set) = %v, %v", lo, hi)
	}
	if lo, hi := p.Range("x", 1, 2); lo != 1 || hi != 2 {
		t.Errorf("Range(unset) = %v, %v", lo, hi)
	}
	if !p.Switch("a", false) || p.Switch("x", false) || !p.Switch("x", true) {
		t.Error("Switch does not return the value set or the default")
	}
	if got := p.Keys(); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("Keys() = %v", got)
	}
}

// "Lookup returns the algorithm called name. The error lists the names that exist."
func TestLookup(t *testing.T) {
	if a, err := Lookup("bully"); err != nil || a.Name != "bully" {
		t.Errorf("Lookup(bully) = %v, %v", a, err)
	}
	_, err := Lookup("viewstamped")
	if err == nil {
		t.Fatal("Lookup(viewstamped): no error")
	}
	if !strings.Contains(err.Error(), `"viewstamped"`) {
		t.Errorf("error %q does not quote the name asked for", err)
	}
	for _, name := range Names() {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not list %s", err, name)
		}
	}
	if len(Names()) == 0 || !slices.Contains(Names(), "bully") {
		t.Errorf("Names() = %v, want it to contain bully", Names())
	}
}

// "NewCluster checks that ids are distinct and positive": it rejects duplicates, non-positive
// ids and an empty list, keeps the ring order, sorts, and indexes.
func TestNewCluster(t *testing.T) {
	bad := []struct {
		ids  []ID
		want string
	}{
		{nil, "at least one"},
		{[]ID{}, "at least one"},
		{[]ID{1, 2, 2}, "2 appears twice"},
		{[]ID{3, 1, 3}, "3 appears twice"},
		{[]ID{1, 0, 2}, "0 is not positive"},
		{[]ID{2, -4}, "-4 is not positive"},
	}
	for _, c := range bad {
		if _, err := NewCluster(c.ids, 0, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewCluster(%v): error %v, want one containing %q", c.ids, err, c.want)
		}
	}
	ring := []ID{3, 1, 5, 2}
	c, err := NewCluster(ring, 15*ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Ring, []ID{3, 1, 5, 2}) || !slices.Equal(c.Sorted, []ID{1, 2, 3, 5}) {
		t.Errorf("Ring %v Sorted %v", c.Ring, c.Sorted)
	}
	ring[0] = 99
	if c.Ring[0] != 3 {
		t.Error("the cluster shares the caller's slice")
	}
	if c.MaxDelay != 15*ms || c.Params == nil {
		t.Errorf("MaxDelay %v Params %v", c.MaxDelay, c.Params)
	}
	for i, id := range c.Sorted {
		if c.Index(id) != i {
			t.Errorf("Index(%d) = %d, want %d", id, c.Index(id), i)
		}
	}
	if c.Index(4) != -1 {
		t.Errorf("Index(4) = %d, want -1", c.Index(4))
	}
}

// Ids without gaps (1..n in any order, say) are indexed by arithmetic, without sorting; with a
// gap, by a table: a slice by id, or a map when the ids are far apart. Either way Sorted, Index,
// ID and RingPos agree with a sort of the ids and a search of them, and duplicates are refused.
func TestNewClusterContiguousAndNot(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 60).Draw(t, "n")
		first := ID(rapid.IntRange(1, 1000).Draw(t, "first"))
		ids := make([]ID, n)
		for i := range ids {
			ids[i] = first + ID(i)
		}
		switch rapid.IntRange(0, 3).Draw(t, "shape") {
		case 1: // a gap
			ids[rapid.IntRange(0, n-1).Draw(t, "gap at")] += ID(n)
		case 3: // far apart: too sparse for a slice by id
			for i := range ids {
				ids[i] = first + ID(i)*100_000
			}
		case 2: // a duplicate in place of one id
			if n > 1 {
				i := rapid.IntRange(1, n-1).Draw(t, "dup at")
				ids[i] = ids[rapid.IntRange(0, i-1).Draw(t, "dup of")]
			}
		}
		perm := rapid.Permutation(ids).Draw(t, "ring")
		sorted := slices.Sorted(slices.Values(perm))
		c, err := NewCluster(perm, 0, nil)
		if len(slices.Compact(slices.Clone(sorted))) != len(sorted) {
			if err == nil || !strings.Contains(err.Error(), "appears twice") {
				t.Fatalf("ids %v: error %v, want a duplicate refused", perm, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(c.Sorted, sorted) {
			t.Fatalf("Sorted %v, want %v", c.Sorted, sorted)
		}
		for i, id := range sorted {
			if got := c.ID(i); got != id {
				t.Fatalf("ids %v: ID(%d) = %d, want %d", perm, i, got, id)
			}
		}
		probes := []ID{first - 2, sorted[n-1] + 2}
		for _, id := range sorted {
			probes = append(probes, id-1, id, id+1)
		}
		for _, id := range probes {
			i, ok := slices.BinarySearch(sorted, id)
			if !ok {
				i = -1
			}
			if got := c.Index(id); got != i {
				t.Fatalf("ids %v: Index(%d) = %d, want %d", perm, id, got, i)
			}
			if pos := c.RingPos(id); pos != slices.Index(perm, id) {
				t.Fatalf("ids %v: RingPos(%d) = %d, want %d", perm, id, pos, slices.Index(perm, id))
			}
		}
	})
}

// One cluster serves any algorithm: each finds its own shared config, not the one another
// algorithm's nodes built first.
func TestSharedConfigPerAlgorithm(t *testing.T) {
	c, err := NewCluster([]ID{1, 2, 3, 4, 5}, 15*ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"raft", "bully", "ring", "lowest-id", "lease", "raft", "bully"} {
		info, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if n := info.New(2, c); n == nil {
			t.Fatalf("%s: no node", name)
		}
	}
	if newBullyConfig(c) != newBullyConfig(c) || newRingConfig(c) != newRingConfig(c) {
		t.Error("a cluster builds an algorithm's config more than once")
	}
}
