package sim

import (
	"errors"
	"math/bits"
	"strings"
	"sync/atomic"
	"testing"
)

// replayWarnsdorff allows the unvisited neighbours of least degree.
func replayWarnsdorff(p *Position, dst []int) []int {
	best, n := 9, len(dst)
	var buf [8]int
	for _, sq := range p.Moves(p.Current(), buf[:0]) {
		if d := p.Degree(sq); d < best {
			best, dst = d, append(dst[:n], sq)
		} else if d == best {
			dst = append(dst, sq)
		}
	}
	return dst
}

// driftLanes is Warnsdorff in Allowed, and in AllowedLanes for its first
// 10 calls; then the random walk in lanes.
type driftLanes struct{ calls int }

func (*driftLanes) Allowed(p *Position, dst []int) []int { return replayWarnsdorff(p, dst) }
func (d *driftLanes) AllowedLanes(l *Lanes) {
	if d.calls++; d.calls > 10 {
		l.Allowed = l.Free
		return
	}
	l.MinDegrees(&l.Allowed, &l.Free)
}

// rareLanes disagrees with its Allowed (Warnsdorff) only on e5 after exactly
// 45 squares, in lanes (on 8x8 about 1 walk from a1 in 23 meets it).
type rareLanes struct{}

func (rareLanes) Allowed(p *Position, dst []int) []int { return replayWarnsdorff(p, dst) }
func (rareLanes) AllowedLanes(l *Lanes) {
	l.MinDegrees(&l.Allowed, &l.Free)
	for j := range LaneCount {
		if l.Cur[j] == 36 && bits.OnesCount64(l.Visited[j]) == 45 {
			l.Allowed[j] = l.Free[j]
		}
	}
}

var replayGlobal atomic.Int64

func registerReplayRules(t testing.TB) {
	registerOnce(t, CustomRule{Name: "replay/drift", New: func(*Board) Policy { return &driftLanes{} }})
	registerOnce(t, CustomRule{Name: "replay/rare", New: func(*Board) Policy { return rareLanes{} }})
	registerOnce(t, CustomRule{Name: "replay/global", New: func(*Board) Policy {
		return PolicyFunc(func(p *Position, dst []int) []int {
			start := len(dst)
			dst = p.Moves(p.Current(), dst)
			if n := replayGlobal.Add(1); n > 5000 && n%3 == 0 && len(dst) > start+1 {
				dst = dst[:start+1]
			}
			return dst
		})
	}})
	registerOnce(t, CustomRule{Name: "replay/honest-lanes", New: func(*Board) Policy { return rareLanes{} }, Boards: func(b *Board) error {
		if b.Squares() == 64 {
			return errors.New("not on 8x8") // rareLanes is honest elsewhere: its e5 is square 36
		}
		return nil
	}})
}

// runRange walks n walks from start of rule name on b in chunks of chunk
// (WalkRange), as a run's units do, and returns the walker.
func runRange(t *testing.T, b *Board, name string, start int, n, chunk int) *Walker {
	t.Helper()
	r, err := ParseRule(name)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWalker(b, r)
	if err != nil {
		t.Fatal(err)
	}
	key := NewKey(7, b, r, start)
	out := make([]Outcome, chunk)
	for lo := 0; lo < n && !w.Stopped(); lo += chunk {
		w.WalkRange(start, key, uint64(lo), out[:min(chunk, n-lo)])
	}
	return w
}

// TestReplayCheckStopsDriftingRules: a lane rule that drifts from its
// Allowed after its first calls, one that disagrees only at a rare
// position, and a rule reading a counter shared by its policies all pass
// the replay at first use, and are stopped by the replay check with a
// *RuleError naming the rule, the walk and the step.
func TestReplayCheckStopsDriftingRules(t *testing.T) {
	registerReplayRules(t)
	b := MustBoard(8, 8)
	for _, c := range []struct {
		rule  string
		n     int
		chunk int
		want  string
	}{
		{"replay/drift", 4096, 256, "in AllowedLanes"},
		{"replay/rare", 40000, 256, "in AllowedLanes"},
		{"replay/global", 40000, 256, "in the run it"},
		{"replay/global", 40000, 1, "in the run it"}, // one walk a call (Walker.Walk)
	} {
		r, _ := ParseRule(c.rule)
		if err := CheckRule(b, r); err != nil {
			t.Fatalf("%s: the replay at first use refused it already (the test rule is too crude): %v", c.rule, err)
		}
		w := runRange(t, b, c.rule, 0, c.n, c.chunk)
		err := w.Err()
		var re *RuleError
		if !errors.As(err, &re) {
			t.Fatalf("%s, chunks of %d: %d walks ran without a RuleError (%v)", c.rule, c.chunk, c.n, err)
		}
		msg := err.Error()
		for _, want := range []string{"rule " + c.rule + ": walk ", " from a1 on the 8x8 board does not replay: at its step ", c.want, "replayed through Allowed on a fresh policy", "8x8 board, on "} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: %q lacks %q", c.rule, msg, want)
			}
		}
		if !w.Stopped() {
			t.Errorf("%s: the walker does not report Stopped after the error", c.rule)
		}
	}
}

// TestReplayCheckSampleIsDeterministic: the walks replayed depend on the
// walk's stream alone: walk 0 and 1 in 64, the same however the range is
// cut into calls (workers and units cut it differently), in lanes or one
// walk a call; honest rules pass.
func TestReplayCheckSampleIsDeterministic(t *testing.T) {
	registerOwnCopies(t)
	registerReplayRules(t)
	const n = 5000
	for _, c := range []struct {
		rows, cols int
		rule       string
	}{{8, 8, "lanes/warnsdorff-random"}, {8, 8, "copy/random"}, {6, 6, "replay/honest-lanes"}, {10, 10, "copy/warnsdorff-random"}} {
		b := MustBoard(c.rows, c.cols)
		r, _ := ParseRule(c.rule)
		start := 1
		key := NewKey(7, b, r, start)
		want := 0
		for i := range uint64(n) {
			if hi, _ := key.Seeds(i); i == 0 || sampledStream(hi) {
				want++
			}
		}
		if want < n/64/2 || want > 2*n/64+1 {
			t.Fatalf("%d of %d walks sampled", want, n)
		}
		for _, chunk := range []int{256, 37, 8, 1} {
			w := runRange(t, b, c.rule, start, n, chunk)
			if err := w.Err(); err != nil {
				t.Fatalf("%s on %s, chunks of %d: %v", c.rule, b, chunk, err)
			}
			if got := w.pol.check.count; got != want {
				t.Errorf("%s on %s, chunks of %d: %d walks replayed, want %d", c.rule, b, chunk, got, want)
			}
		}
	}
}

// TestReplayCheckStepper: the splitting estimator's segments (Stepper)
// are sampled by their stream too: a rule reading a shared counter is
// stopped there, an honest one passes.
func TestReplayCheckStepper(t *testing.T) {
	registerOwnCopies(t)
	registerReplayRules(t)
	b := MustBoard(8, 8)
	for _, name := range []string{"copy/random", "replay/global"} {
		r, _ := ParseRule(name)
		s, err := NewStepper(b, r)
		if err != nil {
			t.Fatal(err)
		}
		key := NewKey(3, b, r, 0)
		var snap Snapshot
		var src PCG
		checked := 0
		for j := range uint64(20000) {
			s.Begin(0)
			src.Seed(key.Seeds(2 * j))
			s.Advance(&src, 10)
			s.Save(&snap)
			s.Restore(&snap)
			src.Seed(key.Seeds(2*j + 1))
			s.Advance(&src, 64)
			if s.Err() != nil {
				break
			}
			checked = s.pk.check.count
		}
		err = s.Err()
		switch {
		case name == "copy/random" && err != nil:
			t.Errorf("%s: %v", name, err)
		case name == "copy/random" && checked < 20000/64:
			t.Errorf("%s: %d segments replayed", name, checked)
		case name == "replay/global" && (err == nil || !strings.Contains(err.Error(), "rule replay/global: a walk of the splitting estimator, continued from the 8x8 board, on ")):
			t.Errorf("%s: %v", name, err)
		}
	}
}
