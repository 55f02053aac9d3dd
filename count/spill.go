package count

import (
	"context"
	"fmt"
	"os"
	"unsafe"

	"github.com/knightwalk/knightwalk/internal/safeio"
)

// Spilling layers to disk (Options.Spill).
//
// In memory, a step holds the unread part of the layer it reads (16 bytes
// a state) and the lists of the layer it writes (16 bytes a successor):
// 8x8's closed tours, at 741 million states, would need some 30 GiB.
// With a spill directory, every packed layer is written to a file there
// and read back in chunks, so no layer stays in memory; and the layer being
// written is built in passes over the one being read, each pass keeping
// only the successors that fall in its range of shards. The memory of a
// step is then one pass's lists and packed shards: the budget picks the
// number of passes, and a pass that outgrows it is split in two and run
// again. Each pass expands every state read, so passes cost time (the
// expansions, not the merges, are repeated): they are as few as the
// budget allows.

// layerFile is a packed layer on disk: the shards one after another, each
// its slots and, in a wide layer, then its high words. The file has no
// name in its directory (safeio.ScratchFile), so that it disappears with
// the process however that ends, and the space comes back when it is
// closed.
type layerFile struct {
	f    *os.File
	path string // where the name could not be removed at once (not POSIX)
	off  [shards]int64
	size int64
}

func newLayerFile(dir string) (*layerFile, error) {
	f, path, err := safeio.ScratchFile(dir, "knightwalk-count-*.layer")
	if err != nil {
		return nil, fmt.Errorf("spill a layer of states: %w", err)
	}
	return &layerFile{f: f, path: path}, nil
}

func (lf *layerFile) close() {
	lf.f.Close()
	if lf.path != "" {
		os.Remove(lf.path)
	}
}

// rawBytes views a table's elements as bytes, for the file.
func rawBytes[T slot | uint64](x []T) []byte {
	if len(x) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), len(x)*int(unsafe.Sizeof(x[0])))
}

// writeShards appends the packed shards lo, …, hi-1 to the layer's file
// and frees their tables.
func (l *layer) writeShards(lo, hi int) error {
	lf := l.file
	for i := lo; i < hi; i++ {
		s := &l.s[i]
		lf.off[i] = lf.size
		for _, b := range [][]byte{rawBytes(s.e[:s.n]), rawBytes(s.hi[:min(len(s.hi), s.n)])} {
			if _, err := lf.f.Write(b); err != nil {
				return fmt.Errorf("spill a layer of states: %w", err)
			}
			lf.size += int64(len(b))
		}
		n := s.n
		l.drop(s)
		s.n = n
	}
	return nil
}

// readChunk reads the states from, …, to-1 of shard sh of a layer on disk
// into e (and hi in a wide layer).
func (l *layer) readChunk(sh, from, to int, e []slot, hi []uint64) error {
	lf := l.file
	at := lf.off[sh] + int64(from)*16
	if _, err := lf.f.ReadAt(rawBytes(e[:to-from]), at); err != nil {
		return fmt.Errorf("read back a spilled layer of states: %w", err)
	}
	if l.wide {
		at = lf.off[sh] + int64(l.s[sh].n)*16 + int64(from)*8
		if _, err := lf.f.ReadAt(rawBytes(hi[:to-from]), at); err != nil {
			return fmt.Errorf("read back a spilled layer of states: %w", err)
		}
	}
	return nil
}

// shardRange is the shards lo, …, hi-1 of a layer: what one pass keeps.
type shardRange struct{ lo, hi int }

// passes is how many passes a step that writes about predicted states
// takes within the budget: its lists and packed states at about 32 bytes
// a state, in what the budget has left, with a quarter kept in hand.
func (w *sweep) passes(predicted int) int {
	if w.bud.limit == 0 {
		return 1
	}
	need := int64(predicted) * 2 * w.slotBytes()
	room := (w.bud.limit - w.bud.used.Load()) * 3 / 4
	if room <= 0 {
		return shards
	}
	return int(min(shards, max(1, (need+room-1)/room)))
}

func (w *sweep) slotBytes() int64 {
	if w.wide {
		return 24
	}
	return 16
}

// spillStep is a step that writes next to disk, in passes over cur (see
// above). A pass that outgrows the budget is dropped and its range run
// again as two; a single shard that does not fit is the budget's error.
func (w *sweep) spillStep(ctx context.Context, v int, cur, next *layer, predicted int) (Count, error) {
	lf, err := newLayerFile(w.spillDir)
	if err != nil {
		return Count{}, err
	}
	next.file = lf
	p := w.passes(predicted)
	var queue []shardRange
	for k := range p {
		queue = append(queue, shardRange{k * shards / p, (k + 1) * shards / p})
	}
	var total Count
	counted := false
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		done, err := w.step(ctx, v, cur, next, false, r)
		if err == nil {
			err = w.pack(next, r)
		}
		if err == ErrBudget && r.hi-r.lo > 1 {
			for i := r.lo; i < r.hi; i++ {
				next.releaseShard(i)
			}
			mid := (r.lo + r.hi) / 2
			queue = append([]shardRange{{r.lo, mid}, {mid, r.hi}}, queue...)
			p++
			continue
		}
		if err == nil {
			err = next.writeShards(r.lo, r.hi)
		}
		if err != nil {
			return Count{}, err
		}
		if !counted { // every pass expands every state: count its completions once
			total, counted = done, true
		}
	}
	w.passesRun = p
	return total, nil
}
