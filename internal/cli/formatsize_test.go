package cli

import "testing"

// TestFormatSize: sizes for people, three significant digits and a unit
// that --max-memory reads back ("2.37 GiB", not "2.371874999254942GiB").
func TestFormatSize(t *testing.T) {
	for b, want := range map[int64]string{
		2546869248: "2.37 GiB",
		10066329:   "9.6 MiB",
		4 << 30:    "4 GiB",
		512 << 20:  "512 MiB",
		1000 << 20: "1000 MiB",
		3 << 29:    "1.5 GiB",
		1023:       "1023 B",
		1536:       "1.5 KiB",
		7 << 40:    "7 TiB",
	} {
		if got := FormatSize(b); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", b, got, want)
		}
		var s ByteSize
		if b >= 1<<20 {
			if err := s.Set(FormatSize(b)); err != nil {
				t.Errorf("--max-memory %q: %v", FormatSize(b), err)
			}
		}
	}
}
