package results

import (
	"context"
	"math"
	"path/filepath"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
)

// squareSums are what the manifest and report take from the squares
// rows: walks, successes and closed tours in all, and the squares with an
// exact value and a sampled interval, and those whose interval covers it.
type squareSums struct {
	walks, successes, closed uint64
	exact, covered           int
}

func (s *squareSums) add(r table.SquareRow) {
	s.walks += uint64(r.Walks)
	s.successes += uint64(r.Successes)
	s.closed += uint64(r.Closed)
	if math.IsNaN(r.ExactSuccess) || math.IsNaN(r.SuccessLo) {
		return
	}
	s.exact++
	if r.SuccessLo <= r.ExactSuccess && r.ExactSuccess <= r.SuccessHi {
		s.covered++
	}
}

// squareSums returns the sums of the squares rows: those held, or those
// streamCells wrote.
func (t *Tables) squareSums() squareSums {
	if t.cells != nil {
		return t.sums
	}
	var s squareSums
	for _, r := range t.Squares {
		s.add(r)
	}
	return s
}

// streamCells writes the squares, lengths and deadends tables of t into
// dir, making the rows of one (board, rule) at a time from t.cells, and
// returns each table's error (as the slice writers would). It fills
// t.sums and t.allSucceed.
func (t *Tables) streamCells(ctx context.Context, dir string, e *config.Experiment, md table.Metadata) [3]error {
	var errs [3]error
	sums := &t.sums
	*sums = squareSums{}
	sq, err := table.NewSquaresWriter(filepath.Join(dir, SquaresFile), md)
	if err != nil {
		errs[0] = err
		return errs
	}
	defer sq.Abort()
	ln, err := table.NewLengthsWriter(filepath.Join(dir, LengthsFile), md)
	if err != nil {
		errs[1] = err
		return errs
	}
	defer ln.Abort()
	de, err := table.NewDeadEndsWriter(filepath.Join(dir, DeadEndsFile), md)
	if err != nil {
		errs[2] = err
		return errs
	}
	defer de.Abort()
	t.allSucceed = map[[2]int]bool{}
	var rows Tables // one (board, rule)'s rows, its storage reused
	var lm lengthMemo
	for bi := range e.Boards {
		for ri := range e.Rules {
			if err := ctx.Err(); err != nil {
				errs[0] = err
				return errs
			}
			rows.Squares, rows.Lengths, rows.DeadEnds = rows.Squares[:0], rows.Lengths[:0], rows.DeadEnds[:0]
			if err := rows.addStarts(e, *t.cells, bi, ri, &lm); err != nil {
				errs[0] = err
				return errs
			}
			all := len(rows.Squares) > 0
			for _, r := range rows.Squares {
				sums.add(r)
				all = all && r.Walks > 0 && r.Successes == r.Walks
			}
			t.allSucceed[[2]int{bi, ri}] = all
			for i, err := range []error{sq.Write(rows.Squares...), ln.Write(rows.Lengths...), de.Write(rows.DeadEnds...)} {
				if err != nil {
					errs[i] = err
					return errs
				}
			}
		}
	}
	for i, w := range []interface{ Close() error }{sq, ln, de} {
		if err := w.Close(); err != nil {
			errs[i] = err
			return errs
		}
	}
	return errs
}
