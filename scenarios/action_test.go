package scenarios

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

var five = NewMembers([]algo.ID{1, 2, 3, 4, 5})

func TestParseActionForms(t *testing.T) {
	link := func(a, b algo.ID) *network.Link { return &network.Link{From: a, To: b} }
	tests := []struct {
		text  string
		want  sim.Action
		canon string
	}{
		{"crash 5", sim.Action{Op: sim.Crash, Nodes: []algo.ID{5}}, "crash 5"},
		{"crash 4,5", sim.Action{Op: sim.Crash, Nodes: []algo.ID{4, 5}}, "crash 4 5"},
		{"recover 5   # comment", sim.Action{Op: sim.Recover, Nodes: []algo.ID{5}}, "recover 5"},
		{"pause 4", sim.Action{Op: sim.Pause, Nodes: []algo.ID{4}}, "pause 4"},
		{"resume 4", sim.Action{Op: sim.Resume, Nodes: []algo.ID{4}}, "resume 4"},
		{"elect 2", sim.Action{Op: sim.Elect, Nodes: []algo.ID{2}}, "elect 2"},
		{"partition 1 2 | 3 4 5", sim.Action{Op: sim.Partition, Groups: [][]algo.ID{{1, 2}, {3, 4, 5}}}, "partition 1 2 | 3 4 5"},
		{"partition 1,2|3", sim.Action{Op: sim.Partition, Groups: [][]algo.ID{{1, 2}, {3}}}, "partition 1 2 | 3"},
		{"partition 1", sim.Action{Op: sim.Partition, Groups: [][]algo.ID{{1}}}, "partition 1"},
		{"cut 1->2", sim.Action{Op: sim.Cut, Link: link(1, 2)}, "cut 1->2"},
		{"heal", sim.Action{Op: sim.Heal}, "heal"},
		{"heal 2->1", sim.Action{Op: sim.Heal, Link: link(2, 1)}, "heal 2->1"},
		{"delay 10ms", sim.Action{Op: sim.SetDelay, Delay: network.Delay{Min: 10 * time.Millisecond, Max: 10 * time.Millisecond}}, "delay 10ms"},
		{"delay 1->2 5ms..1.5s", sim.Action{Op: sim.SetDelay, Link: link(1, 2), Delay: network.Delay{Min: 5 * time.Millisecond, Max: 1500 * time.Millisecond}}, "delay 1->2 5ms..1500ms"},
		{"drop 50%", sim.Action{Op: sim.SetDrop, Drop: 50}, "drop 50%"},
		{"drop 2->3 12.5%", sim.Action{Op: sim.SetDrop, Link: link(2, 3), Drop: 12.5}, "drop 2->3 12.5%"},
		{`say "Node 5, the leader, crashes. Who notices first?"`, sim.Action{Op: sim.Say, Text: "Node 5, the leader, crashes. Who notices first?"}, `say "Node 5, the leader, crashes. Who notices first?"`},
		{`say Node 5, the "leader" → gone  # note`, sim.Action{}, ""}, // a quote inside unquoted text is an error
		{"say Node 5, the leader, crashes", sim.Action{Op: sim.Say, Text: "Node 5, the leader, crashes"}, `say "Node 5, the leader, crashes"`},
		{"break", sim.Action{Op: sim.Break}, "break"},
		{"crash leader", sim.Action{Op: sim.Crash, Nodes: []algo.ID{sim.AgreedLeader}}, "crash leader"},
		{"pause 2, leader", sim.Action{Op: sim.Pause, Nodes: []algo.ID{2, sim.AgreedLeader}}, "pause 2 leader"},
		{"elect leader", sim.Action{Op: sim.Elect, Nodes: []algo.ID{sim.AgreedLeader}}, "elect leader"},
		{"partition leader", sim.Action{Op: sim.Partition, Groups: [][]algo.ID{{sim.AgreedLeader}}}, "partition leader"},
		{"clock 2 rate 0.8", sim.Action{Op: sim.Clock, Nodes: []algo.ID{2}, Rate: 0.8}, "clock 2 rate 0.8"},
		{"clock 1 rate 2.50", sim.Action{Op: sim.Clock, Nodes: []algo.ID{1}, Rate: 2.5}, "clock 1 rate 2.5"},
		{"clock leader rate 0.5", sim.Action{Op: sim.Clock, Nodes: []algo.ID{sim.AgreedLeader}, Rate: 0.5}, "clock leader rate 0.5"},
		{"partition 1 2|leader 3", sim.Action{Op: sim.Partition, Groups: [][]algo.ID{{1, 2}, {sim.AgreedLeader, 3}}}, "partition 1 2 | leader 3"},
	}
	for _, tt := range tests {
		got, err := ParseAction(tt.text, five)
		if tt.canon == "" {
			if err == nil {
				t.Errorf("ParseAction(%q) = %v, want an error", tt.text, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseAction(%q): %v", tt.text, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseAction(%q) = %#v, want %#v", tt.text, got, tt.want)
		}
		if got.String() != tt.canon {
			t.Errorf("ParseAction(%q).String() = %q, want %q", tt.text, got.String(), tt.canon)
		}
		back, err := ParseAction(got.String(), five)
		if err != nil || !reflect.DeepEqual(back, got) {
			t.Errorf("round trip of %q: %#v, %v", got.String(), back, err)
		}
	}
}

func TestParseActionErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"", "column 1: expected an action (crash, recover, pause, resume, partition, cut, heal, delay, drop, elect, say, break, clock); the line ends here"},
		{"crush 5", `column 1: unknown action "crush" (expected crash, recover, pause, resume, partition, cut, heal, delay, drop, elect, say, break, clock)`},
		{"crash", "column 6: expected the node(s) to crash, such as crash 3, crash 2 4 or crash leader"},
		{"recover", "column 8: expected the node(s) to recover, such as recover 3 or recover 2 4"},
		{"crash 7", "column 7: unknown node 7 (nodes are 1..5)"},
		{"crash 0", `column 7: expected a node id (a positive whole number) or leader, got "0"`},
		{"crash five", `column 7: expected a node id (a positive whole number) or leader, got "five"`},
		{"recover five", `column 9: expected a node id (a positive whole number), got "five"`},
		{"crash leader leader", "column 14: leader is named twice"},
		{"partition leader | 1 leader", "column 22: leader is named twice"},
		{"recover leader", "column 9: recover takes node ids, not leader: the leader is a live node, never a crashed one — name the node to recover (the trace of a crash leader says which node it was)"},
		{"resume 2 leader", "column 10: resume takes node ids, not leader: by the time a paused leader resumes, the others may agree on another — name the node to resume (the trace of a pause leader says which node it was)"},
		{"cut leader->2", "column 5: a link joins two node ids, not leader — to cut the leader off from the others, write partition leader"},
		{"delay 1->leader 5ms", "column 10: a link joins two node ids, not leader — to cut the leader off from the others, write partition leader"},
		{"crash 2 2", "column 9: node 2 is named twice"},
		{"partition 1 2 | 3 1", "column 19: node 1 is named twice"},
		{"partition 1 2 |", "column 16: expected a group of nodes, such as partition 1 2 | 3 4 5"},
		{"partition | 1", "column 11: expected a group of nodes, such as partition 1 2 | 3 4 5"},
		{"crash , 2", "column 7: expected a node id before ','"},
		{"cut 1-2", `column 5: expected a link such as 1->2, got "1-2": write it 1->2`},
		{"heal 1-2", `column 6: expected a link such as 1->2, got "1-2": write it 1->2`},
		{"heal 1→2", `column 6: expected a link such as 1->2, got "1→2": write it 1->2`},
		{"cut 2=>1", `column 5: expected a link such as 1->2, got "2=>1": write it 2->1`},
		{"delay 1-2 10ms", `column 7: expected a link such as 1->2, got "1-2": write it 1->2`},
		{"drop 3>4 5%", `column 6: expected a link such as 1->2, got "3>4": write it 3->4`},
		{"heal 1 -> 2", `column 6: expected a link such as 1->2, got "1 -> 2": write it 1->2, without spaces`},
		{"cut 1 - 2", `column 5: expected a link such as 1->2, got "1 - 2": write it 1->2, without spaces`},
		{"cut 1->", `column 5: expected a link such as 1->2, got "1->"`},
		{"heal ->2", `column 6: expected a link such as 1->2, got "->2"`},
		{"heal 1->2 3", `column 11: unexpected "3": expected the end of the line`},
		{"cut 1->9", "column 8: unknown node 9 (nodes are 1..5)"},
		{"cut 1->1", "column 5: a link joins two different nodes, got 1->1"},
		{"cut", "column 4: expected the link to cut, such as 1->2; the line ends here"},
		{"delay 1->2 fast", `column 12: expected a duration such as 250us, 40ms, 1.5s or 2m, got "fast"`},
		{"delay 20ms..10ms", `column 7: range "20ms..10ms" runs backwards: write the smaller duration first`},
		{"delay -5ms", `column 7: expected a duration such as 250us, 40ms, 1.5s or 2m, got "-5ms"`},
		{"drop 50", `column 6: expected a percentage from 0% to 100%, such as 5% or 12.5%, got "50"`},
		{"drop 150%", `column 6: expected a percentage from 0% to 100%, such as 5% or 12.5%, got "150%"`},
		{"heal 1 2", `column 6: unexpected "1": heal takes nothing (it heals every link) or one cut link, such as heal 1->2`},
		{"break now", `column 7: unexpected "now": expected the end of the line`},
		{`say "unterminated`, `column 5: unterminated string: expected a closing " on the same line`},
		{"say", `column 4: expected the text to say, such as say "Who notices first?"`},
		{"clock", "column 6: expected the node whose clock drifts, such as clock 2 rate 0.8; the line ends here"},
		{"clock 9 rate 0.5", "column 7: unknown node 9 (nodes are 1..5)"},
		{"clock 2", "column 8: expected the word rate, such as clock 2 rate 0.8; the line ends here"},
		{"clock 2 speed 0.5", `column 9: expected the word rate, such as clock 2 rate 0.8, got "speed"`},
		{"clock 2 rate", "column 13: expected the clock's rate: how many seconds it advances per true second, such as clock 2 rate 0.8; the line ends here"},
		{"clock 2 rate 0", `column 14: expected a rate from 0.01 to 100, such as 0.8 or 1.25, got "0"`},
		{"clock 2 rate fast", `column 14: expected a rate from 0.01 to 100, such as 0.8 or 1.25, got "fast"`},
		{"clock 2 rate 0.5 3", `column 18: unexpected "3": expected the end of the line`},
		{"clock 2 3 rate 0.5", `column 9: expected the word rate, such as clock 2 rate 0.8, got "3"`},
	}
	for _, tt := range tests {
		_, err := ParseAction(tt.text, five)
		if err == nil {
			t.Errorf("ParseAction(%q): no error, want %q", tt.text, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("ParseAction(%q):\n got %q\nwant %q", tt.text, err.Error(), tt.want)
		}
	}
}

func TestParseAt(t *testing.T) {
	a, err := ParseAt("1.5s partition 1 2 | 3 4 5", five)
	if err != nil {
		t.Fatal(err)
	}
	if a.At != 1500*time.Millisecond || a.Op != sim.Partition {
		t.Errorf("got %#v", a)
	}
	if got := FormatAt(a); got != "1500ms partition 1 2 | 3 4 5" {
		t.Errorf("FormatAt = %q", got)
	}
	for text, want := range map[string]string{
		"crash 5":    `column 1: expected a duration such as 250us, 40ms, 1.5s or 2m, got "crash"`,
		"1s":         "column 3: expected an action (crash, recover, pause, resume, partition, cut, heal, delay, drop, elect, say, break, clock); the line ends here",
		"10 crash 5": `column 1: expected a duration with a unit, such as 10ms or 10s, got "10"`,
	} {
		if _, err := ParseAt(text, five); err == nil || err.Error() != want {
			t.Errorf("ParseAt(%q) = %v, want %q", text, err, want)
		}
	}
}

// An action may wait for inputs of its instant: "after K inputs" reads and writes back.
func TestParseAtAfterInputs(t *testing.T) {
	for text, after := range map[string]int{
		"160ms after 2 inputs crash 3": 2,
		"160ms after 1 input crash 3":  1,
		"160ms after 0 inputs crash 3": 0,
	} {
		a, err := ParseAt(text, five)
		if err != nil {
			t.Fatalf("ParseAt(%q): %v", text, err)
		}
		if a.At != 160*time.Millisecond || a.After != after || a.Op != sim.Crash {
			t.Errorf("ParseAt(%q) = %#v", text, a)
		}
		if back, err := ParseAt(FormatAt(a), five); err != nil || back.After != after || FormatAt(back) != FormatAt(a) {
			t.Errorf("FormatAt(ParseAt(%q)) = %q reads back as %#v, %v", text, FormatAt(a), back, err)
		}
	}
	if got := FormatAt(sim.Action{At: 160 * time.Millisecond, After: 2, Op: sim.Crash, Nodes: []algo.ID{3}}); got != "160ms after 2 inputs crash 3" {
		t.Errorf("FormatAt = %q", got)
	}
	for text, want := range map[string]string{
		"160ms after crash 3":           `column 13: expected how many of the instant's inputs come first, as in at 160ms after 2 inputs crash 3 (a whole number from 0 to 1000000), got "crash"`,
		"160ms after -1 inputs crash 3": `column 13: expected how many of the instant's inputs come first, as in at 160ms after 2 inputs crash 3 (a whole number from 0 to 1000000), got "-1"`,
		"160ms after +2 inputs crash 3": `column 13: expected how many of the instant's inputs come first, as in at 160ms after 2 inputs crash 3 (a whole number from 0 to 1000000), got "+2"`,
		"160ms after 2 crash 3":         `column 15: expected "inputs" after the number, as in at 160ms after 2 inputs crash 3, got "crash"`,
		"160ms after 2":                 `column 14: expected "inputs" after the number, as in at 160ms after 2 inputs crash 3; the line ends here`,
	} {
		if _, err := ParseAt(text, five); err == nil || err.Error() != want {
			t.Errorf("ParseAt(%q) = %v, want %q", text, err, want)
		}
	}
}

func TestMembersString(t *testing.T) {
	if got := NewMembers([]algo.ID{3, 7, 1}).String(); got != "3 7 1" {
		t.Errorf("got %q", got)
	}
}

// A partition that puts every node in one group splits nothing, and is refused, saying why
// (issue 28, item 17): in a file, on the command line, in the TUI and the page alike. One that
// leaves a node out, or names leader, is a partition.
func TestPartitionOfEveryNodeRefused(t *testing.T) {
	m := NewMembers([]algo.ID{1, 2, 3, 4, 5})
	want := "column 1: partition 1 2 3 4 5 puts every node in one group, which splits nothing: name one side, such as partition 1 — the nodes it leaves out form the other"
	for _, text := range []string{"partition 1 2 3 4 5", "partition 5,4,3,2,1"} {
		if _, err := ParseAction(text, m); err == nil || !strings.Contains(err.Error(), "puts every node in one group, which splits nothing") {
			t.Errorf("%s: %v", text, err)
		}
	}
	if _, err := ParseAction("partition 1 2 3 4 5", m); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	for _, text := range []string{"partition 1 2 3 4", "partition 1 2 | 3 4 5", "partition leader 1 2 3 4"} {
		if _, err := ParseAction(text, m); err != nil {
			t.Errorf("%s: %v", text, err)
		}
	}
	_, err := Parse("p.scn", []byte("nodes 3\nat 1s partition 1 2 3\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "p.scn:2:7: partition 1 2 3 puts every node in one group") {
		t.Errorf("in a file: %v", err)
	}
}
