package sim_test

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"electsim/network"
	"electsim/sim"
)

// TestAppendFlyingSentTimes checks every message in flight against the trace: its send time and
// arrival are the send record's, on either engine, with a fixed delay and a random one.
func TestAppendFlyingSentTimes(t *testing.T) {
	for _, e := range engines {
		for _, delay := range []network.Delay{{Min: 3 * ms, Max: 3 * ms}, {Min: ms, Max: 9 * ms}, {Min: 1500 * time.Nanosecond, Max: 2*ms + 7}} {
			cfg := fixed(t, "bully", 5, 0, e)
			cfg.Network.Delay = delay
			cfg.Trace = true
			cfg.Actions = []sim.Action{at(400*ms, sim.Crash, 5)}
			s, err := sim.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			type key struct {
				kind     string
				from, to int
				arrives  time.Duration
			}
			sent := map[key][]time.Duration{}
			var buf []sim.Flying
			checked := 0
			for range 3000 {
				r, ok := s.Step()
				if !ok {
					break
				}
				for _, rec := range r.Records {
					if rec.Type == sim.RecSend && rec.Reason == network.Delivered {
						k := key{rec.Msg.Kind, int(rec.Msg.From), int(rec.Msg.To), rec.DeliverAt}
						sent[k] = append(sent[k], rec.At)
					}
				}
				buf = s.AppendFlying(buf[:0])
				for i, f := range buf {
					if i > 0 && f.Arrives < buf[i-1].Arrives {
						t.Fatalf("step %d: flights not in order of arrival: %v", r.Step, buf)
					}
					k := key{f.Msg.Kind, int(f.Msg.From), int(f.Msg.To), f.Arrives}
					if !containsDuration(sent[k], f.Sent) {
						t.Fatalf("%v delay %v step %d: %v sent at %v: the trace sent it at %v", e, delay, r.Step, f.Msg, f.Sent, sent[k])
					}
					checked++
				}
			}
			s.Close()
			if checked < 100 {
				t.Fatalf("only %d flights checked", checked)
			}
		}
	}
}

func containsDuration(ds []time.Duration, d time.Duration) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

// TestAppendTimers checks the timers a picture sees against the trace: each pending timer fires
// at its deadline unless it is set again, cancelled or its node crashes first, and it was set
// at a step's time no later than now.
func TestAppendTimers(t *testing.T) {
	cfg := fixed(t, "raft", 5, 2*ms, sim.Inline)
	cfg.Network.Delay.Max = 6 * ms
	cfg.TimerStarts = true
	cfg.Trace = true
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var buf []sim.PendingTimer
	seen := 0
	for range 500 {
		r, ok := s.Step()
		if !ok {
			break
		}
		buf = s.AppendTimers(buf[:0])
		for _, p := range buf {
			if p.Set < 0 || p.Set > r.At || p.Deadline < r.At {
				t.Fatalf("step %d at %v: timer %+v", r.Step, r.At, p)
			}
			seen++
		}
	}
	if seen == 0 {
		t.Fatal("no timer seen")
	}
	cfg.TimerStarts = false
	s2, _ := sim.New(cfg)
	defer s2.Close()
	s2.Step()
	s2.Step()
	for _, p := range s2.AppendTimers(nil) {
		if p.Set != -1 {
			t.Fatalf("without TimerStarts: %+v", p)
		}
	}
}

// TestAppendTimersFire checks that the nearest pending timer of a follower is the one that
// fires: a crashed leader's followers time out at the deadlines the picture showed.
func TestAppendTimersFire(t *testing.T) {
	cfg := fixed(t, "raft", 3, 2*ms, sim.Inline)
	cfg.TimerStarts, cfg.Trace = true, true
	s, _ := sim.New(cfg)
	defer s.Close()
	want := map[[2]any]time.Duration{}
	fired := 0
	for range 400 {
		r, ok := s.Step()
		if !ok {
			break
		}
		for _, rec := range r.Records {
			if rec.Type == sim.RecTimer {
				d, ok := want[[2]any{rec.Node, rec.Timer}]
				if !ok || d != rec.At {
					t.Fatalf("timer %s of %d fired at %v; the picture had it at %v (%v)", rec.Timer, rec.Node, rec.At, d, ok)
				}
				fired++
			}
		}
		clear(want)
		for _, p := range s.AppendTimers(nil) {
			want[[2]any{p.Node, p.Name}] = p.Deadline
		}
	}
	if fired == 0 {
		t.Fatal("no timer fired")
	}
}

// TestAppendHeld checks what a paused node holds: the messages that reached it, in order.
func TestAppendHeld(t *testing.T) {
	for _, e := range engines {
		cfg := fixed(t, "bully", 3, 2*ms, e)
		cfg.Actions = []sim.Action{at(10*ms, sim.Pause, 1)}
		s, _ := sim.New(cfg)
		s.RunUntil(200 * ms)
		held := s.AppendHeld(nil)
		if len(held) == 0 {
			t.Fatalf("%v: nothing held by a node paused for 190ms", e)
		}
		for _, h := range held {
			if h.Node != 1 || h.Kind != "message" && h.Kind != "timer" {
				t.Fatalf("%v: held %+v", e, h)
			}
		}
		// The held messages are InFlight's last, At -1.
		var n int
		for _, f := range s.InFlight() {
			if f.At == -1 {
				n++
			}
		}
		msgs := 0
		for _, h := range held {
			if h.Kind == "message" {
				msgs++
			}
		}
		if n != msgs {
			t.Fatalf("%v: %d held messages, InFlight says %d", e, msgs, n)
		}
		s.Close()
	}
}

// TestFlightCode checks the packing of a time of flight: exact in nanoseconds to 2^31ns, in
// whole microseconds beyond.
func TestFlightCode(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := time.Duration(rapid.Int64Range(0, 1<<31-1).Draw(t, "ns"))
		if got := sim.FlightOf(sim.FlightCode(d)); got != d {
			t.Fatalf("%v → %v", d, got)
		}
		us := time.Duration(rapid.Int64Range(1<<31/1000, 1<<31-1).Draw(t, "us")) * time.Microsecond
		if got := sim.FlightOf(sim.FlightCode(us)); got != us {
			t.Fatalf("%v → %v", us, got)
		}
	})
}
