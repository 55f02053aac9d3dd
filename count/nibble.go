package count

import (
	"encoding/binary"
	"math/bits"
)

// Keys of boards up to width 7 hold a square in each 4-bit nibble, slot d
// at bits 4d to 4d+3. The helpers below work on all nibbles at once (SWAR),
// with no branch per square: the per-state work of a step is dominated by
// checking and packing each successor, once for every choice.

const (
	nibbleOnes = 0x1111111111111111 // bit 0 of every nibble
	byteNibble = 0x0F0F0F0F0F0F0F0F // low nibble of every byte
)

// zeroNibbles returns bit 4d set for each nibble d of x that is zero.
func zeroNibbles(x uint64) uint64 {
	return ^(x | x>>1 | x>>2 | x>>3) & nibbleOnes
}

// nibblesOf packs eight bytes, each below 16, into 32 bits of nibbles.
func nibblesOf(x uint64) uint64 {
	x = (x | x>>4) & 0x00FF00FF00FF00FF
	x = (x | x>>8) & 0x0000FFFF0000FFFF
	return (x | x>>16) & 0xFFFFFFFF
}

// bytesOf spreads 32 bits of nibbles into eight bytes.
func bytesOf(x uint64) uint64 {
	x &= 0xFFFFFFFF
	x = (x | x<<16) & 0x0000FFFF0000FFFF
	x = (x | x<<8) & 0x00FF00FF00FF00FF
	return (x | x<<4) & byteNibble
}

// unpack16 reads a 4-bit key into frame slots 1 to 16, with the added
// square fresh in slot 0.
func unpack16(key uint64, a *frame) {
	a[0] = fresh
	binary.LittleEndian.PutUint64(a[1:9], bytesOf(key))
	binary.LittleEndian.PutUint64(a[9:17], bytesOf(key>>32))
}

// finish16 is finish for 4-bit keys.
func (s *stepper) finish16(a *frame) (key uint64, ok bool) {
	return s.finishWord(nibblesOf(binary.LittleEndian.Uint64(a[0:8])) | nibblesOf(binary.LittleEndian.Uint64(a[8:16]))<<32)
}

// finishWord is finish for a frame held in one word, square d in nibble
// d (see expand16).
func (s *stepper) finishWord(key uint64) (uint64, bool) {
	key &= s.slotMask
	fr := zeroNibbles(key^nibbleOnes) & s.slotOnes
	if fr&s.deadMask != 0 {
		return 0, false
	}
	tm := zeroNibbles(key^(2*nibbleOnes)) & s.slotOnes
	if !s.closed && s.pending+bits.OnesCount64(tm)+bits.OnesCount64(fr&s.endMask) > 2 {
		return 0, false
	}
	// Pair labels, renumbered in order of first appearance: the nibbles
	// that are none of spent, fresh and term. Every label marks the two
	// ends of one path, so the labels are renumbered a pair at a time: the
	// lowest unnumbered nibble and its partner, the other unnumbered
	// nibble with its code, take the next number. That is half the
	// iterations of a nibble at a time with a table of new numbers, and
	// none of them waits on memory.
	labels := ^(zeroNibbles(key) | fr | tm) & s.slotOnes
	for next := uint64(firstPair); labels != 0; next++ {
		p := bits.TrailingZeros64(labels)
		labels &= labels - 1
		c := key >> p & 15
		partner := zeroNibbles(key^c*nibbleOnes) & labels
		q := bits.TrailingZeros64(partner) // 64, shifting to nothing, if c had no partner
		labels &^= 1 << q
		key ^= (c^next)<<p | (c^next)<<q
	}
	return key, true
}

// expand16 is expand for keys of 4 bits a square (widths up to 7), with
// the frame held in one 64-bit word, square v-d in nibble d: a frame has
// 2·width+2 ≤ 16 squares. The byte frame of expandFrame is written a
// square at a time and then read eight squares at once to pack the key,
// and such a read waits until the byte writes reach the cache (the
// processor cannot forward several stores to one load): at 7x7 that
// packing took a third of a step's time. Square for square it does what
// expandFrame does (TestExpand16), with the same successors in the same
// order.
func (s *stepper) expand16(key uint64, out *[maxOut]uint64) (nout, done int) {
	a := key<<4 | fresh
	var live [4]uint8 // bit offsets of v's earlier neighbours with room
	nl := 0
	for _, d := range s.back[s.v] {
		if a>>(4*uint(d))&15 != spent {
			live[nl] = 4 * uint8(d)
			nl++
		}
	}
	pair := !(s.v == s.ends[0] || s.v == s.ends[1]) // a path's end has one edge
	emit := func(b uint64, completions int) {
		k, ok, complete := s.settle16(b, completions)
		switch {
		case !ok:
		case complete:
			done++
		default:
			out[nout] = k
			nout++
		}
	}
	emit(a, 0)
	for i := range nl {
		one, c1, ok := join16(a, live[i], s.closed)
		if !ok {
			continue
		}
		for j := i + 1; pair && j < nl; j++ {
			if two, c2, ok := join16(one, live[j], s.closed); ok {
				emit(two, c1+c2)
			}
		}
		emit(one, c1)
	}
	return nout, done
}

// join16 is join for a word frame: the edge between v (nibble 0) and the
// square at bit offset pj.
func join16(a uint64, pj uint8, closed bool) (b uint64, completions int, ok bool) {
	ci, cj := a&15, a>>pj&15
	b = a &^ (15 | 15<<pj)
	switch {
	case ci == fresh && cj == fresh:
		return b | newPair | newPair<<pj, 0, true
	case ci == fresh:
		return b | cj, 0, true
	case cj == fresh:
		return b | ci<<pj, 0, true
	case ci == term && cj == term:
		return b, 1, true
	case ci == cj: // the two ends of one path: a cycle
		if !closed {
			return 0, 0, false
		}
		return b, 1, true
	case ci == term:
		return relabel16(b, cj, term), 0, true
	case cj == term:
		return relabel16(b, ci, term), 0, true
	default:
		return relabel16(b, cj, ci), 0, true
	}
}

// relabel16 is relabel for a word frame: the first square coded from
// gets the code to.
func relabel16(a, from, to uint64) uint64 {
	m := zeroNibbles(a ^ from*nibbleOnes)
	if m == 0 {
		panic("count: a path end without its partner")
	}
	return a ^ (from^to)<<bits.TrailingZeros64(m)
}

// settle16 is settle for a word frame.
func (s *stepper) settle16(a uint64, completions int) (key uint64, ok, complete bool) {
	for _, d := range s.endSlots[:s.nEnd] {
		p := 4 * uint(d)
		if l := a >> p & 15; l >= term {
			// A designated end has its edge: it is a terminal.
			a &^= 15 << p
			if l == term {
				completions++
			} else {
				a = relabel16(a, l, term)
			}
		}
	}
	for _, d := range s.retire[s.v] {
		p := 4 * uint(d)
		c := a >> p & 15
		a &^= 15 << p
		switch {
		case c == spent:
		case c == fresh || s.closed:
			return 0, false, false // unvisited, or a cycle's square short of an edge
		case c == term:
			completions++ // both ends of its path are terminals
		default:
			a = relabel16(a, c, term) // d is an end of the path
		}
	}
	last := s.v == s.n-1
	if completions > 0 {
		if completions > 1 || !last || a != 0 {
			return 0, false, false
		}
		return 0, true, true
	}
	if last {
		return 0, false, false
	}
	key, ok = s.finishWord(a)
	return key, ok, false
}
