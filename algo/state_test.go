package algo

import (
	"reflect"
	"slices"
	"testing"
	"time"
)

// An idSet encodes the same whatever order its ids came in, and its clone shares nothing with
// it — beyond the four ids kept inline too.
func TestIDSetEncodingAndClone(t *testing.T) {
	ids := []ID{9, 3, 7, 1, 12, 5, 8}
	var a, b idSet
	for i := range ids {
		a.add(ids[i])
		b.add(ids[len(ids)-1-i])
	}
	if ea, eb := a.appendTo(nil), b.appendTo(nil); string(ea) != string(eb) {
		t.Errorf("the same ids added in two orders encode as %x and %x", ea, eb)
	}
	c := a.clone()
	before := string(c.appendTo(nil))
	a.add(2)
	a.add(20)
	if string(c.appendTo(nil)) != before || c.has(2) || c.has(20) {
		t.Errorf("adding to a set changed its clone")
	}
	a.clear()
	if string(c.appendTo(nil)) != before {
		t.Errorf("clearing a set changed its clone")
	}
}

// The writers of times: a deadline passed is 0 however long ago; a moment longer ago than the
// span, or never, is -1.
func TestTimeWriters(t *testing.T) {
	const now = 500 * time.Millisecond
	same := func(a, b []byte) bool { return string(a) == string(b) }
	if !same(appendDeadline(nil, 100*time.Millisecond, now), appendDeadline(nil, 499*time.Millisecond, now)) ||
		!same(appendDeadline(nil, now, now), appendDeadline(nil, 0, now)) {
		t.Error("passed deadlines encode differently")
	}
	if same(appendDeadline(nil, 600*time.Millisecond, now), appendDeadline(nil, 700*time.Millisecond, now)) {
		t.Error("deadlines to come encode alike")
	}
	within := 150 * time.Millisecond
	if !same(appendRecent(nil, 100*time.Millisecond, now, within), appendRecent(nil, -1, now, within)) {
		t.Error("a moment too long ago and never encode differently")
	}
	if same(appendRecent(nil, 350*time.Millisecond, now, within), appendRecent(nil, 349*time.Millisecond, now, within)) {
		t.Error("a moment just within the span is written as too long ago")
	}
}

// fieldDecisions holds, for each algorithm's node type, how Clone copies each field and whether
// AppendState writes it. An algorithm's own test file adds its entry (in an init function).
var fieldDecisions = map[reflect.Type]map[string]string{}

// Every field of every algorithm's node has a decision on how Clone copies it and whether
// AppendState writes it. A field added without one fails here: decide, and write it down.
func TestCloneAndStateCoverEveryField(t *testing.T) {
	decided := map[reflect.Type]map[string]string{
		reflect.TypeFor[Bully](): {
			"id": "written", "st": "written",
			"all": "the cluster's, shared", "higher": "the cluster's, shared", "cfg": "shared timing",
		},
		reflect.TypeFor[Ring](): {
			"id": "written", "round": "written", "leader": "written", "status": "written",
			"participant": "written", "passed": "copied, written", "announced": "copied, written",
			"suspect": "copied, written while running", "pending": "copied, written",
			"next": "follows from the id", "pos": "follows from the id", "cfg": "shared ring and timing",
			"lapDone": "copied; shows only in notes",
		},
		reflect.TypeFor[LowestID](): {
			"id": "written", "st": "written", "listening": "written", "heard": "copied, written as ages",
			"all": "the cluster's, shared", "cfg": "shared timing",
		},
		reflect.TypeFor[Raft](): {
			"id": "written", "disk": "written", "status": "written", "leader": "written",
			"votes": "copied, written while a candidate (its size: the votes counted)",
			"heard": "copied, written while a leader with check-quorum",
			"all":   "the cluster's, shared", "self": "follows from the id", "cfg": "shared timing",
			"timeout": "copied; shows only in notes",
		},
		reflect.TypeFor[Lease](): {
			"id": "written", "st": "written", "token": "written", "holdsUntil": "written as a deadline",
			"seq": "written", "before": "written", "asked": "copied, written while a GRANT would count",
			"holder": "written", "granted": "written", "expires": "written as a deadline",
			"grace": "written as a deadline",
			"lock":  "follows from the cluster", "res": "follows from the cluster", "role": "follows from the id",
			"cfg": "shared timing",
		},
		reflect.TypeFor[ZooKeeper](): {
			"id": "written", "st": "written", "session": "written", "seq": "written",
			"sessions": "copied, written (expiries as deadlines)", "znodes": "copied, written",
			"watches": "copied, written", "grace": "written as a deadline", "service": "follows from the cluster", "cfg": "shared timing",
		},
	}
	for typ, fields := range fieldDecisions {
		decided[typ] = fields
	}
	for typ, fields := range decided {
		var have []string
		for i := range typ.NumField() {
			have = append(have, typ.Field(i).Name)
		}
		for _, f := range have {
			if _, ok := fields[f]; !ok {
				t.Errorf("%s.%s: no decision on how Clone copies it and whether AppendState writes it", typ.Name(), f)
			}
		}
		for f := range fields {
			if !slices.Contains(have, f) {
				t.Errorf("%s has no field %s any more: remove it here", typ.Name(), f)
			}
		}
	}
	for _, a := range Algorithms() {
		c, err := NewClusterOn([]ID{1, 2, 3, 4, 5}, a.TopologyList()[0], time.Millisecond, nil)
		if err != nil {
			t.Fatal(err)
		}
		typ := reflect.TypeOf(a.New(1, c))
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		if _, ok := decided[typ]; !ok {
			t.Errorf("%s's node %s: no decisions on its fields (add them to fieldDecisions in a test file of package algo, as docs/writing-an-algorithm.md, section 4, shows)", a.Name, typ)
		}
	}
}
