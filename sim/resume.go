package sim

import (
	"fmt"
	"math/bits"
	"slices"
)

// Stepper runs one walk of a walk rule (random or Warnsdorff, any
// tie-break) that can be stopped at a given path length, saved, restored
// and continued: what splitting estimators of rare successes need (package
// rare). It uses the general kernel on every board and takes exactly the
// steps of genKernel.walk, draw for draw: a walk begun on start and
// advanced to its end with stream w of a key is Walk(start, key, w)
// (TestStepperMatchesWalk). Like Walker it is scratch state for one
// goroutine.
type Stepper struct {
	k       *genKernel
	pk      *policyKernel // a rule of your own: steps through its policy
	degrees bool
	start   int
	cur     int // padded index of the current square
	length  int // squares visited, start included
	ties    int
	ended   bool // dead end, MaxSteps reached, or every square visited
	stopped bool // ended by MaxSteps with moves still available
}

// Snapshot is a saved Stepper state: the board's visited set (with the
// Warnsdorff degrees), the current square and the path length. It holds
// (rows+4)·(cols+4) bytes; Save reuses its buffer.
type Snapshot struct {
	st      []uint8
	start   int
	cur     int
	length  int
	ties    int
	ended   bool
	stopped bool
}

// Length is the path length of the saved walk.
func (s *Snapshot) Length() int { return s.length }

// NewStepper returns a stepper for rule r on board b. Backtrack is refused:
// it is a search, not a walk that can be continued from a prefix.
func NewStepper(b *Board, r Rule) (*Stepper, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if r.Kind == Backtrack {
		return nil, fmt.Errorf("rule %s: a stepper continues walks; backtrack is a search", r.Name())
	}
	if r.Kind == Custom {
		pk, err := newPolicyKernel(b, r)
		if err != nil {
			return nil, err
		}
		if pk.g.state != nil { // registered Deterministic, as the guard makes sure
			return nil, fmt.Errorf("rule %s keeps state along its walk, which a stepper cannot save and restore; it is deterministic: its one walk decides", r.Name())
		}
		return &Stepper{pk: pk}, nil
	}
	return &Stepper{k: newGenKernel(b, r), degrees: r.Kind == Warnsdorff}, nil
}

// Begin starts a new walk on start: the start square is visited and the
// path length is 1.
func (s *Stepper) Begin(start int) {
	if s.pk != nil {
		if start < 0 || start >= s.pk.b.Squares() {
			panic(fmt.Sprintf("sim: Stepper.Begin: start %d off the %s board", start, s.pk.b))
		}
		s.pk.pos.reset(start)
		s.start, s.length, s.ties, s.ended, s.stopped, s.cur = start, 1, 0, false, false, start
		return
	}
	b := s.k.b
	if start < 0 || start >= b.Squares() {
		panic(fmt.Sprintf("sim: Stepper.Begin: start %d off the %s board", start, b))
	}
	copy(s.k.st, s.k.fresh)
	s.start, s.length, s.ties, s.ended, s.stopped = start, 1, 0, false, false
	s.cur = s.k.pad(start)
	s.mark(s.cur)
}

// mark visits padded square p. It is genKernel.visit without the path,
// which a stepper does not keep: only the current square stays in k.path,
// where the first tie-break looks for it (MoveRank).
func (s *Stepper) mark(p int) {
	s.k.path = append(s.k.path[:0], int32(p))
	st := s.k.st
	st[p] |= visitedBit
	if s.degrees {
		for _, o := range s.k.off {
			st[p+o]--
		}
	}
}

// Length returns the current path length.
func (s *Stepper) Length() int { return s.length }

// Ended reports whether the walk cannot continue: a dead end, MaxSteps, or
// every square visited. It is known only once Advance has tried to go on.
func (s *Stepper) Ended() bool { return s.ended || s.length == s.board().Squares() }

func (s *Stepper) board() *Board {
	if s.pk != nil {
		return s.pk.b
	}
	return s.k.b
}

// Err returns the error of a rule of your own whose policy answered what
// no walk may take (a *RuleError): the walk ended there and is no result.
func (s *Stepper) Err() error {
	if s.pk == nil {
		return nil
	}
	return s.pk.err
}

// Advance continues the walk, drawing from src, until its path length is
// until (true) or it ends first (false). It makes exactly the decisions and
// draws that genKernel.walk makes at the same state.
func (s *Stepper) Advance(src *PCG, until int) bool {
	if s.pk != nil {
		if rc := s.pk.check; rc != nil && !s.ended && s.pk.err == nil && sampledStream(src.hi) {
			return s.advanceChecked(src, until)
		}
		return s.advancePolicy(s.pk, src, until)
	}
	k := s.k
	for s.length < until {
		if s.ended {
			return false
		}
		moves := k.allowed(s.cur, s.degrees)
		if moves == 0 {
			s.ended = true
			return false
		}
		if s.length > k.maxSteps {
			s.ended, s.stopped = true, true
			return false
		}
		if moves&(moves-1) != 0 {
			s.ties++
			if s.degrees && k.rule.TieBreak != TieRandom {
				moves = k.reduceTies(moves, s.cur)
			}
			if moves&(moves-1) != 0 {
				moves = 1 << selectInByte[moves][Uniform(src, uint32(bits.OnesCount8(moves)))]
			}
		}
		s.cur += k.off[bits.TrailingZeros8(moves)&7]
		s.mark(s.cur)
		s.length++
	}
	return true
}

// advancePolicy is Advance for a rule of your own, through pk.
func (s *Stepper) advancePolicy(pk *policyKernel, src *PCG, until int) bool {
	for s.length < until {
		if s.ended || pk.err != nil {
			return false
		}
		next, tie, stopped := pk.step(src)
		if next < 0 {
			s.ended, s.stopped = true, stopped
			return false
		}
		if tie {
			s.ties++
		}
		s.cur = next
		s.length++
	}
	return true
}

// advanceChecked is advancePolicy for a segment in the replay check's
// sample (replaycheck.go: 1 in 64 by its stream): the segment is walked
// again from the same position through a fresh policy, drawing from the
// same stream, and must take the same squares, ties and end.
func (s *Stepper) advanceChecked(src *PCG, until int) bool {
	pk := s.pk
	p := pk.pos
	rc := pk.check
	rc.visited = append(rc.visited[:0], p.visited...)
	from := *s
	from0, src0, before := p.String(), *src, len(p.trail)
	reached := s.advancePolicy(pk, src, until)
	if pk.err != nil {
		return reached
	}
	rk, err := pk.fresh()
	if err != nil {
		pk.err = err
		return false
	}
	rk.pos.setVisited(func(sq int) bool { return rc.visited[sq] }, from.cur, from.start)
	again := from
	again.pk = rk
	src1 := src0
	again.advancePolicy(rk, &src1, until)
	if rk.err != nil {
		pk.err = rk.err
		return false
	}
	path, path2 := p.trail[before:], rk.pos.trail[len(rk.pos.trail)-(again.length-from.length):]
	if slices.Equal(path, path2) && again.ties == s.ties && again.ended == s.ended && again.stopped == s.stopped && src1 == *src {
		return reached
	}
	got := Outcome{Ties: s.ties - from.ties, Stopped: s.stopped}
	o := Outcome{Ties: again.ties - from.ties, Stopped: again.stopped}
	// the paths from the segment's first square: its first step is step 1
	cur := int32(from.cur)
	path, path2 = append([]int32{cur}, path...), append([]int32{cur}, path2...)
	e := pk.replayProblem(fmt.Sprintf("a walk of the splitting estimator, continued from the %s with its stream,", from0), from.start, path, path2, got, o, false)
	if re, ok := e.(*RuleError); ok {
		re.Position = from0 + ", the segment's first square counted as its step 0"
	}
	pk.err = e
	return false
}

// Outcome describes the walk so far as Walk would once it ended (Path is
// never filled).
func (s *Stepper) Outcome() Outcome {
	b := s.board()
	end := s.cur
	if s.pk == nil {
		end = s.k.unpad(int32(s.cur))
	}
	o := Outcome{Start: s.start, Length: s.length, End: end, Ties: s.ties, Stopped: s.stopped}
	o.Success = s.length == b.Squares()
	o.Closed = o.Success && o.Length > 1 && b.Adjacent(s.start, o.End)
	return o
}

// Save copies the walk's state into dst, reusing dst's buffer.
func (s *Stepper) Save(dst *Snapshot) {
	if s.pk != nil { // one byte a square: visited or not
		dst.st = dst.st[:0]
		for _, v := range s.pk.pos.visited {
			dst.st = append(dst.st, uint8(b2i(v)))
		}
	} else {
		dst.st = append(dst.st[:0], s.k.st...)
	}
	dst.start, dst.cur, dst.length, dst.ties, dst.ended, dst.stopped = s.start, s.cur, s.length, s.ties, s.ended, s.stopped
}

// Restore makes src's walk the current one. src must come from a stepper of
// the same board and rule (a programmer error otherwise).
func (s *Stepper) Restore(src *Snapshot) {
	if s.pk != nil {
		p := s.pk.pos
		if len(src.st) != len(p.visited) {
			panic("sim: Stepper.Restore: snapshot of another board")
		}
		p.setVisited(func(sq int) bool { return src.st[sq] == 1 }, src.cur, src.start)
		s.start, s.cur, s.length, s.ties, s.ended, s.stopped = src.start, src.cur, src.length, src.ties, src.ended, src.stopped
		return
	}
	if len(src.st) != len(s.k.st) {
		panic("sim: Stepper.Restore: snapshot of another board")
	}
	copy(s.k.st, src.st)
	s.k.path = append(s.k.path[:0], int32(src.cur))
	s.start, s.cur, s.length, s.ties, s.ended, s.stopped = src.start, src.cur, src.length, src.ties, src.ended, src.stopped
}
