package cli

import (
	"fmt"
	"strconv"

	"github.com/knightwalk/knightwalk/internal/runner"
)

// ShardFromEnv picks the shard from a cluster's array-job variables when
// no --shard flag is given, in --shard's convention (K/N, K from 0 to N-1):
// Slurm job arrays (K = SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN, N =
// SLURM_ARRAY_TASK_COUNT) and Kubernetes Indexed Jobs (K =
// JOB_COMPLETION_INDEX, N = KNIGHTWALK_SHARDS, which the Job manifest sets
// to its completions). from names the variables and their values, for the
// log. It returns ok=false when neither is present.
func ShardFromEnv(getenv func(string) string) (runner.Shard, string, bool, error) {
	if id := getenv("SLURM_ARRAY_TASK_ID"); id != "" {
		k, err1 := strconv.Atoi(id)
		n, err2 := strconv.Atoi(getenv("SLURM_ARRAY_TASK_COUNT"))
		if err1 != nil || err2 != nil {
			return runner.Shard{}, "", false, fmt.Errorf("SLURM_ARRAY_TASK_ID=%q with SLURM_ARRAY_TASK_COUNT=%q: want whole numbers", id, getenv("SLURM_ARRAY_TASK_COUNT"))
		}
		from := fmt.Sprintf("SLURM_ARRAY_TASK_ID=%s", id)
		if lo := getenv("SLURM_ARRAY_TASK_MIN"); lo != "" {
			m, err := strconv.Atoi(lo)
			if err != nil {
				return runner.Shard{}, "", false, fmt.Errorf("SLURM_ARRAY_TASK_MIN=%q: want a whole number", lo)
			}
			k -= m
			from += " minus SLURM_ARRAY_TASK_MIN=" + lo
		}
		s, err := runner.ParseShard(fmt.Sprintf("%d/%d", k, n))
		if err != nil {
			return runner.Shard{}, "", false, fmt.Errorf("from SLURM_ARRAY_TASK_ID/COUNT: %w (use --array=0-%d)", err, n-1)
		}
		return s, from, true, nil
	}
	if id := getenv("JOB_COMPLETION_INDEX"); id != "" {
		n := getenv("KNIGHTWALK_SHARDS")
		if n == "" {
			return runner.Shard{}, "", false, fmt.Errorf("JOB_COMPLETION_INDEX=%s is set but KNIGHTWALK_SHARDS is not: set it to the Job's completions", id)
		}
		s, err := runner.ParseShard(id + "/" + n)
		if err != nil {
			return runner.Shard{}, "", false, fmt.Errorf("from JOB_COMPLETION_INDEX/KNIGHTWALK_SHARDS: %w", err)
		}
		return s, "JOB_COMPLETION_INDEX=" + id, true, nil
	}
	return runner.All, "", false, nil
}
