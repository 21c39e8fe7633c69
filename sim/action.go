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

// The actions of a scenario (DESIGN §5).
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
)

var opNames = [...]string{
	Crash: "crash", Recover: "recover", Pause: "pause", Resume: "resume",
	Partition: "partition", Cut: "cut", Heal: "heal", SetDelay: "delay", SetDrop: "drop",
	Elect: "elect", Say: "say", Break: "break",
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
	return []Op{Crash, Recover, Pause, Resume, Partition, Cut, Heal, SetDelay, SetDrop, Elect, Say, Break}
}

// Action is one scenario action at a virtual time.
type Action struct {
	At     time.Duration
	Op     Op
	Nodes  []algo.ID     // crash, recover, pause, resume, elect
	Groups [][]algo.ID   // partition
	Link   *network.Link // cut; heal, delay and drop of one directed link (nil: all links)
	Delay  network.Delay // delay
	Drop   float64       // drop, in percent (0 to 100)
	Text   string        // say
}

// String writes the action in the scenario language, without its time: "crash 5",
// "partition 1 2 | 3 4 5", "delay 1->2 300ms", `say "Who notices first?"`.
func (a Action) String() string {
	var b strings.Builder
	b.WriteString(a.Op.String())
	switch a.Op {
	case Crash, Recover, Pause, Resume, Elect:
		writeIDs(&b, a.Nodes)
	case Partition:
		for i, g := range a.Groups {
			if i > 0 {
				b.WriteString(" |")
			}
			writeIDs(&b, g)
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

func writeIDs(b *strings.Builder, ids []algo.ID) {
	for _, id := range ids {
		b.WriteString(" " + strconv.Itoa(int(id)))
	}
}

// FormatPercent writes a percentage the way the scenario language reads it: "5%", "12.5%".
func FormatPercent(p float64) string {
	return strconv.FormatFloat(p, 'f', -1, 64) + "%"
}

// validate checks an action against the cluster's ids.
func (a Action) validate(known func(algo.ID) bool) error {
	check := func(ids []algo.ID) error {
		for _, id := range ids {
			if !known(id) {
				return fmt.Errorf("%s: unknown node %d", a, id)
			}
		}
		return nil
	}
	if a.At < 0 {
		return fmt.Errorf("%s: negative time %s", a, a.At)
	}
	switch a.Op {
	case Crash, Recover, Pause, Resume, Elect:
		if len(a.Nodes) == 0 {
			return fmt.Errorf("%s: names no node", a.Op)
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

// NodeIDs lists the nodes a names — its nodes, its partition's groups, its link's ends — in the
// order it names them.
func (a Action) NodeIDs() []algo.ID {
	ids := slices.Clone(a.Nodes)
	for _, g := range a.Groups {
		ids = append(ids, g...)
	}
	if a.Link != nil {
		ids = append(ids, a.Link.From, a.Link.To)
	}
	return ids
}
