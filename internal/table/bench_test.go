package table

import (
	"path/filepath"
	"testing"
)

func BenchmarkWalkWriter(b *testing.B) {
	rows := make([]WalkRow, 1024)
	for i := range rows {
		outcome := OutcomeDeadEnd
		if i%9 == 0 {
			outcome = OutcomeSuccess
		}
		rows[i] = WalkRow{
			Experiment: testMD.Experiment, Outcome: outcome, Params: RuleParams{TieBreak: "random"},
			Board: "8x8", Rule: "warnsdorff/random", Start: "d4", StartRow: 3, StartCol: 3,
			Walk: int64(i), Length: 64 - int32(i%9), Success: i%9 == 0, Closed: false,
			End: "h8", EndRow: 7, EndCol: 7, Ties: int32(i % 11),
		}
	}
	path := filepath.Join(b.TempDir(), "walks.parquet")
	md := testMD
	md.Levels = Levels{Experiment: md.Experiment, Boards: []string{"8x8"}, Rules: []string{"warnsdorff/random"}}
	ww, err := NewWalkWriter(path, md, DefaultWalkRowGroupRows)
	if err != nil {
		b.Fatal(err)
	}
	defer ww.Abort()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		r := rows[i%len(rows)]
		r.Walk = int64(i)
		if err := ww.Write(r); err != nil {
			b.Fatal(err)
		}
	}
	if err := ww.Close(); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
