package rare

import (
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// TestStreamCheckValues pins the splitting streams' derivation that
// docs/design.md ("Rare events") documents: changing it changes every
// splitting estimate.
func TestStreamCheckValues(t *testing.T) {
	b := sim.MustBoard(8, 8)
	k := sim.NewKey(1, b, mustRule(t, "warnsdorff/random"), 27)
	if k != 0x7fd8efa174798fc2 {
		t.Fatalf("plain key %#x, design.md's check value 0x7fd8efa174798fc2", uint64(k))
	}
	if got := subKey(k, "splitting", 0); got != 0xe0a4791e2473b94e {
		t.Errorf("replicate 0 key %#x, want 0xe0a4791e2473b94e", uint64(got))
	} else if hi, lo := got.Seeds(1<<32 | 5); hi != 0x5942a78f60b677ab || lo != 0x5fed3ed1cc824370 {
		t.Errorf("replicate 0, stage 1, segment 5: seeds %#x %#x", hi, lo)
	}
	if got := subKey(k, "splitting-pilot", 0); got != 0x2c1155ff8f397f23 {
		t.Errorf("pilot stage 0 key %#x, want 0x2c1155ff8f397f23", uint64(got))
	}
}
