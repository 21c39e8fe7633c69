package session

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"electsim/sim"
)

// longRaft opens a session of Raft on 5 nodes for 1000 hours, whose memory bound is bytes.
func longRaft(t *testing.T, bytes int64) *Session {
	t.Helper()
	return open(t, "raft-leader-crash", func(c *sim.Config) {
		c.RunFor, c.MaxMemory = 1000*time.Hour, bytes
	})
}

// A session counts what it keeps against the run's memory bound (issue 28, item 2): played on
// toward the end of a 1000-hour run, it stops once its run and steps hold what the bound
// allows, saying so — not when the machine runs out — and the run is not over; acting then is
// refused, saying why. Stepping back and forward over what is kept still works, exactly; a
// restart makes room again.
func TestSessionStopsAtItsMemoryBound(t *testing.T) {
	const bound = 4 << 20
	s := longRaft(t, bound)
	n, brk := s.PlayTo(999 * time.Hour)
	for brk { // the scenario's breaks: go on past them
		var more int
		more, brk = s.PlayTo(999 * time.Hour)
		n += more
	}
	full := s.Full()
	if full == "" || s.Done() || !strings.Contains(full, "and its memory bound is 4 MB") || !strings.HasPrefix(full, "the session stops at step ") {
		t.Fatalf("after %d steps: full %q, done %v", n, full, s.Done())
	}
	if held := s.run.MemoryUse() + s.bound.shown + s.bound.ahead; held > bound || held < bound*3/4 || n < 1000 {
		t.Errorf("%d steps holding %d bytes, for a bound of %d", n, held, bound)
	}
	if s.Instant() != s.Now() {
		t.Errorf("the instant drawn %v moved past the last step shown, %v", s.Instant(), s.Now())
	}
	if _, ok := s.Next(); ok || s.Full() != full {
		t.Errorf("a step past the bound: %v, full %q", ok, s.Full())
	}
	if _, err := act(t, s, "crash 1"); !errors.Is(err, ErrFull) || err.Error() != full {
		t.Errorf("acting when full: %v", err)
	}
	shown := jsonl(s.Steps()[len(s.Steps())-1].Records)
	if err := s.Back(50); err != nil {
		t.Fatal(err)
	}
	next(t, s, 50)
	if got := jsonl(s.Steps()[len(s.Steps())-1].Records); got != shown || s.Full() != "" {
		t.Errorf("back 50 and forward 50 again shows another step:\n%s\nwas\n%s", got, shown)
	}
	if _, ok := s.Next(); ok || s.Full() == "" {
		t.Errorf("past the steps kept, the bound still holds: %v", ok)
	}
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Next(); !ok || s.Full() != "" || s.bound.shown != reckon(s.Steps()[0]) {
		t.Errorf("after a restart: %v, full %q, %d bytes of steps", ok, s.Full(), s.bound.shown)
	}
}

// A view can bound a session below its run's bound (a server keeping many); the copies kept
// for stepping back give way to the steps, and the whole stays within it.
func TestSetMemoryBound(t *testing.T) {
	s := longRaft(t, 0) // the run's own bound: the default
	s.SetMemoryBound(2 << 20)
	withCheckpoints(s, 500, 4)
	for range 3 {
		s.PlayTo(999 * time.Hour)
		if s.Full() != "" {
			break
		}
	}
	if !strings.Contains(s.Full(), "its memory bound is 2 MB") {
		t.Fatalf("full %q at step %d", s.Full(), len(s.Steps()))
	}
	if err := s.Back(len(s.Steps()) / 2); err != nil { // a replay, keeping copies on its way
		t.Fatal(err)
	}
	if held := s.Holds(); held > 2<<20 {
		t.Errorf("the session holds %d bytes, over its bound of %d", held, 2<<20)
	}
	s.SetMemoryBound(8 << 20) // higher than it is: no change
	if s.MemoryBound() != 2<<20 {
		t.Errorf("bound %d after asking for more", s.MemoryBound())
	}
}

// A say the user adds is a paragraph at most: a longer one is refused, saying how long it may
// be, and kept nowhere.
func TestSayIsCapped(t *testing.T) {
	s := open(t, "bully-boot", nil)
	next(t, s, 3)
	long := "say " + strings.Repeat("x", 64<<10)
	if _, err := act(t, s, long); err == nil || err.Error() != "a say holds at most 1000 characters, and this one has 65,536: say it in several" || len(s.User()) != 0 {
		t.Errorf("a 64 KB say: %v, user %v", err, len(s.User()))
	}
	if _, err := act(t, s, "say "+strings.Repeat("é", MaxSay)); err != nil {
		t.Errorf("a say of %d characters: %v", MaxSay, err)
	}
}

// StepsFrom gives the log a page at a time.
func TestStepsFrom(t *testing.T) {
	s := open(t, "bully-boot", nil)
	next(t, s, 50)
	all := s.Steps()
	for _, c := range []struct{ from, n, first, count int }{
		{0, 10, 0, 10}, {45, 10, 45, 5}, {50, 1, 0, 0}, {-3, 2, 0, 2}, {10, 0, 0, 0}, {99, 5, 0, 0},
	} {
		got := s.StepsFrom(c.from, c.n)
		if len(got) != c.count || c.count > 0 && &got[0] != &all[c.first] {
			t.Errorf("StepsFrom(%d, %d): %d steps, want %d from %d", c.from, c.n, len(got), c.count, c.first)
		}
	}
}

// The session's reckoning of its steps is close to what they take on the heap: at least what
// they take, and not twice it — the bound then means what it says.
func TestStepReckoningIsCloseToTheHeap(t *testing.T) {
	s := open(t, "raft-leader-crash", func(c *sim.Config) { c.RunFor = 1000 * time.Hour })
	next(t, s, 100) // the run under way: what it holds hardly grows from here
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	reckoned := s.bound.shown
	next(t, s, 20_000)
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	reckoned = s.bound.shown - reckoned
	t.Logf("20,000 steps: reckoned %d bytes, %d a step; the heap grew by %d", reckoned, reckoned/20_000, heap)
	if reckoned < heap*9/10 || reckoned > 2*heap {
		t.Errorf("20,000 steps reckoned %d bytes; the heap grew by %d", reckoned, heap)
	}
	runtime.KeepAlive(s)
}
