package harness

import "github.com/knightwalk/knightwalk/internal/expfile"

// SetDefault makes the experiment file data (named name in messages and
// provenance, e.g. "examples/custom-rule/experiment.yaml") what `run`
// with no experiment argument runs: a program of your own embeds its
// experiment and runs it as the command's default. Call it before Main.
func SetDefault(name string, data []byte) { expfile.SetDefault(name, data) }
