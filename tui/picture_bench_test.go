package tui

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// A frame of the picture at its largest: 64 nodes (the list, with counts), at least 1,000
// messages in flight and a log of at least 10,000 rows — the picture computed by session and
// the screen drawn. Also 32 nodes on the canvas with as many messages. Target: ≤ 5 ms a frame.
func BenchmarkPictureFrame(b *testing.B) {
	for _, n := range []int{32, 64} {
		b.Run(fmt.Sprintf("%d nodes", n), func(b *testing.B) {
			m := newModel(b, "lowest-id-boot", func(c *sim.Config) {
				c.IDs = nil
				for i := 1; i <= n; i++ {
					c.IDs = append(c.IDs, algo.ID(i))
				}
				c.Actions = nil
				c.RunFor = time.Hour
				c.Network.Delay = network.Delay{Min: 40 * time.Millisecond, Max: 60 * time.Millisecond}
			})
			filter, err := parseFilter("HEARTBEAT", m.opts.Config.Algorithm, m.nodes)
			if err != nil {
				b.Fatal(err)
			}
			m.log.setFilter(filter) // every step a row
			for m.log.sync(m.ss, m.opts.Config.Algorithm) < 10_000 || len(m.ss.InFlight()) < 1_000 {
				if _, ok := m.ss.Next(); !ok {
					b.Fatal("the run ended")
				}
			}
			m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			if rows := m.log.sync(m.ss, m.opts.Config.Algorithm); rows < 10_000 {
				b.Fatalf("%d rows in the log", rows)
			}
			b.ReportMetric(float64(len(m.ss.InFlight())), "in-flight")
			at := m.ss.Now()
			for b.Loop() {
				at += time.Microsecond // every frame a new instant: the picture is computed again
				m.ss.PlayTo(at)
				m.ver++
				_ = m.View()
			}
		})
	}
}

// Playback of the default demo at 1000× real time, a frame at a time: a tick plays 33s of
// virtual time — the whole run, every step of it in order, stopping at each break — and the
// frame is drawn. Reported: the wall time of one frame, start to end of the run, which must stay
// under a 30th of a second (33 ms) to hold 30 frames a second: ns/frame.
func BenchmarkPlayback1000x(b *testing.B) {
	var spent time.Duration
	frames, steps := 0, 0
	for b.Loop() {
		b.StopTimer()
		m := newModel(b, "bully-leader-crash", nil)
		m.speed = len(speeds) - 1
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
		b.StartTimer()
		start := time.Now()
		for !m.ss.Done() {
			if !m.playing {
				press(m, "n")
			}
			m.Update(tickMsg{m.tick})
			_ = m.View()
			frames++
		}
		spent += time.Since(start)
		steps += len(m.ss.Steps())
		b.StopTimer()
		m.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(spent.Nanoseconds())/float64(frames), "ns/frame")
	b.ReportMetric(float64(steps)/float64(b.N), "steps/run")
}
