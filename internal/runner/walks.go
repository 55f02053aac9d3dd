package runner

import (
	"knightwalk/internal/config"
	"knightwalk/internal/table"
	"knightwalk/sim"
)

// writeWalks streams one unit's walks, in walk order, to the walks table.
func writeWalks(ww *table.WalkWriter, s *config.Experiment, u Unit, walks []sim.Outcome) error {
	b := s.Boards[u.Board]
	rule := s.Rules[u.Rule].Name()
	start := b.SquareName(u.Start)
	sr, sc := b.RowCol(u.Start)
	for i, o := range walks {
		er, ec := b.RowCol(o.End)
		if err := ww.Write(table.WalkRow{Board: b.String(), Rule: rule, Start: start, StartRow: int32(sr), StartCol: int32(sc),
			Walk: int64(u.Lo) + int64(i), Length: int32(o.Length), Success: o.Success, Closed: o.Closed,
			End: b.SquareName(o.End), EndRow: int32(er), EndCol: int32(ec), Ties: int32(o.Ties)}); err != nil {
			return err
		}
	}
	return nil
}
