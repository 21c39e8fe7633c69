package algo

import (
	"bytes"
	"reflect"
	"testing"
)

// TestMessageAppendToCoversEveryField sets each field of Message in turn and checks the
// encoding changes: a field added to Message without being written by AppendTo fails here.
func TestMessageAppendToCoversEveryField(t *testing.T) {
	base := Message{}.AppendTo(nil)
	typ := reflect.TypeFor[Message]()
	seen := map[string]bool{}
	for i := range typ.NumField() {
		f := typ.Field(i)
		var m Message
		v := reflect.ValueOf(&m).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString("X")
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(3)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			v.SetUint(3)
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Pointer:
			if f.Type != reflect.TypeFor[*LogPart]() {
				t.Fatalf("Message.%s is a %s: teach this test (and AppendTo) to set and encode it", f.Name, f.Type)
			}
			v.Set(reflect.ValueOf(&LogPart{Index: 3}))
		default:
			t.Fatalf("Message.%s is a %s: teach this test (and AppendTo) to set and encode it", f.Name, v.Kind())
		}
		enc := m.AppendTo(nil)
		if bytes.Equal(enc, base) {
			t.Errorf("Message.%s set to a non-zero value does not change AppendTo's encoding: AppendTo must write it", f.Name)
		}
		key := string(enc)
		if seen[key] {
			t.Errorf("Message.%s set encodes like another field set: the encoding is ambiguous", f.Name)
		}
		seen[key] = true
	}
}

// TestMessageAppendToTellsApart checks messages that differ only in where one field's bytes end
// and the next begins do not encode alike, and that equal messages do.
func TestMessageAppendToTellsApart(t *testing.T) {
	ms := []Message{
		{Kind: "A", Value: 1},
		{Kind: "A", Term: 1},
		{Kind: "A", Phase: 1},
		{Kind: "A", Hop: 1},
		{Kind: "A", Phase: 1, Hop: 2},
		{Kind: "A", Phase: 2, Hop: 1},
		{Kind: "AB"},
		{Kind: "A", From: -1},
		{Kind: "A", Flag: true},
		{Kind: "A", Log: &LogPart{}},
		{Kind: "A", Log: &LogPart{Index: 1}},
		{Kind: "A", Log: &LogPart{IndexTerm: 1}},
		{Kind: "A", Log: &LogPart{Commit: 1}},
		{Kind: "A", Log: &LogPart{Entries: []Entry{{Index: 1}}}},
		{Kind: "A", Log: &LogPart{Entries: []Entry{{Term: 1}}}},
		{Kind: "A", Log: &LogPart{Entries: []Entry{{By: 1}}}},
		{Kind: "A", Log: &LogPart{Entries: []Entry{{Value: 1}}}},
		{Kind: "A", Log: &LogPart{Entries: []Entry{{Value: 1}, {Value: 1}}}},
	}
	for i, a := range ms {
		for j, b := range ms {
			if same := bytes.Equal(a.AppendTo(nil), b.AppendTo(nil)); same != (i == j) {
				t.Errorf("%+v and %+v: encodings equal = %v", a, b, same)
			}
		}
	}
	// Appending extends what is there.
	if got := (Message{Kind: "A"}).AppendTo([]byte{9}); got[0] != 9 || !bytes.Equal(got[1:], Message{Kind: "A"}.AppendTo(nil)) {
		t.Errorf("AppendTo does not append: %v", got)
	}
}

// TestMessageLabel shows the new fields readably and leaves every older label as it was.
func TestMessageLabel(t *testing.T) {
	for _, c := range []struct {
		m    Message
		want string
	}{
		{Message{Kind: "ELECTION"}, "ELECTION"},
		{Message{Kind: "ELECTION", Value: 3, Term: 2, Flag: true}, "ELECTION(3) t2 ✓"},
		{Message{Kind: "PROBE", Value: 7, Phase: 2, Hop: 3}, "PROBE(7, phase 2, hop 3)"},
		{Message{Kind: "REPLY", Value: 7, Phase: 2}, "REPLY(7, phase 2)"},
		{Message{Kind: "PROBE", Value: 7, Hop: 1}, "PROBE(7, hop 1)"},
		{Message{Kind: "ROUND", Phase: 4, Flag: true}, "ROUND(phase 4) ✓"},
		{Message{Kind: "PROBE", Value: 7, Phase: 1, From: 2, To: 3}, "PROBE(7, phase 1)"},
		{Message{Kind: "APPEND", Term: 3, Log: &LogPart{Index: 4, IndexTerm: 3, Commit: 2,
			Entries: []Entry{{Index: 5, Term: 3, Value: 17}, {Index: 6, Term: 3, Value: 18}}}},
			"APPEND t3 [at 4/t3, commit 2, entries 5/t3=17 6/t3=18]"},
		{Message{Kind: "APPEND", Term: 3, Log: &LogPart{}}, "APPEND t3 []"},
		{Message{Kind: "PROMISE", Term: 2, Log: &LogPart{Entries: []Entry{{Index: 1, Term: 1, By: 3, Value: 9}}}},
			"PROMISE t2 [entries 1/t1.3=9]"},
	} {
		if got := c.m.Label(); got != c.want {
			t.Errorf("%+v: Label %q, want %q", c.m, got, c.want)
		}
	}
	if got := (Message{Kind: "PROBE", Value: 7, Hop: 1, From: 2, To: 3}).String(); got != "PROBE(7, hop 1) 2→3" {
		t.Errorf("String %q", got)
	}
}
