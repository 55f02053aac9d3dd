package table

import (
	"path/filepath"
	"testing"
)

func BenchmarkWalkWriter(b *testing.B) {
	rows := make([]WalkRow, 1024)
	for i := range rows {
		rows[i] = WalkRow{
			Board: "8x8", Rule: "warnsdorff/random", Start: "d4", StartRow: 3, StartCol: 3,
			Walk: int64(i), Length: 64 - int32(i%9), Success: i%9 == 0, Closed: i%37 == 0,
			End: "h8", EndRow: 7, EndCol: 7, Ties: int32(i % 11),
		}
	}
	path := filepath.Join(b.TempDir(), "walks.parquet")
	ww, err := NewWalkWriter(path, testMD, DefaultWalkRowGroupRows)
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
