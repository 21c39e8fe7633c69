package sim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"electsim/algo"
	"electsim/network"
)

// Op is what an Action does.
type Op uint8

// The actions of a scenario (docs/scenarios.md).
const (
	Crash     Op = iota + 1 // crash N...: state, timers and messages in flight to N are lost
	Recover                 // recover N...: a fresh node boots
	Pause                   // pause N...: N keeps its state but handles nothing
	Resume                  // resume N...: N handles what it was sent meanwhile, in order
	Partition               // partition A.. | B..: links between groups are cut both ways
	Cut                     // cut A->B: one direction only
	Heal                    // heal, or heal A->B: restore every link, or one cut link
	SetDelay                // delay D, or delay A->B D
	SetDrop                 // drop P%, or drop A->B P%
	Elect                   // elect N...: the node starts an election now
	Say                     // say "text": narration
	Break                   // break: a demo stops here until the presenter continues
	Clock                   // clock N rate R: N's clock runs R× true time from now on
)

var opNames = [...]string{
	Crash: "crash", Recover: "recover", Pause: "pause", Resume: "resume",
	Partition: "partition", Cut: "cut", Heal: "heal", SetDelay: "delay", SetDrop: "drop",
	Elect: "elect", Say: "say", Break: "break", Clock: "clock",
}

// String returns the action's word in the scenario language: "crash", "partition", ...
func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// Ops returns every action word, in the order of the scenario language reference.
func Ops() []Op {
	return []Op{Crash, Recover, Pause, Resume, Partition, Cut, Heal, SetDelay, SetDrop, Elect, Say, Break, Clock}
}

// Action is one scenario action at a virtual time.
type Action struct {
	At time.Duration
	// After is how many of the inputs of instant At — messages delivered, timers fired, nodes
	// booted or asked to elect — come before the action: 0, before all of them (with the
	// actions of At, in the order given); K, once K of them are handled, or once the instant
	// has no more if it has fewer. The scenario line `at 160ms after 2 inputs crash 3`.
	After  int
	Op     Op
	Nodes  []algo.ID     // crash, recover, pause, resume, elect, clock
	Groups [][]algo.ID   // partition
	Link   *network.Link // cut; heal, delay and drop of one directed link (nil: all links)
	Delay  network.Delay // delay
	Drop   float64       // drop, in percent (0 to 100)
	Text   string        // say
	Rate   float64       // clock: how many seconds the node's clock advances per true second

	// Leader is, in the trace's copy of an action that names `leader`, the node it was when
	// the action happened — it stands in Nodes or Groups where AgreedLeader stood — or
	// AgreedLeader itself when no node led, and the action could not happen (then AgreedLeader
	// is not in Nodes: "crash leader 3" has Nodes [3]). It is 0 in an action yet to happen.
	Leader algo.ID
}

// AgreedLeader stands, in the nodes of crash, pause and elect and in the groups of a
// partition, for the scenario word `leader`: the node that every live node names as its leader,
// and that leads, at the instant the action happens. A run in which an action names it at an
// instant with no such node stops there (Summary.Halted). Recover and resume do not take it —
// the leader is never crashed, and the node a pause took is not the one the others agree on by
// the time it resumes — nor do links, which name two ids.
const AgreedLeader algo.ID = -1

// String writes the action in the scenario language, without its time: "crash 5",
// "partition 1 2 | 3 4 5", "delay 1->2 300ms", `say "Who notices first?"`, "crash leader".
// Once the action has happened, it also says which node `leader` was: "crash leader (node 5)".
func (a Action) String() string {
	var b strings.Builder
	b.WriteString(a.Op.String())
	switch a.Op {
	case Crash, Recover, Pause, Resume, Elect:
		if a.Leader == AgreedLeader {
			b.WriteString(" leader")
		}
		a.writeIDs(&b, a.Nodes)
	case Clock:
		if a.Leader == AgreedLeader {
			b.WriteString(" leader")
		}
		a.writeIDs(&b, a.Nodes)
		b.WriteString(" rate " + FormatRate(a.Rate))
	case Partition:
		for i, g := range a.Groups {
			if i > 0 {
				b.WriteString(" |")
			}
			a.writeIDs(&b, g)
		}
	case Cut, Heal:
		if a.Link != nil {
			b.WriteString(" " + a.Link.String())
		}
	case SetDelay:
		if a.Link != nil {
			b.WriteString(" " + a.Link.String())
		}
		b.WriteString(" " + a.Delay.String())
	case SetDrop:
		if a.Link != nil {
			b.WriteString(" " + a.Link.String())
		}
		b.WriteString(" " + FormatPercent(a.Drop))
	case Say:
		b.WriteString(" " + strconv.Quote(a.Text))
	}
	return b.String()
}

// writeIDs writes ids as the action names them: `leader` for AgreedLeader, and for the node it
// turned out to be, "leader (node 5)".
func (a Action) writeIDs(b *strings.Builder, ids []algo.ID) {
	for _, id := range ids {
		switch {
		case id == AgreedLeader:
			b.WriteString(" leader")
		case a.Leader > 0 && id == a.Leader:
			fmt.Fprintf(b, " leader (node %d)", id)
		default:
			b.WriteString(" " + strconv.Itoa(int(id)))
		}
	}
}

// NamesLeader reports whether the action names `leader` (AgreedLeader) anywhere.
func (a Action) NamesLeader() bool {
	if slices.Contains(a.Nodes, AgreedLeader) {
		return true
	}
	for _, g := range a.Groups {
		if slices.Contains(g, AgreedLeader) {
			return true
		}
	}
	return a.Link != nil && (a.Link.From == AgreedLeader || a.Link.To == AgreedLeader)
}

// resolve returns the action as it happens with leader (positive) leading: a copy with
// AgreedLeader replaced by leader, and Leader set. It fails when the action names the leader's
// id as well, which would then be named twice.
func (a Action) resolve(leader algo.ID) (Action, error) {
	if slices.Contains(a.nodeIDs(), leader) {
		return a, fmt.Errorf("%s: the leader is node %d, which it names as well", a, leader)
	}
	swap := func(ids []algo.ID) []algo.ID {
		out := slices.Clone(ids)
		for i, id := range out {
			if id == AgreedLeader {
				out[i] = leader
			}
		}
		return out
	}
	r := a
	r.Leader = leader
	r.Nodes = swap(a.Nodes)
	if a.Groups != nil {
		r.Groups = make([][]algo.ID, len(a.Groups))
		for i, g := range a.Groups {
			r.Groups[i] = swap(g)
		}
	}
	return r, nil
}

// unresolved returns the trace's copy of an action that names `leader` at an instant when no
// node leads: Leader is AgreedLeader, and AgreedLeader is gone from Nodes (it stays in Groups,
// where String writes it as `leader`), so that nothing reads it as an id.
func (a Action) unresolved() Action {
	r := a
	r.Leader = AgreedLeader
	r.Nodes = slices.DeleteFunc(slices.Clone(a.Nodes), func(id algo.ID) bool { return id == AgreedLeader })
	return r
}

// FormatPercent writes a percentage the way the scenario language reads it: "5%", "12.5%".
func FormatPercent(p float64) string {
	return strconv.FormatFloat(p, 'f', -1, 64) + "%"
}

// validate checks an action against the cluster's ids. AgreedLeader is known: which node it
// is, is decided when the action happens.
func (a Action) validate(known func(algo.ID) bool) error {
	check := func(ids []algo.ID) error {
		for _, id := range ids {
			if id != AgreedLeader && !known(id) {
				return fmt.Errorf("%s: unknown node %d", a, id)
			}
		}
		return nil
	}
	if a.At < 0 {
		return fmt.Errorf("%s: negative time %s", a, a.At)
	}
	if a.After < 0 {
		return fmt.Errorf("%s: after %d inputs: expected 0 or more", a, a.After)
	}
	if a.NamesLeader() && WhyNotLeader(a.Op) != "" {
		return fmt.Errorf("%s: %s", a, WhyNotLeader(a.Op))
	}
	switch a.Op {
	case Crash, Recover, Pause, Resume, Elect:
		if len(a.Nodes) == 0 {
			return fmt.Errorf("%s: names no node", a.Op)
		}
		return check(a.Nodes)
	case Clock:
		if len(a.Nodes) == 0 {
			return fmt.Errorf("%s: names no node", a.Op)
		}
		if !(a.Rate >= MinRate && a.Rate <= MaxRate) {
			return fmt.Errorf("%s: expected a rate from %s to %s", a, FormatRate(MinRate), FormatRate(MaxRate))
		}
		return check(a.Nodes)
	case Partition:
		for _, g := range a.Groups {
			if err := check(g); err != nil {
				return err
			}
		}
	case Cut, Heal, SetDelay, SetDrop:
		if a.Link != nil {
			if err := check([]algo.ID{a.Link.From, a.Link.To}); err != nil {
				return err
			}
		}
		if a.Op == Cut && a.Link == nil {
			return fmt.Errorf("cut: names no link")
		}
		if a.Op == SetDrop && !(a.Drop >= 0 && a.Drop <= 100) {
			return fmt.Errorf("%s: expected a percentage from 0%% to 100%%", a)
		}
		if a.Op == SetDelay && (a.Delay.Min < 0 || a.Delay.Max < a.Delay.Min) {
			return fmt.Errorf("%s: expected a duration or a range low..high", a)
		}
	case Say, Break:
	default:
		return fmt.Errorf("unknown action %s", a.Op)
	}
	return nil
}

// WhyNotLeader says why action op cannot name `leader`, or returns "" if it can.
func WhyNotLeader(op Op) string {
	switch op {
	case Recover:
		return "recover takes node ids, not leader: the leader is a live node, never a crashed one — name the node to recover (the trace of a crash leader says which node it was)"
	case Resume:
		return "resume takes node ids, not leader: by the time a paused leader resumes, the others may agree on another — name the node to resume (the trace of a pause leader says which node it was)"
	case Cut, Heal, SetDelay, SetDrop:
		return "a link joins two node ids, not leader — to cut the leader off from the others, write partition leader"
	}
	return ""
}

// NodeIDs lists the nodes a names — its nodes, its partition's groups, its link's ends — in the
// order it names them. `leader` (AgreedLeader) is not among them until the action has happened.
func (a Action) NodeIDs() []algo.ID {
	return slices.DeleteFunc(a.nodeIDs(), func(id algo.ID) bool { return id == AgreedLeader })
}

func (a Action) nodeIDs() []algo.ID {
	ids := slices.Clone(a.Nodes)
	for _, g := range a.Groups {
		ids = append(ids, g...)
	}
	if a.Link != nil {
		ids = append(ids, a.Link.From, a.Link.To)
	}
	return ids
}
