package sim

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// ruleErr runs rule name on b the ways a command does (a walker's first
// use and walks, the Choices that exact enumeration asks, a stepper) and
// returns the first error of each, which must all be *RuleErrors.
func ruleErrs(t *testing.T, name string, b *Board) []error {
	t.Helper()
	r, err := ParseRule(name)
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	w, err := NewWalker(b, r)
	if err == nil {
		for i := range uint64(200) {
			if w.Walk(0, NewKey(1, b, r, 0), i); w.Stopped() {
				break
			}
		}
		err = w.Err()
	}
	errs = append(errs, err)
	errs = append(errs, choicesErr(b, r, 0))
	if s, err := NewStepper(b, r); err != nil {
		errs = append(errs, err)
	} else {
		s.Begin(0)
		s.Advance(&PCG{}, b.Squares())
		errs = append(errs, s.Err())
	}
	for i, err := range errs {
		var re *RuleError
		if !errors.As(err, &re) {
			t.Errorf("%s, consumer %d: %v, want a *RuleError", name, i, err)
		}
	}
	return errs
}

// choicesErr asks rule r's Choices about every position its walks from
// start on b reach, depth first (at most a million), as exact enumeration
// asks about every state (package exact), and returns the first error.
func choicesErr(b *Board, r Rule, start int) error {
	c, err := NewChoices(b, r)
	if err != nil {
		return err
	}
	visited := make([]bool, b.Squares())
	asked := 0
	var from func(cur int) error
	from = func(cur int) error {
		if asked++; asked > 1_000_000 {
			return nil
		}
		visited[cur] = true
		defer func() { visited[cur] = false }()
		allowed, _, err := c.Allowed(func(sq int) bool { return visited[sq] }, cur, start, nil)
		if err != nil {
			return err
		}
		for _, sq := range allowed {
			if err := from(sq); err != nil {
				return err
			}
		}
		return nil
	}
	return from(start)
}

// TestGuardPanicsAndNil: a panic in a rule's New, Allowed, Begin or Moved,
// early (met by the replay at the first use) or deep in a walk, and a New
// returning nil, are errors naming the rule and the position, never a
// panic out of sim.
func TestGuardPanicsAndNil(t *testing.T) {
	moves := func(p *Position, dst []int) []int { return p.Moves(p.Current(), dst) }
	registerOnce(t, CustomRule{Name: "guard/panic-early", New: func(*Board) Policy {
		return PolicyFunc(func(p *Position, dst []int) []int {
			if p.VisitedCount() == 3 {
				panic("boom")
			}
			return moves(p, dst)
		})
	}})
	registerOnce(t, CustomRule{Name: "guard/panic-deep", New: func(*Board) Policy {
		return PolicyFunc(func(p *Position, dst []int) []int {
			if p.VisitedCount() == 20 {
				var m map[int]int
				m[1] = 1 // a runtime error, as a real bug would be
			}
			return moves(p, dst)
		})
	}})
	registerOnce(t, CustomRule{Name: "guard/nil", New: func(*Board) Policy { return nil }})
	registerOnce(t, CustomRule{Name: "guard/new-panics", New: func(*Board) Policy { panic("no policy") }})
	registerOnce(t, CustomRule{Name: "guard/boards-panics", New: func(*Board) Policy { return PolicyFunc(moves) }, Boards: func(*Board) error { panic("no boards") }})
	b := MustBoard(5, 5)
	for name, want := range map[string]string{
		"guard/panic-early":   "rule guard/panic-early: panicked in its Allowed: boom (5x5 board, on ",
		"guard/panic-deep":    "rule guard/panic-deep: panicked in its Allowed: assignment to entry in nil map (5x5 board, on ",
		"guard/nil":           "rule guard/nil: New returned a nil policy (5x5 board)",
		"guard/new-panics":    "rule guard/new-panics: panicked in its New: no policy (5x5 board)",
		"guard/boards-panics": "rule guard/boards-panics: panicked in its Boards: no boards (5x5 board)",
	} {
		for i, err := range ruleErrs(t, name, b) {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s, consumer %d: %v\nwant %q", name, i, err, want)
			}
		}
	}
	if _, err := (Rule{Kind: Custom, Custom: "guard/nil"}).Policy(b); err == nil || !strings.Contains(err.Error(), "nil policy") {
		t.Errorf("Rule.Policy of a nil New: %v", err)
	}
	if err := CheckBoard(b, Rule{Kind: Backtrack, TieBreak: TieFirst, Custom: "guard/nil"}); err == nil || !strings.Contains(err.Error(), "nil policy") {
		t.Errorf("CheckBoard of backtrack/guard/nil: %v", err)
	}
}

// statefulPanic keeps state along its walk and panics in Moved.
type statefulPanic struct{ n int }

func (s *statefulPanic) Allowed(p *Position, dst []int) []int {
	m := p.Moves(p.Current(), nil)
	if len(m) > 0 {
		dst = append(dst, m[0])
	}
	return dst
}
func (s *statefulPanic) Begin(*Position) { s.n = 0 }
func (s *statefulPanic) Moved(*Position, int) {
	if s.n++; s.n == 4 {
		panic("moved too far")
	}
}

// TestGuardStateful: a Stateful policy must be registered Deterministic,
// and a panic in its Moved is an error.
func TestGuardStateful(t *testing.T) {
	registerOnce(t, CustomRule{Name: "guard/stateful-draws", New: func(*Board) Policy { return &statefulPanic{} }})
	registerOnce(t, CustomRule{Name: "guard/stateful-panics", New: func(*Board) Policy { return &statefulPanic{} }, Deterministic: true})
	b := MustBoard(5, 5)
	r, _ := ParseRule("guard/stateful-draws")
	if _, err := NewWalker(b, r); err == nil || !strings.Contains(err.Error(), "keeps state along its walk (its policy implements sim.Stateful) but is not registered Deterministic") {
		t.Errorf("stateful, not deterministic: %v", err)
	}
	r, _ = ParseRule("guard/stateful-panics")
	if _, err := NewWalker(b, r); err == nil || !strings.Contains(err.Error(), "panicked in its Moved: moved too far") {
		t.Errorf("stateful, Moved panics: %v", err)
	}
}

// TestReplayCatchesHiddenState: the first use refuses a rule whose answer
// depends on more than the position (a count of its calls, mod 2 or 3;
// draws of its own; state shared by its policies; the previous square
// asked), and passes honest rules with scratch state, a Stateful one
// included.
func TestReplayCatchesHiddenState(t *testing.T) {
	pickBy := func(k func() int) func(*Board) Policy {
		return func(*Board) Policy {
			return PolicyFunc(func(p *Position, dst []int) []int {
				m := p.Moves(p.Current(), nil)
				if len(m) > 0 {
					dst = append(dst, m[k()%len(m)])
				}
				return dst
			})
		}
	}
	counter := func(mod int) func(*Board) Policy {
		return func(b *Board) Policy {
			n := 0
			return pickBy(func() int { n++; return n % mod })(b)
		}
	}
	shared := 0
	registerOnce(t, CustomRule{Name: "guard/count2", New: counter(2), Deterministic: true})
	registerOnce(t, CustomRule{Name: "guard/count3", New: counter(3)})
	registerOnce(t, CustomRule{Name: "guard/rand", New: pickBy(func() int { return rand.IntN(8) })})
	registerOnce(t, CustomRule{Name: "guard/shared", New: pickBy(func() int { shared++; return shared })})
	registerOnce(t, CustomRule{Name: "guard/previous", New: func(*Board) Policy {
		prev := -1
		return PolicyFunc(func(p *Position, dst []int) []int {
			m := p.Moves(p.Current(), nil)
			if len(m) > 1 && prev >= 0 && prev%2 == 0 {
				m = m[1:]
			}
			prev = p.Current()
			return append(dst, m...)
		})
	}})
	for _, b := range []*Board{MustBoard(5, 5), MustBoard(8, 8), MustBoard(3, 10)} {
		for _, name := range []string{"guard/count2", "guard/count3", "guard/rand", "guard/shared", "guard/previous"} {
			r, _ := ParseRule(name)
			err := CheckRule(b, r)
			var re *RuleError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), "rule "+name+": answered {") || !strings.Contains(err.Error(), "depend on the position alone") {
				t.Errorf("%s on %s: %v", name, b, err)
			}
		}
	}
	registerOnce(t, CustomRule{Name: "guard/honest", New: func(*Board) Policy { return &degreeSum2{} }})
	registerOnce(t, CustomRule{Name: "guard/honest-stateful", New: func(*Board) Policy { return &statefulFirst{} }, Deterministic: true})
	for _, name := range []string{"guard/honest", "guard/honest-stateful", "squirrel-cull"} {
		r, _ := ParseRule(name)
		if err := CheckRule(MustBoard(8, 8), r); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// statefulFirst is a stateful rule that answers from its own count of the
// walk's moves, reset by Begin: honest.
type statefulFirst struct{ n int }

func (s *statefulFirst) Allowed(p *Position, dst []int) []int {
	m := p.Moves(p.Current(), nil)
	if len(m) > 0 {
		dst = append(dst, m[s.n%len(m)])
	}
	return dst
}
func (s *statefulFirst) Begin(*Position)      { s.n = 0 }
func (s *statefulFirst) Moved(*Position, int) { s.n++ }

// TestCallWatchStuck: a call that does not return is seen by a CallWatch,
// which names the rule, the method and the position; one that returns is not.
func TestCallWatchStuck(t *testing.T) {
	release := make(chan struct{})
	blocking := make(chan bool, 1)
	registerOnce(t, CustomRule{Name: "guard/blocks", New: func(*Board) Policy {
		calls := 0
		return PolicyFunc(func(p *Position, dst []int) []int {
			if calls++; calls == 1000 { // beyond the replay
				blocking <- true
				<-release
			}
			return p.Moves(p.Current(), dst)
		})
	}})
	b := MustBoard(6, 6)
	r, _ := ParseRule("guard/blocks")
	w, err := NewWalker(b, r)
	if err != nil {
		t.Fatal(err)
	}
	cw := NewCallWatch()
	if err := cw.Stuck(0); err != nil {
		t.Fatalf("nothing in progress: %v", err)
	}
	done := make(chan bool)
	go func() {
		defer close(done)
		for i := range uint64(1000) {
			w.Walk(7, NewKey(1, b, r, 7), i)
		}
	}()
	<-blocking
	var stuck error
	for deadline := time.Now().Add(5 * time.Second); stuck == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		stuck = cw.Stuck(100 * time.Millisecond)
	}
	var re *RuleError
	if !errors.As(stuck, &re) || !re.Stuck || !strings.Contains(stuck.Error(), "rule guard/blocks: has not returned from a call of its Allowed for ") ||
		!strings.Contains(stuck.Error(), "(6x6 board, on ") || !strings.Contains(stuck.Error(), "(start b2)") {
		t.Errorf("stuck: %v", stuck)
	}
	close(release)
	<-done
	if err := cw.Stuck(0); err != nil {
		t.Errorf("after the call returned: %v", err)
	}
}

// BenchmarkGuard is what the guard adds to a call of a rule of your own:
// the same policy (the random walk's answer) called directly and through
// the guard (watch marks, panic recovery, answer check), one call at a
// time and within a walk of the policy kernel, on a position 10 squares
// into a walk on 8x8.
func BenchmarkGuard(b *testing.B) {
	registerOnce(b, CustomRule{Name: "guard/bench", New: func(*Board) Policy {
		return PolicyFunc(func(p *Position, dst []int) []int { return p.Moves(p.Current(), dst) })
	}})
	bd := MustBoard(8, 8)
	r, _ := ParseRule("guard/bench")
	g, err := newGuard(bd, r)
	if err != nil {
		b.Fatal(err)
	}
	p := newPosition(bd)
	p.reset(0)
	for _, sq := range []int{10, 4, 14, 31, 46, 63, 53, 47, 37, 27} {
		p.move(sq)
	}
	buf := make([]int, 0, 8)
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			buf = g.pol.Allowed(p, buf[:0])
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/call")
	})
	b.Run("checked", func(b *testing.B) { // the answer check alone, as before the guard
		for b.Loop() {
			buf = g.pol.Allowed(p, buf[:0])
			checkAllowed(&r, p, buf, false)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/call")
	})
	b.Run("guarded", func(b *testing.B) { // one call on its own (exact enumeration, splitting, search)
		for b.Loop() {
			buf, _ = g.allowed(p, buf[:0])
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/call")
	})
	b.Run("in-walk", func(b *testing.B) { // a call of a policy-kernel walk (walkGuarded): the mark and the check
		g.walkBegin(p)
		for b.Loop() {
			g.walkCall(callAllowed, p)
			buf = g.pol.Allowed(p, buf[:0])
			p.neighboursOnce(buf)
		}
		g.walkEnd()
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/call")
	})
}

// TestAnswerCheckFastPath: the answer check's fast path (neighboursOnce)
// accepts exactly the answers that the full check (answerProblem) does,
// and sorts them alike, on narrow boards (where two moves may share a
// step) and wide ones, for answers of neighbours, repeats, visited
// squares, squares off the board and others.
func TestAnswerCheckFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	r := Rule{Kind: Custom, Custom: "fast-path"}
	for _, b := range []*Board{MustBoard(1, 1), MustBoard(3, 3), MustBoard(3, 4), MustBoard(4, 3), MustBoard(2, 7), MustBoard(5, 5), MustBoard(8, 8), MustBoard(6, 11), MustBoard(12, 5), MustBoard(9, 14), MustBoard(13, 11)} {
		p := newPosition(b)
		n := b.Squares()
		for trial := 0; trial < 3000; trial++ {
			p.reset(rng.IntN(n))
			for k := rng.IntN(n); k > 0; k-- { // a random walk's prefix
				m := p.Moves(p.cur, nil)
				if len(m) == 0 {
					break
				}
				p.move(m[rng.IntN(len(m))])
			}
			var ans []int
			for _, sq := range p.Moves(p.cur, nil) {
				if rng.IntN(3) > 0 {
					ans = append(ans, sq)
				}
			}
			switch rng.IntN(6) {
			case 1:
				if len(ans) > 0 {
					ans = append(ans, ans[rng.IntN(len(ans))])
				}
			case 2:
				ans = append(ans, rng.IntN(n+20)-10)
			case 3:
				ans = append(ans, int(p.trail[rng.IntN(len(p.trail))]))
			case 4:
				for _, m := range CanonicalMoves {
					if sq := p.MoveTo(p.cur, m); sq >= 0 {
						ans = append(ans, sq)
					}
				}
			}
			rng.Shuffle(len(ans), func(i, j int) { ans[i], ans[j] = ans[j], ans[i] })
			fast, slow := slices.Clone(ans), slices.Clone(ans)
			ok := p.neighboursOnce(fast)
			err := answerProblem(&r, p, slow, false)
			if ok != (err == nil) || ok && !slices.Equal(fast, slow) {
				t.Fatalf("%s at %s, answer %v: fast %v %v, full %v %v", b, p, ans, ok, fast, err, slow)
			}
		}
	}
}

// TestWatchesPruned: the guards' watch entries do not pile up in a
// program that makes many walkers and never polls a CallWatch.
func TestWatchesPruned(t *testing.T) {
	registerOnce(t, CustomRule{Name: "guard/many", New: func(*Board) Policy {
		return PolicyFunc(func(p *Position, dst []int) []int { return p.Moves(p.Current(), dst) })
	}})
	r, _ := ParseRule("guard/many")
	b := MustBoard(5, 5)
	for i := range 20000 {
		if _, err := NewWalker(b, r); err != nil {
			t.Fatal(err)
		}
		if i%1000 == 0 {
			runtime.GC()
		}
	}
	runtime.GC()
	watches.Lock()
	n := len(watches.list)
	watches.Unlock()
	if n > 5000 {
		t.Errorf("%d watch entries kept after 20000 walkers", n)
	}
}

// TestCallWatchSlowCallsNotStuck: calls that each take a while but return
// are not a stuck call, even when every one is at the same position (the
// centre of 3x3, where each walk is one call): the watch tells consecutive
// walks' calls apart.
func TestCallWatchSlowCallsNotStuck(t *testing.T) {
	registerOnce(t, CustomRule{Name: "guard/slow", New: func(*Board) Policy {
		return PolicyFunc(func(p *Position, dst []int) []int {
			if p.VisitedCount() == 1 && p.Current() == 4 {
				time.Sleep(30 * time.Millisecond)
			}
			return p.Moves(p.Current(), dst)
		})
	}})
	b := MustBoard(3, 3)
	r, _ := ParseRule("guard/slow")
	w, err := NewWalker(b, r)
	if err != nil {
		t.Fatal(err)
	}
	cw := NewCallWatch()
	done := make(chan bool)
	go func() {
		defer close(done)
		for i := range uint64(20) {
			w.Walk(4, NewKey(1, b, r, 4), i)
		}
	}()
	for {
		select {
		case <-done:
			return
		case <-time.After(5 * time.Millisecond):
			if err := cw.Stuck(60 * time.Millisecond); err != nil {
				t.Fatalf("calls that return reported stuck: %v", err)
			}
		}
	}
}
