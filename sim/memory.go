package sim

import (
	"fmt"
	"strconv"
	"strings"

	"electsim/algo"
	"electsim/internal/human"
)

// DefaultMaxMemory is the memory a run may hold, as the engine reckons it, when its Config does
// not say (Config.MaxMemory).
const DefaultMaxMemory = 4 << 30

// The engine's cost of one node, measured: its records, its stable storage, its random source
// and the algorithm's state machine — about 1.5 KB — and on the goroutine engine its goroutine,
// with its stack and its channel, about 3 KB more. The reckoning counts the goroutine on either
// engine, so that a run the bound stops, stops at the same step on both. What an algorithm's
// node keeps that grows with the cluster comes on top (algo.Info.NodeMemory).
// TestMemoryReckoningIsCloseToTheHeap checks the figures.
const (
	nodeBytes      = 3 << 9
	goroutineBytes = 3 << 10
)

// Smaller things a run accumulates, measured: a violation with its nodes, and an entry of a
// map (one-leader-per-term's leader of each term).
const (
	violationBytes = 128
	mapEntryBytes  = 56
)

// memCheckEvery is how many messages go by between two reckonings of a run's memory. Between
// two, the queue and the network's bookkeeping grow by at most that many events and links.
const memCheckEvery = 4096

// memory is a run's reckoning of the memory it holds.
type memory struct {
	limit int64 // Config.MaxMemory, or the default
	nodes int64 // what the nodes hold: fixed for the run
	next  int64 // Sim.sent at which to reckon again
}

// nodeMemory returns what the nodes of cfg hold, and says what that is per node.
func nodeMemory(cfg *Config, c *algo.Cluster) (int64, string) {
	n := int64(len(c.Sorted))
	per := int64(nodeBytes + goroutineBytes)
	why := "about 4.5 KB a node"
	if f := cfg.Algorithm.NodeMemory; f != nil {
		extra, what := f(len(c.Sorted))
		per += extra
		why = fmt.Sprintf("about %s a node — %s", Bytes(per), what)
	}
	return n * per, why
}

// checkNodeMemory says why the nodes of a run alone would hold more than it may.
func (m *memory) checkNodeMemory(cfg *Config, c *algo.Cluster) error {
	nodes, why := nodeMemory(cfg, c)
	if nodes > m.limit {
		return fmt.Errorf("%s on %s nodes would need about %s of memory for its nodes alone (%s), more than the %s a run may use; try fewer nodes",
			cfg.Algorithm.Name, human.Thousands(int64(len(c.Sorted))), Bytes(nodes), why, Bytes(m.limit))
	}
	m.nodes = nodes
	return nil
}

// MemoryUse returns the memory the run holds, as the engine reckons it: its nodes, its events
// queued, the network's bookkeeping of the links used, the violations and terms it has seen.
// Config.MaxMemory bounds it.
func (s *Sim) MemoryUse() int64 {
	m := &s.monitor
	return s.memory.nodes + s.q.bytes() + s.net.Bytes() +
		int64(len(m.violations))*violationBytes + int64(len(m.termLeader))*mapEntryBytes
}

// checkMemory halts the run if it holds more memory than it may; send calls it every
// memCheckEvery messages. The step under way is finished; the run goes no further.
func (s *Sim) checkMemory() {
	s.memory.next = s.sent + memCheckEvery
	if use := s.MemoryUse(); use > s.memory.limit && s.halted == "" {
		s.halted = fmt.Sprintf("the run needed more than the %s of memory it may use (%s: %s events queued, %s nodes); try fewer nodes or a shorter run",
			Bytes(s.memory.limit), Bytes(use), human.Thousands(int64(s.q.len())), human.Thousands(int64(len(s.nodes))))
	}
}

// Bytes writes a size for people: "512 B", "3.5 KB", "1.2 GB" (powers of 1024).
func Bytes(b int64) string {
	units := []string{"B", "KB", "MB", "GB", "TB"}
	f, u := float64(b), 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	if u == 0 || f >= 100 {
		return strconv.FormatFloat(f, 'f', 0, 64) + " " + units[u]
	}
	return strings.TrimSuffix(strconv.FormatFloat(f, 'f', 1, 64), ".0") + " " + units[u]
}
