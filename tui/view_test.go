package tui

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"electsim/algo"
	"electsim/sim"
)

// state writes out everything the model holds — following pointers into this module's types,
// the session and its run among them — but the frame it keeps of the screen last drawn: what
// View may not change.
func state(m *Model) string {
	var b strings.Builder
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value, depth int)
	walk = func(v reflect.Value, depth int) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				b.WriteString("nil")
				return
			}
			fmt.Fprintf(&b, "&%x", v.Pointer())
			if !strings.HasPrefix(v.Elem().Type().PkgPath(), "electsim") || seen[v.Pointer()] {
				return // a library's own state, or one already written
			}
			seen[v.Pointer()] = true
			walk(v.Elem(), depth+1)
		case reflect.Struct:
			b.WriteString(v.Type().String() + "{")
			for i := range v.NumField() {
				if v.Type() == reflect.TypeFor[Model]() && v.Type().Field(i).Name == "frame" {
					continue
				}
				b.WriteString(v.Type().Field(i).Name + ":")
				walk(v.Field(i), depth+1)
				b.WriteString(" ")
			}
			b.WriteString("}")
		case reflect.Slice, reflect.Array:
			if v.Kind() == reflect.Slice && v.IsNil() {
				b.WriteString("nil")
				return
			}
			fmt.Fprintf(&b, "[%d:", v.Len())
			for i := range v.Len() {
				walk(v.Index(i), depth+1)
				b.WriteString(",")
			}
			b.WriteString("]")
		case reflect.Map:
			ks := v.MapKeys()
			slices.SortFunc(ks, func(a, b reflect.Value) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
			fmt.Fprintf(&b, "map%d{", v.Len())
			for _, k := range ks {
				fmt.Fprintf(&b, "%v:", k)
				walk(v.MapIndex(k), depth+1)
				b.WriteString(",")
			}
			b.WriteString("}")
		case reflect.Interface:
			if v.IsNil() {
				b.WriteString("nil")
				return
			}
			walk(v.Elem(), depth+1)
		case reflect.Func, reflect.Chan, reflect.UnsafePointer:
			fmt.Fprintf(&b, "%x", v.Pointer())
		case reflect.String:
			b.WriteString(fmt.Sprintf("%q", v.String()))
		case reflect.Bool:
			fmt.Fprint(&b, v.Bool())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			fmt.Fprint(&b, v.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			fmt.Fprint(&b, v.Uint())
		case reflect.Float32, reflect.Float64:
			fmt.Fprint(&b, v.Float())
		case reflect.Complex64, reflect.Complex128:
			fmt.Fprint(&b, v.Complex())
		default:
			panic(fmt.Sprintf("state: a %s", v.Kind()))
		}
	}
	walk(reflect.ValueOf(m), 0)
	return b.String()
}

// View changes nothing in the model, whatever the model is showing: drawn twice, the model is
// as it was and the frames are the same — after every kind of message Update takes.
func TestViewChangesNothing(t *testing.T) {
	type step struct {
		name string
		do   func(m *Model)
	}
	keys := func(k ...string) func(m *Model) { return func(m *Model) { press(m, k...) } }
	command := func(text string) func(m *Model) {
		return func(m *Model) { press(m, ":"); typeText(m, text) }
	}
	tick := func(m *Model) { m.Update(tickMsg{m.tick}) }
	flows := map[string][]step{
		"bully-leader-crash": {
			{"first screen", func(*Model) {}},
			{"step", keys("right")},
			{"at a break", keys("right")},
			{"go on", keys("n")},
			{"tick", tick},
			{"ticks to a break", func(m *Model) { playToBreak(m, 1) }},
			{"steps", func(m *Model) { steps(m, 30) }},
			{"row selected", keys("up", "up", "up")},
			{"page up", keys("pgup")},
			{"home", keys("home")},
			{"page down", keys("pgdown")},
			{"follow", keys("end")},
			{"back", keys("left")},
			{"back in a burst", func(m *Model) { burst(m, "hhh") }},
			{"node picked", keys("4")},
			{"crash", keys("c")},
			{"pause", keys("p")},
			{"filter open", keys("/")},
			{"filter typed", func(m *Model) { burst(m, "4 ok") }},
			{"filter taken", keys("enter")},
			{"command with a mistake", command("crush 3")},
			{"command closed", keys("esc")},
			{"partition", command("partition 1 2 | 3 4 5")},
			{"crash leader", command("crash leader")},
			{"back before the actions", func(m *Model) { burst(m, "hhhhhhhhhh") }},
			{"a question", keys("3", "c")},
			{"answered", keys("n")},
			{"help", keys("?")},
			{"history", keys("H")},
			{"history scrolled", keys("up", "pgup")},
			{"history top", keys("home")},
			{"history closed", keys("esc")},
			{"resized", func(m *Model) { m.Update(tea.WindowSizeMsg{Width: 70, Height: 20}) }},
			{"too small", func(m *Model) { m.Update(tea.WindowSizeMsg{Width: 50, Height: 12}) }},
			{"larger again", func(m *Model) { m.Update(tea.WindowSizeMsg{Width: 120, Height: 36}) }},
			{"save open", keys("s")},
			{"save closed", keys("esc")},
			{"the end", func(m *Model) {
				for !m.ss.Done() {
					m.Update(keyMsg("right"))
				}
			}},
			{"the end, a row selected", keys("up")},
			{"restart asks", keys("R")},
			{"restarted", keys("y")},
		},
		"gc-pause-split-brain": {
			{"split brain", func(m *Model) {
				for m.ss.Now() < 720*ms {
					press(m, "right")
				}
			}},
		},
	}
	for name, flow := range flows {
		m := newModel(t, name, nil)
		for _, s := range flow {
			s.do(m)
			before := state(m)
			first := m.View()
			if after := state(m); after != before {
				t.Fatalf("%s, %s: View changed the model:\n%s", name, s.name, firstDiff(before, after))
			}
			if again := m.View(); again != first || state(m) != before {
				t.Fatalf("%s, %s: a second View drew another frame, or changed the model", name, s.name)
			}
		}
	}
	// Forty nodes, listed.
	m := newModel(t, "bully-leader-crash", func(c *sim.Config) {
		c.IDs = nil
		for i := 1; i <= 40; i++ {
			c.IDs = append(c.IDs, algo.ID(i))
		}
	})
	steps(m, 60)
	press(m, "up")
	before := state(m)
	m.View()
	if state(m) != before {
		t.Error("View changed the model of a 40-node run")
	}
}

// firstDiff shows where two states first differ.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-300)
	return fmt.Sprintf("before …%s\nafter  …%s", a[from:min(len(a), i+200)], b[from:min(len(b), i+200)])
}

// A frame drawn while the model lags behind its session — stepped other than by Update — shows
// the session as it is, and leaves the model as it was.
func TestViewOfAModelBehindItsSession(t *testing.T) {
	m := newModel(t, "bully-boot", nil)
	steps(m, 5)
	press(m, "up")
	for range 3 {
		m.ss.Next()
	}
	before := state(m)
	view := m.View()
	if state(m) != before {
		t.Error("View changed the model")
	}
	if !strings.Contains(view, "step 8 ") || !strings.Contains(view, "#8 ") {
		t.Errorf("the frame does not show step 8:\n%s", view)
	}
	press(m, "end")
	if view2 := m.View(); !strings.Contains(view2, "#8 ") {
		t.Errorf("once the model has caught up:\n%s", view2)
	}
}
