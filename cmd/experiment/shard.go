package main

import (
	"fmt"
	"os"
	"strconv"

	"knightwalk/internal/runner"
)

// shardFromEnv picks the shard from a cluster's array-job variables when
// no --shard flag is given: Slurm job arrays (SLURM_ARRAY_TASK_ID, with
// SLURM_ARRAY_TASK_COUNT, relative to SLURM_ARRAY_TASK_MIN when set) and
// Kubernetes Indexed Jobs (JOB_COMPLETION_INDEX, with the shard count in
// KNIGHTWALK_SHARDS, which the Job manifest sets to its completions). It
// returns ok=false when neither is present.
func shardFromEnv(getenv func(string) string) (runner.Shard, string, bool, error) {
	if id := getenv("SLURM_ARRAY_TASK_ID"); id != "" {
		k, err1 := strconv.Atoi(id)
		n, err2 := strconv.Atoi(getenv("SLURM_ARRAY_TASK_COUNT"))
		if err1 != nil || err2 != nil {
			return runner.Shard{}, "", false, fmt.Errorf("SLURM_ARRAY_TASK_ID=%q with SLURM_ARRAY_TASK_COUNT=%q: want whole numbers", id, getenv("SLURM_ARRAY_TASK_COUNT"))
		}
		if lo := getenv("SLURM_ARRAY_TASK_MIN"); lo != "" {
			m, err := strconv.Atoi(lo)
			if err != nil {
				return runner.Shard{}, "", false, fmt.Errorf("SLURM_ARRAY_TASK_MIN=%q: want a whole number", lo)
			}
			k -= m
		}
		s, err := runner.ParseShard(fmt.Sprintf("%d/%d", k, n))
		if err != nil {
			return runner.Shard{}, "", false, fmt.Errorf("from SLURM_ARRAY_TASK_ID/COUNT: %w (use --array=0-%d)", err, n-1)
		}
		return s, "SLURM_ARRAY_TASK_ID", true, nil
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
		return s, "JOB_COMPLETION_INDEX", true, nil
	}
	return runner.All, "", false, nil
}

var getenv = os.Getenv
