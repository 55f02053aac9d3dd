package sim

import (
	"fmt"
	"sync/atomic"
	"time"
)

// CallWatch notices a call into a rule of your own that does not return:
// a rule that sleeps, blocks or loops would otherwise hold its worker,
// and the command waiting for that worker, forever. A command polls Stuck
// (every 100 ms, say) while it runs; the guard marks each call in progress
// at the cost of two atomic adds and a store, or within a walk of the
// policy kernel of one release store (two atomic adds a walk).
type CallWatch struct {
	seen map[*callWatch]seenCall
}

type seenCall struct {
	seq   uint64
	at    uint64
	since time.Time
	polls int
}

// stuckPolls is the fewest polls that must see a call before it counts as
// stuck, whatever the time: a process stopped (^Z) and continued finds
// every call in progress long, and must first see it go on.
const stuckPolls = 5

// NewCallWatch returns a watch that has seen nothing yet.
func NewCallWatch() *CallWatch { return &CallWatch{seen: map[*callWatch]seenCall{}} }

// Stuck looks at the calls into rules of your own in progress and returns
// a *RuleError describing one that this watch has seen in progress, the
// same call, for at least d and in at least five polls (nil if there is
// none). A call is timed from the first Stuck that saw it, so the time is
// never over-reported.
func (cw *CallWatch) Stuck(d time.Duration) error {
	now := time.Now()
	var worst *callWatch
	var longest time.Duration
	watches.Lock()
	live := watches.list[:0]
	for _, wp := range watches.list {
		w := wp.Value()
		if w == nil {
			continue
		}
		live = append(live, wp)
		seq, at := w.seq.Load(), atomic.LoadUint64(&w.at)
		s, ok := cw.seen[w]
		switch {
		case seq%2 == 0:
			delete(cw.seen, w)
		case !ok || s.seq != seq || s.at != at:
			cw.seen[w] = seenCall{seq, at, now, 1}
		default:
			s.polls++
			cw.seen[w] = s
			if took := now.Sub(s.since); s.polls >= stuckPolls && took >= d && took > longest {
				worst, longest = w, took
			}
		}
	}
	clear(watches.list[len(live):])
	watches.list = live
	watches.Unlock()
	if worst == nil {
		return nil
	}
	return worst.stuck(longest)
}

// stuck describes w's call in progress, which has lasted at least took.
func (w *callWatch) stuck(took time.Duration) *RuleError {
	at := atomic.LoadUint64(&w.at)
	method, sq, count := int(at>>60), int(at>>30&noSquare), int(at&noSquare)
	b := w.b
	where := b.String() + " board"
	if start := int(w.start.Load()); method == callLanes && start >= 0 && start < b.Squares() {
		where = fmt.Sprintf("%s board, %d walks from %s in flight", b, LaneCount, b.SquareName(start))
	} else if sq != noSquare {
		start := int(w.start.Load())
		if sq < b.Squares() && start >= 0 && start < b.Squares() {
			where = fmt.Sprintf("%s board, on %s after %d squares (start %s)", b, b.SquareName(sq), count, b.SquareName(start))
		}
	}
	return &RuleError{Rule: w.rule, Square: -1, Position: where, Stuck: true,
		Problem: fmt.Sprintf("has not returned from a call of its %s for %s", callNames[method], took.Round(100*time.Millisecond)),
		Fix:     "a rule must answer at once, from the position alone; one that sleeps, waits or loops holds its worker, so the command stopped without waiting for it"}
}
