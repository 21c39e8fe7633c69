package network

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"electsim/algo"
)

// A clone decides every message's fate as the original does, and changing the clone —
// partitions, cuts, delays, losses, the FIFO bookkeeping, its random source — leaves the
// original deciding as a network built the same way and never cloned.
func TestClone(t *testing.T) {
	for _, table := range []bool{true, false} {
		ids := []algo.ID{1, 2, 3, 4}
		if !table {
			ids = []algo.ID{1, 2, 3, 100000} // too far apart for a table: the map
		}
		send := func(n *Network, now time.Duration) []time.Duration {
			var out []time.Duration
			for _, a := range ids {
				for _, b := range ids {
					at, r := n.Send(now, a, b)
					out = append(out, at, time.Duration(r))
				}
			}
			return out
		}
		build := func() (*Network, *rand.PCG) {
			pcg := rand.NewPCG(3, 4)
			n, err := New(Config{Delay: Delay{Min: time.Millisecond, Max: 20 * time.Millisecond}, Drop: 0.1, FIFO: true}, rand.New(pcg))
			if err != nil {
				t.Fatal(err)
			}
			n.Nodes(ids)
			n.Partition([][]algo.ID{{ids[0], ids[1]}})
			n.Cut(Link{ids[2], ids[3]})
			if _, err := n.SetDelay(&Link{ids[3], ids[2]}, Delay{Min: 30 * time.Millisecond, Max: 40 * time.Millisecond}); err != nil {
				t.Fatal(err)
			}
			if err := n.SetDrop(&Link{ids[1], ids[0]}, 0.5); err != nil {
				t.Fatal(err)
			}
			send(n, 0)
			return n, pcg
		}
		n, pcg := build()
		ref, _ := build()
		copied := *pcg
		c := n.Clone(rand.New(&copied))
		for now := time.Duration(0); now < 100*time.Millisecond; now += 7 * time.Millisecond {
			a, b, r := send(n, now), send(c, now), send(ref, now)
			if !slices.Equal(a, b) || !slices.Equal(a, r) {
				t.Fatalf("table %v: at %v the clone decided %v, the original %v, one never cloned %v", table, now, b, a, r)
			}
		}
		// Each of these changes a map or table in place, where a shallow copy would share it.
		// (The links are within the partition's groups, where it does not block them.)
		c.Cut(Link{ids[0], ids[1]})
		c.Restore(Link{ids[2], ids[3]})
		if _, err := c.SetDelay(&Link{ids[3], ids[2]}, Delay{Min: 90 * time.Millisecond, Max: 90 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		if err := c.SetDrop(&Link{ids[1], ids[0]}, 1); err != nil {
			t.Fatal(err)
		}
		c.InFlight(Link{ids[3], ids[2]}, time.Hour)
		send(c, 200*time.Millisecond)
		c.Partition([][]algo.ID{{ids[0]}})
		c.Heal()
		if a, r := send(n, 300*time.Millisecond), send(ref, 300*time.Millisecond); !slices.Equal(a, r) {
			t.Errorf("table %v: changing a clone changed the original: it decided %v, one never cloned %v", table, a, r)
		}
	}
}

// Clone decides on every field of Network: a field added without a decision fails here.
func TestCloneCoversEveryField(t *testing.T) {
	decided := map[string]string{
		"rng": "the caller's copy of the source", "delay": "value", "drop": "value", "fifo": "value",
		"group": "copied", "cuts": "copied", "delays": "copied", "drops": "copied",
		"tracking": "value", "last": "copied (table and map)", "plain": "value",
	}
	typ := reflect.TypeFor[Network]()
	for i := range typ.NumField() {
		if f := typ.Field(i).Name; decided[f] == "" {
			t.Errorf("Network.%s: Clone has no decision on it", f)
		}
	}
	if typ.NumField() != len(decided) {
		t.Errorf("Network has %d fields, %d decided on", typ.NumField(), len(decided))
	}
	if typ := reflect.TypeFor[lastTimes](); typ.NumField() != 4 {
		t.Errorf("lastTimes has %d fields, Clone copies table and m and the rest by value: decide on the new one", typ.NumField())
	}
}
