package sim

// genKernel walks boards of any size. The board is padded with a two-square
// border of permanently visited squares so that a move needs no bounds
// check. Each square's state is one byte: bit 7 visited, the low bits its
// number of unvisited neighbours, kept up to date incrementally. A walk
// touches only the squares it visits and their neighbours (undone from the
// path afterwards), so its cost per step does not grow with the board.
type genKernel struct {
	b        *Board
	rule     Rule
	maxSteps int
	pc       int      // padded columns: cols+4
	off      [8]int   // padded offsets of sortedMoves (ascending square order)
	rank     [8]uint8 // position of sortedMoves[i] in the rule's move order
	st       []uint8  // padded state bytes
	path     []int32  // padded indices of the current walk
	tied     [8]int32 // scratch: tied candidates, ascending

	// Backtrack scratch, allocated only for that rule.
	cands []int32 // 8 candidate slots per depth
	ncand []uint8
	next  []uint8
}

const visitedBit = 0x80

func newGenKernel(b *Board, r Rule) *genKernel {
	k := &genKernel{b: b, rule: r, maxSteps: r.MaxSteps, pc: b.Cols + 4}
	n := b.Squares()
	if k.maxSteps == 0 || k.maxSteps > n {
		k.maxSteps = n
	}
	order := r.order()
	for i, m := range sortedMoves {
		k.off[i] = m.DR*k.pc + m.DC
		for j, o := range order {
			if o == m {
				k.rank[i] = uint8(j)
			}
		}
	}
	k.st = make([]uint8, (b.Rows+4)*k.pc)
	for i := range k.st {
		k.st[i] = visitedBit | 8 // border: visited, and room for 8 decrements
	}
	for sq := 0; sq < n; sq++ {
		k.st[k.pad(sq)] = uint8(b.Degree(sq))
	}
	k.path = make([]int32, 0, n)
	if r.Kind == Backtrack {
		k.cands = make([]int32, 8*n)
		k.ncand = make([]uint8, n)
		k.next = make([]uint8, n)
	}
	return k
}

func (k *genKernel) pad(sq int) int {
	r, c := k.b.RowCol(sq)
	return (r+2)*k.pc + c + 2
}

func (k *genKernel) unpad(p int32) int {
	return k.b.Square(int(p)/k.pc-2, int(p)%k.pc-2)
}

// visit marks p visited; with degrees, its neighbours lose one unvisited
// neighbour.
func (k *genKernel) visit(p int, degrees bool) {
	st := k.st
	st[p] |= visitedBit
	if degrees {
		for _, o := range k.off {
			st[p+o]--
		}
	}
	k.path = append(k.path, int32(p))
}

// reset undoes the walk in k.path, leaving the state as new.
func (k *genKernel) reset(degrees bool) {
	st := k.st
	for _, p := range k.path {
		st[p] &^= visitedBit
		if degrees {
			for _, o := range k.off {
				st[int(p)+o]++
			}
		}
	}
	k.path = k.path[:0]
}

func (k *genKernel) walk(start int, src *PCG, keep bool) Outcome {
	if k.rule.Kind == Backtrack {
		return k.backtrack(start, src, keep)
	}
	degrees := k.rule.Kind == Warnsdorff
	o := Outcome{Start: start}
	k.visit(k.pad(start), degrees)
	cur := k.pad(start)
	st := k.st
	for {
		// Gather the allowed squares in ascending order: every unvisited
		// neighbour for the random walk, those of minimum degree for
		// Warnsdorff.
		n, minD := 0, uint8(visitedBit)
		tied := &k.tied
		for _, off := range k.off {
			p := cur + off
			s := st[p]
			if s >= visitedBit {
				continue
			}
			if degrees {
				if s > minD {
					continue
				}
				if s < minD {
					minD, n = s, 0
				}
			}
			tied[n] = int32(p)
			n++
		}
		if n == 0 {
			break
		}
		if len(k.path) > k.maxSteps {
			o.Stopped = true
			break
		}
		next := int(tied[0])
		if n > 1 {
			o.Ties++
			next = k.breakTie(n, src)
		}
		k.visit(next, degrees)
		cur = next
	}
	o.Length = len(k.path)
	o.End = k.unpad(int32(cur))
	o.Success = o.Length == k.b.Squares()
	o.Closed = o.Success && o.Length > 1 && k.b.Adjacent(start, o.End)
	if keep {
		o.Path = k.realPath()
	}
	k.reset(degrees)
	return o
}

func (k *genKernel) realPath() []int32 {
	out := make([]int32, len(k.path))
	for i, p := range k.path {
		out[i] = int32(k.unpad(p))
	}
	return out
}

// breakTie picks among the n tied squares in k.tied (ascending), exactly as
// fastKernel.breakTie does.
func (k *genKernel) breakTie(n int, src *PCG) int {
	tied := k.tied[:n]
	if k.rule.Kind == Warnsdorff && k.rule.TieBreak != TieRandom {
		n = narrowTies(k.rule.TieBreak.chain(), tied, k) // tiebreak.go
	}
	if n == 1 {
		return int(tied[0])
	}
	return int(tied[Uniform(src, uint32(n))])
}

// neighbourDegreeSum is Pohl's second-level score: the sum of the degrees
// of p's unvisited neighbours.
func (k *genKernel) neighbourDegreeSum(p int32) int {
	s := 0
	for _, off := range k.off {
		if v := k.st[int(p)+off]; v < visitedBit {
			s += int(v)
		}
	}
	return s
}
