package count

// frame is a state unpacked for one step: frame[d] is the code of square
// v-d, frame[0] the square v being added. It holds one square more than a
// stored state: the oldest square, which leaves at the end of the step.
type frame [2*MaxWidth + 2]uint8

// stepper applies one square's choices to states. It is read-only after
// setup except for scratch, so each worker has its own.
type stepper struct {
	*plan
	closed bool
	// ends are the designated ends of the path in sweep order: -1 for an
	// end that may form anywhere, n (beyond the board) for one held in
	// reserve for a later branch (see sweepPairs).
	ends [2]int
	v    int // the square this step adds
	// rule[d] says what a fresh square in slot d after the step means (see
	// setup); pending is the number of designated ends not yet added.
	rule    [2*MaxWidth + 1]uint8
	pending int
	// endSlots[:nEnd] are the slots of the designated ends in the frame.
	endSlots [2]int8
	nEnd     int
	// The same rules as nibble masks for 4-bit keys: bit 4d set for slot
	// d where a fresh square kills the state (deadMask) or is a path end
	// (endMask); slotOnes has bit 4d for every slot, slotMask the whole
	// nibble.
	deadMask, endMask, slotOnes, slotMask uint64
}

// What a square still fresh after the step means for the state.
const (
	freeFresh = iota // nothing yet
	deadFresh        // a cycle's square with fewer than two neighbours to come
	lastFresh        // one neighbour to come: an end of the Hamiltonian path
	endFresh         // a designated end waiting for its edge
)

// setup fills the step's rules. A square needs as many neighbours still
// to come as the edges it lacks. On a cycle every square lacks two, or one
// once it is a path end; on a path, a fresh square with one neighbour to
// come can only be an end of the Hamiltonian path, and a path has two
// ends: the terminals so far, the designated ends still waiting, and these.
func (s *stepper) setup() {
	s.pending, s.nEnd = 0, 0
	for _, e := range s.ends {
		if e >= 0 && e > s.v {
			s.pending++
		}
		if d := s.v - e; !s.closed && e >= 0 && d >= 0 && d <= 2*s.cols+1 {
			s.endSlots[s.nEnd] = int8(d)
			s.nEnd++
		}
	}
	avail := &s.avail[s.v]
	for d := range s.slots {
		switch u := s.v - d; {
		case u >= 0 && (u == s.ends[0] || u == s.ends[1]):
			s.rule[d] = endFresh
		case s.closed && avail[d] < 2:
			s.rule[d] = deadFresh
		case !s.closed && avail[d] == 1:
			s.rule[d] = lastFresh
		default:
			s.rule[d] = freeFresh
		}
	}
	s.deadMask, s.endMask, s.slotOnes = 0, 0, 0
	for d := range min(s.slots, 16) {
		bit := uint64(1) << (4 * d)
		s.slotOnes |= bit
		switch s.rule[d] {
		case deadFresh:
			s.deadMask |= bit
		case lastFresh, endFresh:
			s.endMask |= bit
		}
	}
	s.slotMask = s.slotOnes * 15
}

// maxOut bounds the states one state leads to: none, one or two of at most
// four earlier neighbours (1 + 4 + 6).
const maxOut = 11

// expand adds square v to the state key: v takes no edge, or an edge to
// one or two earlier neighbours that still have room, and then the squares
// whose last neighbour is v leave the frontier. It writes the successor
// keys to out and returns how many, and the number of choices that
// completed a tour (possible only at the last square).
func (s *stepper) expand(key uint64, out *[maxOut]uint64) (nout, done int) {
	if s.base == 16 {
		return s.expand16(key, out)
	}
	return s.expandFrame(key, out)
}

// expandFrame is expand on a frame of one byte a square: the way for
// width 8 (base-11 keys), and the reference expand16 is tested against.
func (s *stepper) expandFrame(key uint64, out *[maxOut]uint64) (nout, done int) {
	var a frame
	s.unpack(key, &a)
	back := s.back[s.v]
	var live [4]int8
	nl := 0
	for _, d := range back {
		if a[d] != spent {
			live[nl] = d
			nl++
		}
	}
	pair := !(s.v == s.ends[0] || s.v == s.ends[1]) // a path's end has one edge
	emit := func(b *frame, completions int) {
		k, ok, complete := s.settle(b, completions)
		switch {
		case !ok:
		case complete:
			done++
		default:
			out[nout] = k
			nout++
		}
	}
	b := a
	emit(&b, 0)
	for i := range nl {
		// The edge to live[i], then perhaps a second edge to a later live
		// square, joined onto a copy of the frame with the first.
		one := a
		c1, ok := join(&one, 0, live[i], s.closed)
		if !ok {
			continue
		}
		for j := i + 1; pair && j < nl; j++ {
			two := one
			if c2, ok := join(&two, 0, live[j], s.closed); ok {
				emit(&two, c1+c2)
			}
		}
		emit(&one, c1)
	}
	return nout, done
}

// settle finishes a choice of v's edges, which completed a tour that many
// times: designated ends that got their edge become terminals, the squares
// that leave retire, and the result is packed; ok is false when the
// choice cannot be part of a tour, complete when it finished one.
func (s *stepper) settle(a *frame, completions int) (key uint64, ok, complete bool) {
	for _, d := range s.endSlots[:s.nEnd] {
		if a[d] >= term {
			// A designated end has its edge: it is a terminal.
			l := a[d]
			a[d] = spent
			if l == term {
				completions++
			} else {
				relabel(a, l, term)
			}
		}
	}
	for _, d := range s.retire[s.v] {
		c := a[d]
		a[d] = spent
		switch {
		case c == spent:
		case c == fresh || s.closed:
			return 0, false, false // unvisited, or a cycle's square short of an edge
		case c == term:
			completions++ // both ends of its path are terminals
		default:
			relabel(a, c, term) // d is an end of the path
		}
	}
	last := s.v == s.n-1
	if completions > 0 {
		if completions > 1 || !last || !allSpent(a) {
			return 0, false, false
		}
		return 0, true, true
	}
	if last {
		return 0, false, false
	}
	key, ok = s.finish(a)
	return key, ok, false
}

// finish checks the state after the step against the rules of setup
// (more than two path ends, or a square that can no longer get its
// edges, is a dead state) and packs it, with the pair codes renumbered in
// order of first appearance so that equal path systems get equal keys.
func (s *stepper) finish(a *frame) (key uint64, ok bool) {
	if s.base == 16 {
		return s.finish16(a)
	}
	var rename [32]uint8
	next := uint8(firstPair)
	ends := s.pending
	for d := 0; d < s.slots; d++ {
		c := a[d]
		switch {
		case c == fresh:
			switch s.rule[d] {
			case deadFresh:
				return 0, false
			case lastFresh, endFresh:
				ends++
			}
		case c == term:
			ends++
		case c >= firstPair:
			c &= 31
			if rename[c] == 0 {
				rename[c] = next
				next++
			}
			a[d] = rename[c]
		}
	}
	if !s.closed && ends > 2 {
		return 0, false
	}
	for d := s.slots - 1; d >= 0; d-- {
		key = key*11 + uint64(a[d])
	}
	return key, true
}

// join adds the edge between frontier squares i and j (both with room).
// It returns 1 when the edge completes a tour: it closes a cycle (only when
// counting cycles) or joins two paths that each end at a terminal.
func join(a *frame, i, j int8, closed bool) (completions int, ok bool) {
	ci, cj := a[i], a[j]
	switch {
	case ci == fresh && cj == fresh:
		a[i], a[j] = newPair, newPair
	case ci == fresh:
		a[i], a[j] = cj, spent
	case cj == fresh:
		a[i], a[j] = spent, ci
	case ci == term && cj == term:
		a[i], a[j] = spent, spent
		return 1, true
	case ci == cj: // the two ends of one path: a cycle
		if !closed {
			return 0, false
		}
		a[i], a[j] = spent, spent
		return 1, true
	default:
		a[i], a[j] = spent, spent
		switch {
		case ci == term:
			relabel(a, cj, term)
		case cj == term:
			relabel(a, ci, term)
		default:
			relabel(a, cj, ci)
		}
	}
	return 0, true
}

// relabel gives the square coded from (the other end of a path whose end
// just took an edge or left) the code to.
func relabel(a *frame, from, to uint8) {
	for d := range a {
		if a[d] == from {
			a[d] = to
			return
		}
	}
	panic("count: a path end without its partner")
}

// newPair is the code of the pair a step starts, which no square of the
// frame carries: a step starts a new pair at most once (only v, fresh, can
// join another fresh square), and the labels of a stored state are
// numbered from firstPair in order of first appearance, one for every two
// of its at most 2·MaxWidth+1 squares, so they stay below newPair; finish
// renumbers them.
const newPair = 15

func allSpent(a *frame) bool {
	for _, c := range a {
		if c != spent {
			return false
		}
	}
	return true
}

// unpack reads the state stored after square v-1 into a for square v.
// Widths up to 7 pack 4 bits a square (shifts); width 8 needs base 11, a
// constant divisor the compiler turns into multiplications.
func (s *stepper) unpack(key uint64, a *frame) {
	if s.base == 16 {
		unpack16(key, a)
		return
	}
	a[0] = fresh
	for d := 1; d <= s.slots; d++ {
		a[d] = uint8(key % 11)
		key /= 11
	}
}
