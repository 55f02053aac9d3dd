package count

import (
	"errors"
	"math/bits"
	"sync"
	"sync/atomic"
)

// shardBits sets the number of shards a layer's states are split into by
// hash. While a step writes a layer, each shard is a list of the
// successors bound for it, behind its own lock; workers batch them per
// shard, so with a few workers a lock is rarely contended. Once the step
// is done each shard's list is merged into exactly its states (pack), a
// shard at a time, so the memory in flight is a small part of a layer.
const (
	shardBits = 8
	shards    = 1 << shardBits
)

// entry is one state and its count on its way to a layer. key holds the
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
	// pool holds list pieces of maxPiece slots that a step has merged,
	// for the lists of the steps after it: a new piece would be zeroed by
	// the operating system, a tenth of a sweep's time at 7x7, where a
	// list only ever reads what it wrote. Pooled pieces stay in used,
	// since the process holds them; pooled says how much that is, and a
	// take that would pass the limit frees them first.
	poolMu sync.Mutex
	pool   [][]slot
	pooled atomic.Int64
}

func (b *budget) take(n int64) bool {
	u := b.used.Add(n)
	if b.limit > 0 && u > b.limit && b.pooled.Load() > 0 {
		b.drain()
		u = b.used.Load()
	}
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

// pieceBytes is the memory of a pooled piece.
const pieceBytes = maxPiece * 16

// get takes a piece from the pool, or nil.
func (b *budget) get() []slot {
	b.poolMu.Lock()
	defer b.poolMu.Unlock()
	k := len(b.pool)
	if k == 0 {
		return nil
	}
	e := b.pool[k-1]
	b.pool = b.pool[:k-1]
	b.pooled.Add(-pieceBytes)
	return e
}

// put pools a narrow piece of maxPiece slots.
func (b *budget) put(e []slot) {
	b.poolMu.Lock()
	defer b.poolMu.Unlock()
	b.pool = append(b.pool, e[:0])
	b.pooled.Add(pieceBytes)
}

// drain frees the pooled pieces.
func (b *budget) drain() {
	b.poolMu.Lock()
	defer b.poolMu.Unlock()
	for _, e := range b.pool {
		free(e[:cap(e)])
		b.used.Add(-pieceBytes)
	}
	b.pooled.Add(-int64(len(b.pool)) * pieceBytes)
	b.pool = nil
}

// shard is one part of a layer: while the layer fills, the list of
// successors bound for it, in pieces (duplicates and all); once packed,
// exactly its n states in e, with no empty slots.
type shard struct {
	mu     sync.Mutex
	e      []slot
	hi     []uint64 // wide layers: the counts' high 64 bits
	n      int
	chunks []piece
	listed int // the successors in pieces
}

// piece is a piece of a shard's list: its slots (and high words) so far in
// len(e), its room in cap(e).
type piece struct {
	e  []slot
	hi []uint64
}

// layer is the set of states after one step, with their counts.
type layer struct {
	s         [shards]shard
	listBytes atomic.Int64 // the memory of the shards' lists
	bud       *budget
	wide      bool
	file      *layerFile // the packed layer, when spilled to disk (see spill.go)
}

func newLayer(bud *budget, wide bool) *layer { return &layer{bud: bud, wide: wide} }

// slotBytes is the memory of one table slot.
func (l *layer) slotBytes() int64 {
	if l.wide {
		return 24
	}
	return 16
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

// addBatch lists a batch of entries bound for shard i (the caller holds
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
	_, err := l.addSlots(i, slots, hi)
	return err
}

// Pieces of a list start small, for the many small layers, and double up
// to a huge page (see osAlloc).
const (
	minPiece = 1 << 6
	maxPiece = 1 << 17
)

// addSlots lists a batch of successors bound for shard i (the caller holds
// no lock): their keys and the low words of their counts, with the high
// words in hi in a wide layer (nil in a narrow one). It returns how many
// it listed: all of them, or fewer with ErrBudget. Listing is a copy to
// the end of the shard's last piece; equal states are merged once the
// step is done (pack). It replaced inserting each successor into a hash
// table of the shard's states at once: those tables were far larger than
// the caches at 7x7, so every insert waited on memory, a third of a
// sweep's time, where a list is written in order and each shard is merged
// in pieces that fit a core's cache.
func (l *layer) addSlots(i int, batch []slot, hi []uint64) (int, error) {
	s := &l.s[i]
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for n < len(batch) {
		if len(s.chunks) == 0 || len(s.chunks[len(s.chunks)-1].e) == cap(s.chunks[len(s.chunks)-1].e) {
			size := minPiece
			if k := len(s.chunks); k > 0 {
				size = min(maxPiece, 2*cap(s.chunks[k-1].e))
			}
			c, err := l.newPiece(size)
			if err != nil {
				return n, err
			}
			s.chunks = append(s.chunks, c)
		}
		c := &s.chunks[len(s.chunks)-1]
		k := min(len(batch)-n, cap(c.e)-len(c.e))
		c.e = append(c.e, batch[n:n+k]...)
		if l.wide {
			c.hi = append(c.hi, hi[n:n+k]...)
		}
		n += k
		s.listed += k
	}
	return n, nil
}

// newPiece allocates an empty piece with room for size successors.
func (l *layer) newPiece(size int) (piece, error) {
	if size == maxPiece && !l.wide {
		if e := l.bud.get(); e != nil {
			l.listBytes.Add(pieceBytes)
			return piece{e: e}, nil
		}
	}
	if !l.bud.take(int64(size) * l.slotBytes()) {
		return piece{}, ErrBudget
	}
	e, hi, err := l.table(size)
	if err != nil {
		l.bud.give(int64(size) * l.slotBytes())
		return piece{}, err
	}
	l.listBytes.Add(int64(size) * l.slotBytes())
	return piece{e[:0], hi[:0]}, nil
}

// dropPieces frees shard s's list.
func (l *layer) dropPieces(s *shard) {
	for _, c := range s.chunks {
		l.listBytes.Add(-int64(cap(c.e)) * l.slotBytes())
		if cap(c.e) == maxPiece && !l.wide {
			l.bud.put(c.e)
			continue
		}
		l.bud.give(int64(cap(c.e)) * l.slotBytes())
		free(c.e[:cap(c.e)])
		if c.hi != nil {
			free(c.hi[:cap(c.hi)])
		}
	}
	s.chunks, s.listed = nil, 0
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

// drop frees the shard's states and list and hands their memory back to
// the budget.
func (l *layer) drop(s *shard) {
	l.bud.give(int64(len(s.e)) * l.slotBytes())
	free(s.e)
	free(s.hi)
	s.e, s.hi = nil, nil
	l.dropPieces(s)
}

// packer is one worker's room for merging lists (pack): the list of a
// shard sorted into buckets, and a hash table for one bucket.
type packer struct {
	l      *layer
	tmp    []slot
	tmpHi  []uint64
	held   int64 // the budget tmp takes
	table  []slot
	tabHi  []uint64
	emit   []slot
	emitHi []uint64
	counts []int
}

// Merging a shard's list: the list is sorted by hash into buckets of about
// bucketLen successors, and each bucket merged in a hash table of at least
// twice its length (a power of two): 256 KiB at 16 bytes a slot, within
// the second-level cache of every core the tool is measured on (512 KiB
// on Zen 3 and 4, 1 MiB on Zen 5), so the inserts do not wait on memory.
const bucketLen = 1 << 13

// pack merges shard i's list, and the states it packed before (see
// step), into exactly its states, equal states' counts added: the layer
// is read, not searched, in the next step, at 16 bytes a state. The list
// is sorted by hash into buckets, the states of each bucket written over
// the sorted list, which the bucket has consumed, and copied to a table
// of their size at the end.
func (pk *packer) pack(i int) error {
	l := pk.l
	s := &l.s[i]
	if s.listed == 0 {
		return nil
	}
	m := s.listed + s.n
	bBits := 0
	for m>>bBits > bucketLen {
		bBits++
	}
	if err := pk.room(m); err != nil {
		return err
	}
	nb := 1 << bBits
	if cap(pk.counts) < 2*nb+1 {
		pk.counts = make([]int, 2*nb+1)
	}
	counts, fill := pk.counts[:nb+1], pk.counts[nb+1:2*nb+1]
	clear(counts)
	bucket := func(k uint64) int {
		if bBits == 0 {
			return 0
		}
		return int(hash(k) << shardBits >> (64 - bBits))
	}
	// The packed states and the list, as pieces of one list.
	parts := append([]piece{{s.e[:s.n], s.hi[:min(len(s.hi), s.n)]}}, s.chunks...)
	for _, c := range parts {
		for _, x := range c.e {
			counts[bucket(x.key)+1]++
		}
	}
	for b := 1; b < len(counts); b++ {
		counts[b] += counts[b-1]
	}
	copy(fill, counts[:nb])
	for _, c := range parts {
		for k, x := range c.e {
			b := bucket(x.key)
			pk.tmp[fill[b]] = x
			if l.wide {
				pk.tmpHi[fill[b]] = c.hi[k]
			}
			fill[b]++
		}
	}
	l.drop(s) // the packed states and the list, now in tmp
	out := 0
	for b := range nb {
		n, err := pk.merge(counts[b], counts[b+1], out, bBits)
		if err != nil {
			s.n = 0
			return err
		}
		out += n
	}
	s.n = 0
	if !l.bud.take(int64(out) * l.slotBytes()) {
		return ErrBudget
	}
	e, hi, err := l.table(out)
	if err != nil {
		l.bud.give(int64(out) * l.slotBytes())
		return err
	}
	copy(e, pk.tmp[:out])
	if l.wide {
		copy(hi, pk.tmpHi[:out])
	}
	s.e, s.hi, s.n = e, hi, out
	return nil
}

// merge merges the successors tmp[from:to] of one bucket in the table and
// writes the states to tmp[out:], returning how many (out ≤ from: the
// buckets before wrote fewer states than they held successors).
func (pk *packer) merge(from, to, out, bBits int) (int, error) {
	l := pk.l
	tBits := 6
	for 1<<tBits < 2*(to-from) {
		tBits++
	}
	size := 1 << tBits
	if cap(pk.table) < size {
		pk.table = make([]slot, size)
		if l.wide {
			pk.tabHi = make([]uint64, size)
		}
	}
	t := pk.table[:size]
	clear(t)
	mask := size - 1
	shift := shardBits + bBits
	for k := from; k < to; k++ {
		x := pk.tmp[k]
		j := int(hash(x.key) << shift >> (64 - tBits))
		for {
			e := &t[j]
			if e.key == x.key {
				lo, carry := bits.Add64(e.lo, x.lo, 0)
				e.lo = lo
				if l.wide {
					pk.tabHi[j] += pk.tmpHi[k] + carry
				} else if carry != 0 {
					return 0, errNarrow
				}
				break
			}
			if e.key == 0 {
				*e = x
				if l.wide {
					pk.tabHi[j] = pk.tmpHi[k]
				}
				break
			}
			j = (j + 1) & mask
		}
	}
	// The states, in table order. The slots are a quarter full or less, so
	// whether a slot holds a state is a coin flip: the loop stores every
	// slot and counts those with a key, with no branch to mispredict,
	// into emit, which holds a table's length; then they go to tmp.
	n := 0
	if cap(pk.emit) < size {
		pk.emit = make([]slot, size)
		if l.wide {
			pk.emitHi = make([]uint64, size)
		}
	}
	emit := pk.emit[:size]
	for j, x := range t {
		emit[n] = x
		if l.wide {
			pk.emitHi[n] = pk.tabHi[j]
		}
		n += int((x.key | -x.key) >> 63) // 1 for a key, 0 for an empty slot
	}
	copy(pk.tmp[out:], emit[:n])
	if l.wide {
		copy(pk.tmpHi[out:], pk.emitHi[:n])
	}
	return n, nil
}

// room makes tmp hold m successors, within the budget.
func (pk *packer) room(m int) error {
	if len(pk.tmp) >= m {
		return nil
	}
	pk.release()
	size := max(m, minPiece)
	need := int64(size) * pk.l.slotBytes()
	if !pk.l.bud.take(need) {
		return ErrBudget
	}
	e, hi, err := pk.l.table(size)
	if err != nil {
		pk.l.bud.give(need)
		return err
	}
	pk.tmp, pk.tmpHi, pk.held = e, hi, need
	return nil
}

// release frees the worker's room.
func (pk *packer) release() {
	if pk.tmp == nil {
		return
	}
	free(pk.tmp)
	free(pk.tmpHi)
	pk.l.bud.give(pk.held)
	pk.tmp, pk.tmpHi, pk.held = nil, nil, 0
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
