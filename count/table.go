package count

import (
	"errors"
	"math/bits"
	"sync"
	"sync/atomic"
)

// shardBits sets the number of shards a layer's states are split into by
// hash. Each shard is an open-addressing table behind its own lock; workers
// batch their inserts per shard, so with a few workers a lock is rarely
// contended, and a shard that grows rehashes only its own states.
const (
	shardBits = 6
	shards    = 1 << shardBits
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
// a layer starts narrow, at 16 bytes a state instead of 24, and a count
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
	return true
}

func (b *budget) give(n int64) { b.used.Add(-n) }

type shard struct {
	mu sync.Mutex
	e  []slot
	hi []uint64 // wide layers: the counts' high 64 bits
	n  int
}

// layer is the set of states after one step, with their counts.
type layer struct {
	s    [shards]shard
	bud  *budget
	wide bool
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

// hash is the SplitMix64 finaliser: its top bits pick the shard, its low
// bits the slot.
func hash(z uint64) uint64 {
	z ^= z >> 30
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	z ^= z >> 31
	return z
}

// addBatch merges a batch of states bound for shard i (the caller holds
// no lock).
func (l *layer) addBatch(i int, batch []entry) error {
	s := &l.s[i]
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range batch {
		if (s.n+1)*4 > len(s.e)*3 {
			if err := l.grow(s); err != nil {
				return err
			}
		}
		if x.n.Hi != 0 && !l.wide {
			return errNarrow
		}
		mask := uint64(len(s.e) - 1)
		for j := hash(x.key) & mask; ; j = (j + 1) & mask {
			e := &s.e[j]
			if e.key == x.key {
				lo, carry := bits.Add64(e.lo, x.n.Lo, 0)
				e.lo = lo
				if l.wide {
					s.hi[j] += x.n.Hi + carry
				} else if carry != 0 {
					return errNarrow
				}
				break
			}
			if e.key == 0 {
				*e = slot{x.key, x.n.Lo}
				if l.wide {
					s.hi[j] = x.n.Hi
				}
				s.n++
				break
			}
		}
	}
	return nil
}

// grow doubles the shard's table, within the budget.
func (l *layer) grow(s *shard) error {
	size := max(1024, 2*len(s.e))
	if !l.bud.take(int64(size) * l.slotBytes()) {
		return ErrBudget
	}
	old, oldHi := s.e, s.hi
	s.e = make([]slot, size)
	if l.wide {
		s.hi = make([]uint64, size)
	}
	mask := uint64(size - 1)
	for k, x := range old {
		if x.key == 0 {
			continue
		}
		j := hash(x.key) & mask
		for s.e[j].key != 0 {
			j = (j + 1) & mask
		}
		s.e[j] = x
		if l.wide {
			s.hi[j] = oldHi[k]
		}
	}
	l.bud.give(int64(len(old)) * l.slotBytes())
	return nil
}

// presize sizes the shards for about n states in all, so that a layer
// that grows as the last one did fills its tables without rehashing.
func (l *layer) presize(n int) error {
	per := n / shards * 3 / 2 // at most 2/3 full
	size := 1024
	for size < per {
		size *= 2
	}
	if size == 1024 {
		return nil
	}
	if !l.bud.take(int64(size) * l.slotBytes() * shards) {
		return ErrBudget
	}
	for i := range l.s {
		l.s[i].e = make([]slot, size)
		if l.wide {
			l.s[i].hi = make([]uint64, size)
		}
	}
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

// release hands the layer's memory back to the budget.
func (l *layer) release() {
	for i := range l.s {
		l.bud.give(int64(len(l.s[i].e)) * l.slotBytes())
		l.s[i].e, l.s[i].hi = nil, nil
		l.s[i].n = 0
	}
}
