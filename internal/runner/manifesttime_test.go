package runner

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/knightwalk/knightwalk/internal/results"
)

// TestManifestExactSeconds: the manifest records the exact values' time
// apart from the walks' (an enumeration can take minutes where the walks
// take a fraction of a second), and leaves it out where none was asked.
func TestManifestExactSeconds(t *testing.T) {
	for _, c := range []struct {
		exact string
		want  bool
	}{{"on", true}, {"off", false}} {
		s := specOf(t, "name: t\nseed: 1\nexact: "+c.exact+"\nboards: [6x6]\nstarts: [a1, c3]\nwalks: 50\nrules: [{name: warnsdorff}]\n")
		out := filepath.Join(t.TempDir(), "r")
		if _, err := Run(context.Background(), s, RunOptions{Out: out, Workers: 1, Shard: All}); err != nil {
			t.Fatal(err)
		}
		m, err := results.ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.ExactSeconds > 0; got != c.want {
			t.Errorf("exact: %s: exact_seconds %g, want it recorded: %v", c.exact, m.ExactSeconds, c.want)
		}
		if m.SplittingSeconds != 0 {
			t.Errorf("exact: %s: splitting_seconds %g with no splitting estimator", c.exact, m.SplittingSeconds)
		}
	}
}
