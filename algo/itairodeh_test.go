package algo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// ringEnv is a node's Env in ringRun: its sends go to the run's queue, and its random source
// belongs to its place in the ring, not its id.
type ringEnv struct {
	run *ringRun
	pos int
	rng *rand.Rand
}

func (e *ringEnv) Now() time.Duration             { return 0 }
func (e *ringEnv) SetTimer(string, time.Duration) {}
func (e *ringEnv) CancelTimer(string)             {}
func (e *ringEnv) Rand() *rand.Rand               { return e.rng }
func (e *ringEnv) Tracing() bool                  { return true }
func (e *ringEnv) Note(string, ...any)            {}
func (e *ringEnv) Store(string, uint64)           {}
func (e *ringEnv) Load(string) (uint64, bool)     { return 0, false }
func (e *ringEnv) Send(to ID, m Message) {
	m.From, m.To = e.run.ring[e.pos], to
	e.run.queue = append(e.run.queue, m)
}

// ringRun runs an algorithm on a ring to the end, delivering messages in the order sent, and
// records every message by the places of its ends — not their ids.
type ringRun struct {
	ring  []ID
	queue []Message
	log   []string
}

func runRing(t *testing.T, info *Info, ring []ID, seed uint64) (log []string, states []string) {
	t.Helper()
	c, err := NewClusterOn(ring, info.TopologyList()[0], time.Millisecond, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &ringRun{ring: ring}
	pos := map[ID]int{}
	nodes := make([]Node, len(ring))
	envs := make([]*ringEnv, len(ring))
	for i, id := range ring {
		pos[id] = i
		nodes[i] = info.New(id, c)
		envs[i] = &ringEnv{run: r, pos: i, rng: rand.New(rand.NewPCG(seed, uint64(i)))}
	}
	label := func(id ID) string { // an id as the place of its node
		if p, ok := pos[id]; ok {
			return fmt.Sprintf("@%d", p)
		}
		return fmt.Sprint(id)
	}
	for i := range nodes {
		nodes[i].Start(envs[i])
	}
	for steps := 0; len(r.queue) > 0; steps++ {
		if steps > 1_000_000 {
			t.Fatal("the run does not end")
		}
		m := r.queue[0]
		r.queue = r.queue[1:]
		v := fmt.Sprint(m.Value)
		if m.Kind == KindElected {
			v = label(m.Value) // ELECTED carries the engine's name of the leader
		}
		r.log = append(r.log, fmt.Sprintf("%s %s→%s v%s p%d h%d %v", m.Kind, label(m.From), label(m.To), v, m.Phase, m.Hop, m.Flag))
		nodes[pos[m.To]].Receive(envs[pos[m.To]], m)
	}
	for _, n := range nodes {
		st := n.State()
		states = append(states, fmt.Sprintf("%s %s", st.Status, label(st.Leader)))
	}
	return r.log, states
}

// Itai–Rodeh never reads a node's id: the same ring under other ids — each place keeping its
// random source — runs the same, message for message, and elects the node at the same place.
func TestItaiRodehIgnoresIDs(t *testing.T) {
	info, err := Lookup("itai-rodeh")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 30; seed++ {
		n := 3 + int(seed%9)
		a := make([]ID, n)
		for i := range a {
			a[i] = ID(i + 1)
		}
		b := make([]ID, n) // the same places, other names: scattered, and out of order
		for i, p := range rand.New(rand.NewPCG(seed, 7)).Perm(n) {
			b[i] = ID(100 + 37*p)
		}
		logA, stA := runRing(t, info, a, seed)
		logB, stB := runRing(t, info, b, seed)
		if !slices.Equal(logA, logB) || !slices.Equal(stA, stB) {
			t.Fatalf("seed %d: the run depends on the ids:\n%s\n%v\nunder %v:\n%s\n%v", seed,
				strings.Join(logA, "\n"), stA, b, strings.Join(logB, "\n"), stB)
		}
		leaders := 0
		for _, st := range stA {
			if strings.HasPrefix(st, "leader") {
				leaders++
			}
		}
		if leaders != 1 {
			t.Fatalf("seed %d: %d leaders: %v", seed, leaders, stA)
		}
	}
}

// The test above catches an algorithm that reads ids: Peterson, which compares them, runs
// differently under other ids.
func TestRelabellingCatchesAnAlgorithmThatReadsIDs(t *testing.T) {
	info, err := Lookup("peterson")
	if err != nil {
		t.Fatal(err)
	}
	a := []ID{1, 2, 3, 4, 5, 6}
	b := []ID{6, 5, 4, 3, 2, 1}
	logA, _ := runRing(t, info, a, 1)
	logB, _ := runRing(t, info, b, 1)
	if slices.Equal(logA, logB) {
		t.Error("Peterson ran the same under reversed ids: the relabelling test would miss an algorithm that reads ids")
	}
}

// The expected cost, against what two nodes do by hand: each draws 1 or 2; different draws
// (half the time) cost 3 TOKEN hops — the lower swallowed after one, the higher round in two —
// and end it; equal draws cost 4 and start again. So 2 rounds and 3.5 hops a round on average,
// then 2 ELECTED: 9 messages.
func TestItaiRodehExpectedCost(t *testing.T) {
	if got := itaiRodehRounds(2); math.Abs(got-2) > 1e-9 {
		t.Errorf("rounds among 2: %v, want 2", got)
	}
	if got := itaiRodehMessages(2); math.Abs(got-9) > 1e-9 {
		t.Errorf("messages among 2: %v, want 9", got)
	}
	// Among many nodes, a round is rarely tied: about e/(e−1) ≈ 1.58 rounds at most.
	if got := itaiRodehRounds(1000); got < 1 || got > math.E/(math.E-1) {
		t.Errorf("rounds among 1000: %v", got)
	}
}
