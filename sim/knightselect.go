package sim

import "math/bits"

// knightSelect finds the j-th lowest square of a set of unvisited
// neighbours of one square without PDEP and without a loop, on boards of
// 2 to 15 columns: the scalar kernel's select (nthBit, which works on any
// mask, costs about twice the latency on the step's critical path).
//
// The neighbours of square s on a board of c columns are s+o for the knight
// offsets o = dr*c+dc. Rotating the set left by 2c+1-s puts them at
// positions o+2c+1 in [0, 4c+2], in the same (ascending) order when
// 4c+2 < 64; so a set of neighbours of s becomes a subset of at most eight
// positions fixed by c, whatever s is. A multiplication by a magic number
// maps each such subset to its own top byte (a perfect hash, the trick of
// magic bitboards), and a table indexed by that byte and j holds the
// offset of the j-th square.
type knightSelect struct {
	magic uint64
	base  int          // 2c+1
	off   [256][8]int8 // off[hash][j]: the j-th square's offset from s
	count [256]uint8   // count[hash]: the number of squares in the set
}

// knightMagics[c] is a magic number for boards of c columns (2..15) whose
// top byte, after multiplying any subset of the rotated neighbour
// positions, differs between subsets. They were found by trying random
// numbers (each the AND of three, so sparse) from a fixed PCG stream
// until one was a perfect hash; init checks it anyway.
var knightMagics = [16]uint64{
	2:  0x210a020040000008,
	3:  0x501a100800000800,
	4:  0x488020012183c008,
	5:  0x2080050000002102,
	6:  0x2040025000070800,
	7:  0x2201020100000000,
	8:  0x200a000802000000,
	9:  0x020402a442000000,
	10: 0x2000800420020404,
	11: 0x9002000012049012,
	12: 0x1901008224411002,
	13: 0x2000400000140c20,
	14: 0x0128300000240010,
	15: 0x820310142001104e,
}

// init makes ks the select of boards of c columns, reporting false where
// there is none (c < 2 or c > 15).
func (ks *knightSelect) init(c int) bool {
	if c < 2 || c >= len(knightMagics) {
		return false
	}
	*ks = knightSelect{magic: knightMagics[c], base: 2*c + 1}
	var pos []int // the positions a rotated set of neighbours can occupy, ascending
	for p := 0; p < 64; p++ {
		for _, m := range CanonicalMoves {
			if m.DC < c && -m.DC < c && m.DR*c+m.DC+ks.base == p {
				pos = append(pos, p)
				break
			}
		}
	}
	var seen [256]bool
	for s := range 1 << len(pos) {
		var y uint64
		for i, p := range pos {
			if s>>i&1 != 0 {
				y |= 1 << p
			}
		}
		h := y * ks.magic >> 56
		if seen[h] {
			panic("sim: knightMagics: not a perfect hash")
		}
		seen[h] = true
		ks.count[h] = uint8(bits.OnesCount64(y))
		for j, t := 0, y; t != 0; j, t = j+1, t&(t-1) {
			ks.off[h][j] = int8(bits.TrailingZeros64(t) - ks.base)
		}
	}
	return true
}
