package sim

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// laneRule is a rule whose Allowed is honest (the random walk) and whose
// AllowedLanes is bad from start b2 on (square 7 of 6x6) (a start the replay does not walk,
// so that the run's own checks meet it).
type laneRule struct {
	bad func(l *Lanes, j int) uint64
}

func (laneRule) Allowed(p *Position, dst []int) []int { return p.Moves(p.Current(), dst) }

func (r laneRule) AllowedLanes(l *Lanes) {
	for j := range LaneCount {
		l.Allowed[j] = l.Free[j]
		if l.Start() == 7 {
			l.Allowed[j] = r.bad(l, j)
		}
	}
}

// TestLanesGuard: an answer of AllowedLanes that no walk may take, a
// panic in it, and several squares from a Deterministic rule are
// *RuleErrors naming the rule, the problem and the lane's position, on
// every kernel path (the AVX-512 check and the Go check); a rule whose two
// forms disagree is refused at its first use, by the replay.
func TestLanesGuard(t *testing.T) {
	rules := []struct {
		name string
		det  bool
		bad  func(l *Lanes, j int) uint64
		want string
	}{
		{"lanes/visited", false, func(l *Lanes, j int) uint64 { return l.Neighbours(l.Cur[j]) }, "in AllowedLanes returned "},
		{"lanes/not-knight", false, func(l *Lanes, j int) uint64 { return l.Free[j] | 1<<((l.Cur[j]+1)%64) }, "which is not a knight's move from "},
		{"lanes/off-board", false, func(l *Lanes, j int) uint64 { return l.Free[j] | 1<<60 }, "returned square 60, which is off the board (0..35)"},
		{"lanes/scribble", false, func(l *Lanes, j int) uint64 { // writes to what it is shown, then answers visited squares
			l.Free[j], l.Visited[j] = ^uint64(0), 0
			return l.Neighbours(l.Cur[j])
		}, "which is visited already"},
		{"lanes/panic", false, func(l *Lanes, j int) uint64 {
			if l.Visited[j]&(1<<30) != 0 {
				panic("lanes boom")
			}
			return l.Free[j]
		}, "panicked in its AllowedLanes: lanes boom (6x6 board, 16 walks from b2 in flight)"},
	}
	for _, c := range rules {
		registerOnce(t, CustomRule{Name: c.name, New: func(*Board) Policy { return laneRule{c.bad} }})
	}
	registerOnce(t, CustomRule{Name: "lanes/det", Deterministic: true, New: func(*Board) Policy { return detLanes{} }})
	b := MustBoard(6, 6)
	for _, path := range KernelPaths() {
		t.Setenv(KernelEnv, string(path))
		for _, c := range append(rules, struct {
			name string
			det  bool
			bad  func(l *Lanes, j int) uint64
			want string
		}{"lanes/det", true, nil, "is registered as deterministic but allowed "}) {
			r, _ := ParseRule(c.name)
			w, err := NewWalker(b, r)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if w.pol.lanes == nil {
				t.Fatalf("%s: not in lanes", c.name)
			}
			out := make([]Outcome, 256)
			w.WalkRange(7, NewKey(1, b, r, 7), 0, out)
			err = w.Err()
			var re *RuleError
			if !w.Stopped() || !errors.As(err, &re) || !strings.Contains(err.Error(), "rule "+c.name+": ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s on %s: %v, want a *RuleError with %q", c.name, path, err, c.want)
			}
			if c.name != "lanes/panic" && !strings.Contains(err.Error(), "(6x6 board, on ") {
				t.Errorf("%s on %s: %v, want the lane's position", c.name, path, err)
			}
			w.WalkRange(7, NewKey(1, b, r, 7), 0, out) // every range after the error is refused
			if !w.Stopped() || w.Err() != err {
				t.Errorf("%s on %s: a range after the error: %v", c.name, path, w.Err())
			}
		}
	}

	registerOnce(t, CustomRule{Name: "lanes/disagree", New: func(*Board) Policy { return disagreeLanes{} }})
	r, _ := ParseRule("lanes/disagree")
	_, err := NewWalker(b, r)
	if err == nil || !strings.Contains(err.Error(), "rule lanes/disagree: answered {") || !strings.Contains(err.Error(), "in AllowedLanes and {") || !strings.Contains(err.Error(), "a rule's two forms must agree") {
		t.Errorf("disagreeing forms: %v", err)
	}
	if err := CheckRule(MustBoard(9, 9), r); err != nil { // over 64 squares: Allowed alone is asked
		t.Errorf("disagreeing forms on 9x9: %v", err)
	}
}

// detLanes is deterministic in Allowed (the first neighbour) and, from b2
// on, allows every free square in AllowedLanes.
type detLanes struct{}

func (detLanes) Allowed(p *Position, dst []int) []int {
	m := p.Moves(p.Current(), nil)
	if len(m) > 0 {
		dst = append(dst, m[0])
	}
	return dst
}

func (detLanes) AllowedLanes(l *Lanes) {
	for j := range LaneCount {
		f := l.Free[j]
		l.Allowed[j] = f & -f
		if l.Start() == 7 {
			l.Allowed[j] = f
		}
	}
}

// disagreeLanes allows every free square in AllowedLanes, the first in
// Allowed.
type disagreeLanes struct{ detLanes }

func (disagreeLanes) AllowedLanes(l *Lanes) { l.Allowed = l.Free }

// TestLanesWatchStuck: a call of AllowedLanes that does not return is
// seen by a CallWatch, which names the rule, the method and the walks in
// flight.
func TestLanesWatchStuck(t *testing.T) {
	release := make(chan struct{})
	blocking := make(chan bool, 1)
	var once sync.Once
	registerOnce(t, CustomRule{Name: "lanes/blocks", New: func(*Board) Policy {
		return laneRule{func(l *Lanes, j int) uint64 {
			if j == 0 && l.Visited[0]&(1<<30) != 0 {
				once.Do(func() {
					blocking <- true
					<-release
				})
			}
			return l.Free[j]
		}}
	}})
	b := MustBoard(6, 6)
	r, _ := ParseRule("lanes/blocks")
	w, err := NewWalker(b, r)
	if err != nil {
		t.Fatal(err)
	}
	cw := NewCallWatch()
	done := make(chan bool)
	go func() {
		defer close(done)
		w.WalkRange(7, NewKey(1, b, r, 7), 0, make([]Outcome, 64))
	}()
	<-blocking
	var stuck error
	for deadline := time.Now().Add(5 * time.Second); stuck == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		stuck = cw.Stuck(100 * time.Millisecond)
	}
	var re *RuleError
	if !errors.As(stuck, &re) || !re.Stuck || !strings.Contains(stuck.Error(), "rule lanes/blocks: has not returned from a call of its AllowedLanes for ") ||
		!strings.Contains(stuck.Error(), "(6x6 board, 16 walks from b2 in flight)") {
		t.Errorf("stuck: %v", stuck)
	}
	close(release)
	<-done
	if err := cw.Stuck(0); err != nil {
		t.Errorf("after the call returned: %v", err)
	}
}

// scribbleRandom is the random walk in lanes that then overwrites what it
// was shown.
type scribbleRandom struct{ randomLanes }

func (scribbleRandom) AllowedLanes(l *Lanes) {
	l.Allowed = l.Free
	l.Free, l.Visited, l.Cur = [LaneCount]uint64{}, [LaneCount]uint64{}, [LaneCount]int{}
	l.Degree[0], l.Degree[3] = l.Degree[3], l.Degree[0]
}

// TestLanesScribbleHarmless: a rule that writes to the lanes it is shown
// changes nothing but its own answer: the walks are the built-in's.
func TestLanesScribbleHarmless(t *testing.T) {
	registerOnce(t, CustomRule{Name: "lanes/random-scribble", New: func(*Board) Policy { return scribbleRandom{} }})
	b := MustBoard(8, 8)
	br, _ := ParseRule("random")
	or, _ := ParseRule("lanes/random-scribble")
	for _, path := range KernelPaths() {
		t.Setenv(KernelEnv, string(path))
		kw, _ := NewWalker(b, br)
		ow, err := NewWalker(b, or)
		if err != nil {
			t.Fatal(err)
		}
		key := NewKey(3, b, br, 9)
		ko, oo := make([]Outcome, 200), make([]Outcome, 200)
		kw.WalkRange(9, key, 0, ko)
		ow.WalkRange(9, key, 0, oo)
		if err := ow.Err(); err != nil || !reflect.DeepEqual(ko, oo) {
			t.Fatalf("%s: %v; built-in %v, copy %v", path, err, ko[:3], oo[:3])
		}
	}
}
