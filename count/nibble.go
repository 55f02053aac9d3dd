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
	key = nibblesOf(binary.LittleEndian.Uint64(a[0:8])) | nibblesOf(binary.LittleEndian.Uint64(a[8:16]))<<32
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
	// that are none of spent, fresh and term.
	labels := ^(zeroNibbles(key) | fr | tm) & s.slotOnes
	var rename [16]uint8
	next := uint8(firstPair)
	for labels != 0 {
		p := bits.TrailingZeros64(labels)
		labels &= labels - 1
		c := uint8(key>>p) & 15
		r := rename[c]
		if r == 0 {
			r = next
			rename[c] = r
			next++
		}
		key ^= uint64(c^r) << p
	}
	return key, true
}
