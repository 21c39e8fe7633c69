package algo

import (
	"bytes"
	"reflect"
	"testing"
)

// TestAppendMessageEncodesEveryField sets each field of Message in turn, by reflection, and
// checks the encoding changes: a field added to Message without being encoded fails here.
func TestAppendMessageEncodesEveryField(t *testing.T) {
	base := AppendMessage(nil, Message{})
	typ := reflect.TypeOf(Message{})
	for i := range typ.NumField() {
		var m Message
		f := reflect.ValueOf(&m).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("X")
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			f.SetInt(7)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			f.SetUint(7)
		default:
			t.Fatalf("Message.%s is a %s: teach this test and AppendMessage to encode it", typ.Field(i).Name, f.Kind())
		}
		if bytes.Equal(AppendMessage(nil, m), base) {
			t.Errorf("Message.%s set to %v encodes as the zero message: AppendMessage leaves it out", typ.Field(i).Name, f.Interface())
		}
	}
	// Fields are told apart, not only set: the same value in two fields encodes differently.
	if bytes.Equal(AppendMessage(nil, Message{From: 1}), AppendMessage(nil, Message{To: 1})) {
		t.Error("From 1 and To 1 encode alike")
	}
	if bytes.Equal(AppendMessage(nil, Message{Kind: "A", From: 1}), AppendMessage(nil, Message{Kind: "A\x02"})) {
		t.Error("a kind's bytes run into the next field")
	}
}
