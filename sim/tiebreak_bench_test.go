package sim

import "testing"

// The published deterministic rules: Pohl's original and Roth's with a
// fixed last tie-break. The large board is the per-step cost of a
// deterministic size sweep (one walk per n).
func BenchmarkWalk8x8PohlFirst(b *testing.B) { benchWalks(b, 8, 8, "warnsdorff/pohl+first", false) }
func BenchmarkWalk8x8RothFirst(b *testing.B) { benchWalks(b, 8, 8, "warnsdorff/roth+first", false) }
func BenchmarkWalk400x400RothFirst(b *testing.B) {
	benchWalks(b, 400, 400, "warnsdorff/roth+first", false)
}
