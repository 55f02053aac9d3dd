package harness

import (
	"context"
	"os"

	"github.com/knightwalk/knightwalk/count/countcmd"
	"github.com/knightwalk/knightwalk/internal/cli"
)

// The command's shared helpers, under the names its files use.
var (
	progressBar      = cli.ProgressBar
	defaultMaxMemory = cli.DefaultMaxMemory
	printGrid        = cli.PrintGrid
)

type byteSize = cli.ByteSize

// interruptible is cli.Interruptible.
func interruptible[T any](ctx context.Context, f func() (T, error)) (T, error) {
	return cli.Interruptible(ctx, f)
}

// countEnv is where a count writes: the command's output, and the version
// its files are stamped with.
func countEnv(e *env) *countcmd.Env {
	return &countcmd.Env{Stdout: e.stdout, Stderr: e.stderr, ToolVersion: version}
}

// getenv reads the cluster's shard variables (cli.ShardFromEnv).
var getenv = os.Getenv
