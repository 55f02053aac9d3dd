package count

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// TestSpillAgrees checks sweeps with their layers on disk, in several
// passes a step, against the same sweeps in memory: the same count from
// every square and the same states after every step. The budget is a third
// of what the in-memory sweep took, so steps run in passes, and some
// passes outgrow it and are split.
func TestSpillAgrees(t *testing.T) {
	for _, c := range []struct {
		board string
		opt   Options
	}{
		{"6x6", Options{Closed: true}},
		{"5x6", Options{}},
		{"5x6", Options{PairedEnds: true}},
		{"5x6", Options{wide: true}},
		{"4x7", Options{Closed: true, wide: true}},
	} {
		b, _ := sim.ParseBoard(c.board)
		c.opt.Starts = allSquares(b)
		mem, err := Tours(context.Background(), b, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		opt := c.opt
		opt.Spill, opt.MaxMemory = dir, mem.PeakBytes/3
		disk, err := Tours(context.Background(), b, opt)
		if err != nil {
			t.Fatalf("%s %+v spilled: %v", c.board, c.opt, err)
		}
		sameCounts(t, c.board+" spilled", b, disk, mem)
		if disk.PeakBytes > opt.MaxMemory {
			t.Errorf("%s: spilled tables peaked at %d bytes, budget %d", c.board, disk.PeakBytes, opt.MaxMemory)
		}
		passes := 0
		for _, l := range disk.Layers {
			if l.States > 1 && l.DiskBytes != int64(l.States)*opt.slotBytes() {
				t.Errorf("%s step %d: %d states in %d bytes on disk", c.board, l.Step, l.States, l.DiskBytes)
			}
			passes = max(passes, l.Passes)
		}
		if passes < 2 {
			t.Errorf("%s: no step took more than one pass in a third of the memory", c.board)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("%s: %d files left in the spill directory", c.board, len(left))
		}
	}
}

func (o Options) slotBytes() int64 {
	if o.wide {
		return 24
	}
	return 16
}

// TestSpillBudget checks what spilling cannot fix: a budget below what
// one shard of a layer needs (1 KiB: a list's first piece, 64 successors)
// is still the budget's error, and a spill directory that does not exist
// is named.
func TestSpillBudget(t *testing.T) {
	b := sim.MustBoard(6, 6)
	_, err := Tours(context.Background(), b, Options{Closed: true, Spill: t.TempDir(), MaxMemory: 1 << 10})
	if !errors.Is(err, ErrBudget) {
		t.Errorf("6x6 closed spilled in 1 KiB: %v, want the budget error", err)
	}
	_, err = Tours(context.Background(), b, Options{Closed: true, Spill: "/no/such/dir"})
	if err == nil || !strings.Contains(err.Error(), "/no/such/dir") {
		t.Errorf("missing spill directory: %v", err)
	}
}
