package sim

import (
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Policy-written copies of the built-in walk rules: each written as a
// researcher would write it, through the public Position only (Moves,
// Degree, MoveTo, Board), registered as a rule of its own and so walked by
// the policy kernel behind the guard. TestOwnRuleCopiesMatchBuiltins holds
// them to the built-ins walk for walk; BenchmarkOwnRule times each beside
// the built-in it copies, so that the ratio is tracked.
var ownCopies = []struct{ name, builtin string }{
	{"copy/random", "random"},
	{"copy/warnsdorff-random", "warnsdorff/random"},
	{"copy/warnsdorff-first", "warnsdorff/first"},
	{"copy/warnsdorff-pohl", "warnsdorff/pohl"},
	{"copy/warnsdorff-roth", "warnsdorff/roth"},
	{"lanes/random", "random"},
	{"lanes/warnsdorff-random", "warnsdorff/random"},
	{"lanes/warnsdorff-random-each", "warnsdorff/random"},
}

// The lane form of the copies of random and warnsdorff/random: the
// per-walk copies above for Allowed, and AllowedLanes over every walk in
// flight, as a researcher would write it (docs/rules.md).
type randomLanes struct{}

func (randomLanes) Allowed(p *Position, dst []int) []int { return p.Moves(p.Current(), dst) }
func (randomLanes) AllowedLanes(l *Lanes)                { l.Allowed = l.Free }

type warnsdorffLanes struct {
	warnsdorffCopy
	each bool
}

func (w *warnsdorffLanes) AllowedLanes(l *Lanes) {
	if w.each {
		for j := range LaneCount {
			l.Allowed[j] = l.MinDegree(j, l.Free[j])
		}
		return
	}
	l.MinDegrees(&l.Allowed, &l.Free)
}

// warnsdorffCopy allows the unvisited neighbours of least degree, narrowed
// by score (the least score survives; nil: no narrowing) and, with first,
// to the one reached by the earliest move of CanonicalMoves.
type warnsdorffCopy struct {
	moves, tied []int
	score       func(p *Position, sq int) int
	first       bool
}

func (w *warnsdorffCopy) Allowed(p *Position, dst []int) []int {
	w.moves = p.Moves(p.Current(), w.moves[:0])
	best := 9
	w.tied = w.tied[:0]
	for _, sq := range w.moves {
		if d := p.Degree(sq); d < best {
			best, w.tied = d, append(w.tied[:0], sq)
		} else if d == best {
			w.tied = append(w.tied, sq)
		}
	}
	if len(w.tied) > 1 && w.score != nil {
		lo, keep := 1<<30, w.tied[:0]
		scores := make([]int, 0, 8)
		for _, sq := range w.tied {
			scores = append(scores, w.score(p, sq))
			lo = min(lo, scores[len(scores)-1])
		}
		for i, sq := range w.tied {
			if scores[i] == lo {
				keep = append(keep, sq)
			}
		}
		w.tied = keep
	}
	if len(w.tied) > 1 && w.first {
		for _, m := range CanonicalMoves {
			if sq := p.MoveTo(p.Current(), m); slices.Contains(w.tied, sq) {
				return append(dst, sq)
			}
		}
	}
	return append(dst, w.tied...)
}

func registerOwnCopies(tb testing.TB) {
	registerOnce(tb, CustomRule{Name: "lanes/random", New: func(*Board) Policy { return randomLanes{} }})
	registerOnce(tb, CustomRule{Name: "lanes/warnsdorff-random", New: func(*Board) Policy { return &warnsdorffLanes{} }})
	registerOnce(tb, CustomRule{Name: "lanes/warnsdorff-random-each", New: func(*Board) Policy { return &warnsdorffLanes{each: true} }})
	registerOnce(tb, CustomRule{Name: "copy/random", New: func(*Board) Policy {
		return PolicyFunc(func(p *Position, dst []int) []int { return p.Moves(p.Current(), dst) })
	}})
	pohl := func(p *Position, sq int) int {
		var buf [8]int
		s := 0
		for _, t := range p.Moves(sq, buf[:0]) {
			s += p.Degree(t)
		}
		return s
	}
	roth := func(p *Position, sq int) int { return -p.Board().CentreDist2(sq) } // farthest from the centre
	for _, c := range []struct {
		name  string
		score func(*Position, int) int
		first bool
	}{{"copy/warnsdorff-random", nil, false}, {"copy/warnsdorff-first", nil, true}, {"copy/warnsdorff-pohl", pohl, false}, {"copy/warnsdorff-roth", roth, false}} {
		registerOnce(tb, CustomRule{Name: c.name, New: func(*Board) Policy { return &warnsdorffCopy{score: c.score, first: c.first} }})
	}
}

// TestOwnRuleCopiesMatchBuiltins: each policy-written copy walks the walks
// of the built-in rule it copies (same streams), square for square.
func TestOwnRuleCopiesMatchBuiltins(t *testing.T) {
	registerOwnCopies(t)
	for _, bs := range [][2]int{{5, 5}, {8, 8}, {7, 12}, {12, 12}} {
		b := MustBoard(bs[0], bs[1])
		for _, c := range ownCopies {
			br, _ := ParseRule(c.builtin)
			or, err := ParseRule(c.name)
			if err != nil {
				t.Fatal(err)
			}
			kw, _ := NewWalker(b, br)
			ow, err := NewWalker(b, or)
			if err != nil {
				t.Fatal(err)
			}
			kw.KeepPaths(true)
			ow.KeepPaths(true)
			for _, start := range []int{0, b.Squares() / 2, b.Squares() - 1} {
				key := NewKey(7, b, br, start)
				for i := range uint64(200) {
					ko, oo := kw.Walk(start, key, i), ow.Walk(start, key, i)
					if !slices.Equal(ko.Path, oo.Path) {
						t.Fatalf("%s %s from %s walk %d: built-in %v, copy %v (%v)", b, c.name, b.SquareName(start), i, ko.Path, oo.Path, ow.Err())
					}
				}
			}
		}
	}
}

// TestOwnRuleCopiesMatchBuiltinsInRanges: the same through WalkRange, where
// a LanePolicy walks in lanes on boards of up to 64 squares: every outcome
// (length, end, ties, stopped, success, closed) the built-in's, with and
// without max_steps, for ranges of every size around LaneCount, on every
// kernel path (the lanes' check and move by AVX-512 on avx512 and auto,
// in Go on the others).
func TestOwnRuleCopiesMatchBuiltinsInRanges(t *testing.T) {
	registerOwnCopies(t)
	for _, path := range KernelPaths() {
		t.Setenv(KernelEnv, string(path))
		testCopiesInRanges(t)
	}
}

func testCopiesInRanges(t *testing.T) {
	for _, bs := range [][2]int{{5, 5}, {8, 8}, {7, 9}, {3, 4}, {12, 12}} {
		b := MustBoard(bs[0], bs[1])
		for _, c := range ownCopies {
			for _, maxSteps := range []int{0, 9} {
				br, _ := ParseRule(c.builtin)
				or, _ := ParseRule(c.name)
				br.MaxSteps, or.MaxSteps = maxSteps, maxSteps
				kw, _ := NewWalker(b, br)
				ow, err := NewWalker(b, or)
				if err != nil {
					t.Fatal(err)
				}
				lanes := ow.pol.lanes != nil
				if want := b.Squares() <= 64 && strings.HasPrefix(c.name, "lanes/"); lanes != want {
					t.Fatalf("%s %s: in lanes %v, want %v", b, c.name, lanes, want)
				}
				want := PathPolicy
				if p, _ := KernelPathFromEnv(); lanes && (p == PathAuto || p == PathAVX512) && cpuHas.avx512 {
					want = PathLanesAVX512
				} else if lanes {
					want = PathLanes
				}
				if ow.KernelPath() != want {
					t.Fatalf("%s %s on %s: path %s, want %s", b, c.name, os.Getenv(KernelEnv), ow.KernelPath(), want)
				}
				for _, start := range []int{0, b.Squares() / 2, b.Squares() - 1} {
					key := NewKey(7, b, br, start)
					for _, n := range []int{1, 7, 8, 15, 16, 17, 300} {
						ko, oo := make([]Outcome, n), make([]Outcome, n)
						kw.WalkRange(start, key, 1000, ko)
						ow.WalkRange(start, key, 1000, oo)
						if err := ow.Err(); err != nil {
							t.Fatal(err)
						}
						for i := range ko {
							if br.Kind == Warnsdorff && br.TieBreak != TieRandom {
								oo[i].Ties = ko[i].Ties // a rule of your own counts answers of two squares or more; the built-in counts ties before its tie-break
							}
							if !reflect.DeepEqual(ko[i], oo[i]) {
								t.Fatalf("%s %s on %s, max_steps %d from %s, %d walks, walk %d: built-in %+v, copy %+v", b, c.name, os.Getenv(KernelEnv), maxSteps, b.SquareName(start), n, i, ko[i], oo[i])
							}
						}
					}
				}
			}
		}
	}
}

// ownRuleCases are the cases of the goal: 8x8 Warnsdorff/random from a1
// and d4, the 8x8 random walk from every square, 100x100 Warnsdorff and
// the random walk from the corner, and the other copies on 8x8 from every square.
var ownRuleCases = []struct {
	name       string
	rows, cols int
	starts     []string // nil: every square
	builtin    string
	copy       string
}{
	{"8x8-warnsdorff-a1", 8, 8, []string{"a1"}, "warnsdorff/random", "copy/warnsdorff-random"},
	{"8x8-warnsdorff-d4", 8, 8, []string{"d4"}, "warnsdorff/random", "copy/warnsdorff-random"},
	{"8x8-random", 8, 8, nil, "random", "copy/random"},
	{"100x100-warnsdorff-corner", 100, 100, []string{"r0c0"}, "warnsdorff/random", "copy/warnsdorff-random"},
	{"100x100-random-corner", 100, 100, []string{"r0c0"}, "random", "copy/random"},
	{"8x8-warnsdorff-a1-lanes", 8, 8, []string{"a1"}, "warnsdorff/random", "lanes/warnsdorff-random"},
	{"8x8-warnsdorff-d4-lanes", 8, 8, []string{"d4"}, "warnsdorff/random", "lanes/warnsdorff-random"},
	{"8x8-warnsdorff-d4-lanes-each", 8, 8, []string{"d4"}, "warnsdorff/random", "lanes/warnsdorff-random-each"},
	{"8x8-random-lanes", 8, 8, nil, "random", "lanes/random"},
	{"100x100-warnsdorff-corner-lanes", 100, 100, []string{"r0c0"}, "warnsdorff/random", "lanes/warnsdorff-random"},
	{"8x8-first", 8, 8, nil, "warnsdorff/first", "copy/warnsdorff-first"},
	{"8x8-pohl", 8, 8, nil, "warnsdorff/pohl", "copy/warnsdorff-pohl"},
	{"8x8-roth", 8, 8, nil, "warnsdorff/roth", "copy/warnsdorff-roth"},
}

// BenchmarkOwnRule times each built-in rule (its kernel, auto path) and
// its policy-written copy (the policy kernel behind the guard; the cases
// ending -lanes the copy in lanes, and the built-in also on each path
// forced: builtin-avx512, ...) on the same walks, reporting thread CPU ns
// per walk and per step; the ratio of a copy's cpu-ns/walk to its
// built-in's is what the rule interface costs.
func BenchmarkOwnRule(b *testing.B) {
	registerOwnCopies(b)
	for _, c := range ownRuleCases {
		bd := MustBoard(c.rows, c.cols)
		var starts []int
		for _, s := range c.starts {
			sq, err := bd.ParseSquare(s)
			if err != nil {
				b.Fatal(err)
			}
			starts = append(starts, sq)
		}
		if starts == nil {
			for s := range bd.Squares() {
				starts = append(starts, s)
			}
		}
		whichs := []string{"builtin", "copy"}
		if bd.Squares() <= 64 && strings.HasSuffix(c.name, "-lanes") { // the built-in on each path forced, beside
			for _, p := range KernelPaths() {
				whichs = append(whichs, "builtin-"+string(p))
			}
		}
		for _, which := range whichs {
			b.Run(c.name+"/"+which, func(b *testing.B) {
				br, _ := ParseRule(c.builtin)
				r := br
				if which == "copy" {
					r, _ = ParseRule(c.copy)
				}
				w, err := NewWalker(bd, r)
				if p, ok := strings.CutPrefix(which, "builtin-"); ok {
					w, err = NewPathWalker(bd, r, KernelPath(p))
				}
				if err != nil {
					b.Fatal(err)
				}
				keys := make([]Key, len(starts))
				for i, s := range starts {
					keys[i] = NewKey(1, bd, br, s)
				}
				out := make([]Outcome, 256)
				if bd.Squares() > 64 {
					out = out[:1]
				}
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				steps, walks := 0, 0
				b.ResetTimer()
				cpu0 := threadCPU()
				for i := 0; walks < b.N; i++ {
					j := i % len(starts)
					run := out[:min(len(out), b.N-walks)]
					w.WalkRange(starts[j], keys[j], uint64(walks), run)
					for _, o := range run {
						steps += o.Length - 1
					}
					walks += len(run)
				}
				cpu := threadCPU() - cpu0
				if err := w.Err(); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/walk")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(max(steps, 1)), "cpu-ns/step")
			})
		}
	}
}

// BenchmarkPosition is the cost of each piece a rule of your own calls or
// passes through on a step, per call, on 8x8 (bitboards), 10x12 (two-word
// bitboards) and 100x100 (the padded layout): Moves, Degree, Visited,
// the answer check (neighboursOnce), and the call watch's mark of a call
// in a walk (walkCall), over 256 positions of random-walk prefixes so
// that no branch is predicted by repetition.
func BenchmarkPosition(b *testing.B) {
	registerOwnCopies(b)
	for _, bs := range [][2]int{{8, 8}, {10, 12}, {100, 100}} {
		bd := MustBoard(bs[0], bs[1])
		var ps []*Position
		src := &PCG{}
		src.Seed(1, 2)
		for range 256 {
			p := newPosition(bd)
			p.reset(int(Uniform(src, uint32(bd.Squares()))))
			for k := Uniform(src, 30); k > 0; k-- {
				m := p.Moves(p.cur, nil)
				if len(m) == 0 {
					break
				}
				p.move(m[Uniform(src, uint32(len(m)))])
			}
			ps = append(ps, p)
		}
		r, _ := ParseRule("copy/random")
		g, err := newGuard(bd, r)
		if err != nil {
			b.Fatal(err)
		}
		buf := make([]int, 0, 16)
		name := bd.String()
		b.Run(name+"/Moves", func(b *testing.B) {
			i := 0
			for b.Loop() {
				p := ps[i&255]
				buf = p.Moves(p.cur, buf[:0])
				i++
			}
		})
		b.Run(name+"/Degree", func(b *testing.B) {
			i, s := 0, 0
			for b.Loop() {
				p := ps[i&255]
				s += p.Degree(p.cur)
				i++
			}
			sink = s
		})
		b.Run(name+"/Visited", func(b *testing.B) {
			i, s := 0, 0
			for b.Loop() {
				p := ps[i&255]
				s += b2i(p.Visited(i % bd.Squares()))
				i++
			}
			sink = s
		})
		answers := make([][]int, len(ps))
		for i, p := range ps {
			answers[i] = p.Moves(p.cur, nil)
		}
		b.Run(name+"/check", func(b *testing.B) {
			i := 0
			for b.Loop() {
				p := ps[i&255]
				buf = append(buf[:0], answers[i&255]...)
				p.neighboursOnce(buf)
				i++
			}
		})
		// The rule's own answer, Allowed through the interface as the
		// kernel calls it, with the kernel's work left out: a floor under
		// a copy's cost a step (BenchmarkOwnRule), whatever the kernel.
		for _, c := range []string{"copy/random", "copy/warnsdorff-random"} {
			r, _ := ParseRule(c)
			cg, err := newGuard(bd, r)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(name+"/Allowed-"+strings.TrimPrefix(c, "copy/"), func(b *testing.B) {
				i := 0
				for b.Loop() {
					buf = cg.pol.Allowed(ps[i&255], buf[:0])
					i++
				}
			})
		}
		g.walkBegin(ps[0])
		b.Run(name+"/watch", func(b *testing.B) {
			i := 0
			for b.Loop() {
				g.walkCall(callAllowed, ps[i&255])
				i++
			}
		})
		g.walkEnd()
	}
}

var sink int
