package count

import (
	"errors"
	"math/bits"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// shardBits sets the number of shards a layer's states are split into by
// hash. Each shard is an open-addressing table behind its own lock; workers
// batch their inserts per shard, so with a few workers a lock is rarely
// contended, and a shard that grows, is packed or is released moves only
// its own states: the memory in flight is a small part of a layer.
const (
	shardBits = 8
	shards    = 1 << shardBits
)

// A table grows by half when it is three quarters full: it is then between
// half and three quarters full, 21 to 32 bytes a state with 16-byte slots.
const (
	minTable = 256
	maxLoadN = 3 // load at most maxLoadN/maxLoadD
	maxLoadD = 4
)

// entry is one state and its count on its way to a table. key holds the
// packed state plus one, so that zero marks an empty slot (packed states
// are below 2^64-1).
type entry struct {
	key uint64
	n   Count
}

// slot is a table's entry: the count's low 64 bits, with the high ones in
// a parallel array only in a wide layer. Counts of the states of the
// boards in reach stay far below 2^64 (8x8 has 1.3·10^13 closed tours), so
// a layer starts narrow, at 16 bytes a slot instead of 24, and a count
// that would pass 2^64 stops the sweep with errNarrow, to be run wide.
type slot struct{ key, lo uint64 }

// ErrBudget reports that the states outgrew the memory budget.
var ErrBudget = errors.New("over the memory budget")

// errNarrow reports a count that does not fit a narrow layer.
var errNarrow = errors.New("a state's count passed 2^64")

// budget is the memory the tables of a count may take, shared by all.
type budget struct {
	limit int64 // bytes; 0 means no limit
	used  atomic.Int64
	peak  atomic.Int64
	// stepPeak is the most used since the current step began.
	stepPeak atomic.Int64
	// peakStates is the most states a layer of any sweep held.
	peakStates atomic.Int64
}

func (b *budget) take(n int64) bool {
	u := b.used.Add(n)
	if b.limit > 0 && u > b.limit {
		b.used.Add(-n)
		return false
	}
	for p := b.peak.Load(); u > p && !b.peak.CompareAndSwap(p, u); p = b.peak.Load() {
	}
	for p := b.stepPeak.Load(); u > p && !b.stepPeak.CompareAndSwap(p, u); p = b.stepPeak.Load() {
	}
	return true
}

func (b *budget) give(n int64) { b.used.Add(-n) }

// shard is one part of a layer: while the layer fills, an open-addressing
// table; once packed, exactly its n states in e, with no empty slots.
type shard struct {
	mu sync.Mutex
	e  []slot
	hi []uint64 // wide layers: the counts' high 64 bits
	n  int
	// touched sums the keys addBatch reads ahead, so that the compiler
	// keeps the reads.
	touched uint64
}

// layer is the set of states after one step, with their counts.
type layer struct {
	s    [shards]shard
	bud  *budget
	wide bool
	file *layerFile // the packed layer, when spilled to disk (see spill.go)
}

func newLayer(bud *budget, wide bool) *layer { return &layer{bud: bud, wide: wide} }

// slotBytes is the memory of one table slot.
func (l *layer) slotBytes() int64 {
	if l.wide {
		return 24
	}
	return 16
}

// count returns the count in slot j of shard i.
func (l *layer) count(i, j int) Count {
	c := Count{Lo: l.s[i].e[j].lo}
	if l.wide {
		c.Hi = l.s[i].hi[j]
	}
	return c
}

// hash is the SplitMix64 finaliser: its top bits pick the shard, the
// bits below them the slot.
func hash(z uint64) uint64 {
	z ^= z >> 30
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	z ^= z >> 31
	return z
}

// home is the first slot a key's hash h probes in a table of size slots:
// the hash's bits below the shard's, scaled to the size (tables grow by
// half, so sizes are not powers of two).
func home(h uint64, size int) int {
	j, _ := bits.Mul64(h<<shardBits, uint64(size))
	return int(j)
}

// addBatch merges a batch of entries bound for shard i (the caller holds
// no lock), as addSlots does.
func (l *layer) addBatch(i int, batch []entry) error {
	slots := make([]slot, len(batch))
	var hi []uint64
	if l.wide {
		hi = make([]uint64, len(batch))
	}
	for k, x := range batch {
		if x.n.Hi != 0 && !l.wide {
			return errNarrow
		}
		slots[k] = slot{x.key, x.n.Lo}
		if l.wide {
			hi[k] = x.n.Hi
		}
	}
	return l.addSlots(i, slots, hi)
}

// addSlots merges a batch of states bound for shard i (the caller holds
// no lock): their keys and the low words of their counts, with the high
// words in hi in a wide layer (nil in a narrow one). The batch is kept at
// 16 bytes a state, as the table is: the workers' batches for all the
// shards are read back from the cache, and at 24 bytes they did not fit
// a core's second-level cache. The table is grown first so that the
// whole batch fits, and the batch's slots are then read once ahead of the
// inserts: the reads are independent and their cache misses overlap,
// where an insert's miss would stall the next.
func (l *layer) addSlots(i int, batch []slot, hi []uint64) error {
	s := &l.s[i]
	s.mu.Lock()
	defer s.mu.Unlock()
	for (s.n+len(batch))*maxLoadD > len(s.e)*maxLoadN {
		if err := l.grow(s, max(minTable, len(s.e)*3/2)); err != nil {
			return err
		}
	}
	var homes [batchLen]int32
	size := len(s.e)
	var touch uint64
	for k, x := range batch {
		j := home(hash(x.key), size)
		homes[k] = int32(j)
		touch += s.e[j].key
	}
	s.touched += touch
	for k, x := range batch {
		for j := int(homes[k]); ; {
			e := &s.e[j]
			if e.key == x.key {
				lo, carry := bits.Add64(e.lo, x.lo, 0)
				e.lo = lo
				if l.wide {
					s.hi[j] += hi[k] + carry
				} else if carry != 0 {
					return errNarrow
				}
				break
			}
			if e.key == 0 {
				*e = x
				if l.wide {
					s.hi[j] = hi[k]
				}
				s.n++
				break
			}
			if j++; j == size {
				j = 0
			}
		}
	}
	return nil
}

// grow rehashes the shard's table into one of size slots, within the
// budget.
func (l *layer) grow(s *shard, size int) error {
	if !l.bud.take(int64(size) * l.slotBytes()) {
		return ErrBudget
	}
	e, hi, err := l.table(size)
	if err != nil {
		l.bud.give(int64(size) * l.slotBytes())
		return err
	}
	for k, x := range s.e {
		if x.key == 0 {
			continue
		}
		j := home(hash(x.key), size)
		for e[j].key != 0 {
			if j++; j == size {
				j = 0
			}
		}
		e[j] = x
		if l.wide {
			hi[j] = s.hi[k]
		}
	}
	l.drop(s)
	s.e, s.hi = e, hi
	return nil
}

// table allocates the slots (and high words) of a table.
func (l *layer) table(size int) ([]slot, []uint64, error) {
	e, err := alloc[slot](size)
	if err != nil || !l.wide {
		return e, nil, err
	}
	hi, err := alloc[uint64](size)
	if err != nil {
		free(e)
	}
	return e, hi, err
}

// drop frees the shard's table and hands its memory back to the budget.
func (l *layer) drop(s *shard) {
	l.bud.give(int64(len(s.e)) * l.slotBytes())
	free(s.e)
	free(s.hi)
	s.e, s.hi = nil, nil
}

// presize sizes shards lo, …, hi-1 for about n states in the layer, so
// that a layer that grows as the last one did fills its tables without
// rehashing. The tables are made by that many workers at once: the
// operating system zeroes their pages as they are made (see osAlloc), a
// tenth of a sweep's work, which one worker alone would do while the
// others wait.
func (l *layer) presize(n, lo, hi, workers int) error {
	size := n/shards*maxLoadD/maxLoadN + 1
	if size <= minTable {
		return nil
	}
	if !l.bud.take(int64(size) * l.slotBytes() * int64(hi-lo)) {
		return ErrBudget
	}
	var next atomic.Int64
	next.Store(int64(lo))
	var eg errgroup.Group
	for range max(1, workers) {
		eg.Go(func() error {
			for i := int(next.Add(1) - 1); i < hi; i = int(next.Add(1) - 1) {
				e, hi2, err := l.table(size)
				if err != nil {
					return err
				}
				l.s[i].e, l.s[i].hi = e, hi2
			}
			return nil
		})
	}
	err := eg.Wait()
	if err != nil {
		for i := lo; i < hi; i++ {
			if l.s[i].e == nil { // not made: its share goes back
				l.bud.give(int64(size) * l.slotBytes())
			}
		}
	}
	return err
}

// pack turns shard i's table into a list of exactly its states: the
// layer is read, not searched, in the next step, and a list takes 16
// bytes a state where the table took up to 32. The states move to the
// front of the table and its tail goes back to the operating system.
func (l *layer) pack(i int) error {
	s := &l.s[i]
	if s.n == len(s.e) {
		return nil
	}
	k := 0
	for j, x := range s.e {
		if x.key != 0 {
			s.e[k] = x
			if l.wide {
				s.hi[k] = s.hi[j]
			}
			k++
		}
	}
	held := int64(len(s.e)) * l.slotBytes()
	s.e = shrink(s.e, k)
	if l.wide {
		s.hi = shrink(s.hi, k)
	}
	l.bud.give(held - int64(len(s.e))*l.slotBytes())
	return nil
}

// states is the number of states in the layer.
func (l *layer) states() int {
	n := 0
	for i := range l.s {
		n += l.s[i].n
	}
	return n
}

// releaseShard frees shard i once its states are all read.
func (l *layer) releaseShard(i int) {
	l.drop(&l.s[i])
	l.s[i].n = 0
}

// release hands the layer's memory back to the budget, and its file's
// space to the disk.
func (l *layer) release() {
	for i := range l.s {
		l.releaseShard(i)
	}
	if l.file != nil {
		l.file.close()
		l.file = nil
	}
}
