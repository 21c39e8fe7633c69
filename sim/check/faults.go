package check

import (
	"fmt"
	"strings"
)

// Faults is a set of fault classes the checker may inject.
type Faults uint8

// The fault classes. Recover implies Crash: a recovery needs a crash before it.
const (
	Crash     Faults = 1 << iota // crash N: the node stops, its state lost
	Recover                      // crash N, and later recover N: a fresh node boots
	Partition                    // partition A.. | B.., or a one-way cut A->B, later healed
	Delay                        // a delay spike, on every link or one, often beyond the timeouts
	Pause                        // pause N, later resume N: a frozen process that wakes up believing
	Loss                         // drop P%, on every link or one
	Drift                        // clock N rate R, R within the drift bound of 1, later back to 1
)

// None is the empty set: runs with no faults at all, only the network's own randomness.
const None Faults = 0

type faultName struct {
	f    Faults
	name string
}

// faultNames lists the classes in the order of the command line and the matrix.
func faultNames() []faultName {
	return []faultName{{Crash, "crash"}, {Recover, "recover"}, {Partition, "partition"}, {Delay, "delay"}, {Pause, "pause"}, {Loss, "loss"}, {Drift, "drift"}}
}

// FaultNames returns the names of the fault classes, as --faults takes them.
func FaultNames() []string {
	var names []string
	for _, f := range faultNames() {
		names = append(names, f.name)
	}
	return names
}

// ParseFaults reads a comma-separated list of fault classes ("crash,partition"), or "none".
// The error names the word it does not know and lists the ones it does.
func ParseFaults(s string) (Faults, error) {
	if strings.TrimSpace(s) == "none" {
		return None, nil
	}
	var set Faults
	for _, word := range strings.Split(s, ",") {
		word = strings.TrimSpace(word)
		if word == "" {
			return 0, fmt.Errorf("expected fault classes separated by commas, such as crash,partition (or none)")
		}
		found := false
		for _, f := range faultNames() {
			if f.name == word {
				set |= f.f
				found = true
			}
		}
		switch {
		case !found && word == "none":
			return 0, fmt.Errorf("none stands alone: give none, or fault classes (%s)", strings.Join(FaultNames(), ", "))
		case !found:
			return 0, fmt.Errorf("unknown fault class %q (choose from %s, or none)", word, strings.Join(FaultNames(), ", "))
		}
	}
	if set&Recover != 0 {
		set |= Crash
	}
	return set, nil
}

// Has reports whether every class of f is in the set.
func (s Faults) Has(f Faults) bool { return s&f == f }

// String writes the set as ParseFaults reads it: "crash,recover,partition", or "none".
func (s Faults) String() string {
	if s == None {
		return "none"
	}
	var names []string
	for _, f := range faultNames() {
		if s.Has(f.f) {
			names = append(names, f.name)
		}
	}
	return strings.Join(names, ",")
}
