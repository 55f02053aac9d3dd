package runner

import (
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
)

// TestOutDir: the directory a run writes by default names the experiment,
// and a shard or a sequential run's rounds say which; --out is taken as
// given, cleaned.
func TestOutDir(t *testing.T) {
	fixed := &config.Experiment{Name: "e"}
	seq := &config.Experiment{Name: "e", Sequential: &config.Sequential{}}
	for _, c := range []struct {
		s     *config.Experiment
		shard Shard
		out   string
		want  string
	}{
		{fixed, All, "", "results/e"},
		{fixed, Shard{K: 1, N: 3}, "", "results/e.shard-1-of-3"},
		{seq, Shard{K: 1, N: 3}, "", "results/e.parts-of-3"},
		{seq, All, "", "results/e"},
		{fixed, Shard{K: 1, N: 3}, "new/", "new"},
	} {
		if got := OutDir(c.s, c.shard, c.out); got != c.want {
			t.Errorf("OutDir(%s, %s, %q) = %q, want %q", c.s.Name, c.shard, c.out, got, c.want)
		}
	}
}
