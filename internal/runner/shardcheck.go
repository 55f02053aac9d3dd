package runner

import (
	"fmt"

	"github.com/knightwalk/knightwalk/internal/config"
)

// CheckShard refuses what a run of shard sh of s cannot do, before
// anything runs: a sieve split into shards (its stages depend on each
// other), a sequential run split into rounds that writes the per-walk
// table, and more shards than there are work units to share among them
// (the units of its largest round, for a sequential run, whose shards
// share each round's units), where the shards past the units would run
// nothing. `run --check` and `run --dry-run`
// report it, and so does a run, so a cluster's submit script that runs
// the check first queues only tasks that can run.
func CheckShard(s *config.Experiment, sh Shard) error {
	if sh.N <= 1 {
		return nil
	}
	if s.Sieve != nil {
		return fmt.Errorf("%s: --shard %s: a sieve runs whole, in one process: its stages depend on each other; run it without --shard", s.Name, sh)
	}
	if s.Sequential != nil && s.PerWalk {
		return fmt.Errorf("%s: --shard with --round: a sequential run split into rounds does not write the per-walk table (outputs.walks); run it whole, or drop outputs.walks", s.Name)
	}
	p, err := NewPlan(s)
	if err != nil {
		return err
	}
	units, what := p.Len(), "work units"
	if s.Sequential != nil {
		units, what = 0, "work units in its largest round"
		for r := range p.Rounds() {
			n := 0
			for _, g := range p.groups {
				if r < len(g.segs) {
					n += g.segs[r].per * len(s.Starts[g.board])
				}
			}
			units = max(units, n)
		}
	}
	if sh.N > units {
		return fmt.Errorf("%s: --shard %s: %d shards, but the experiment has %d %s: at most %d shards (a shard past the units would run nothing)",
			s.Name, sh, sh.N, units, what, units)
	}
	return nil
}
