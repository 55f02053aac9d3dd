package harness

import (
	"flag"

	"github.com/knightwalk/knightwalk/internal/manual"
)

// The command's manual is written once, in internal/manual (its overview
// and each command's long text) and in the command table (each command's
// usage, short help and flags). `experiment help` prints its overview,
// `experiment help COMMAND` (and `experiment COMMAND -h`) a command's
// section, `experiment help all` the whole of it, and cmd/experiment/doc.go
// holds it as the package documentation that `go doc ./cmd/experiment`
// prints: generated from manualDoc, and checked against it by
// TestManualIsDocGo, so the three cannot drift apart.

// manualCommand is what the manual says of c.
func (c *command) manualCommand() manual.Command {
	return manual.Command{Name: c.name, Usage: c.usage, Short: c.short, Long: c.long,
		Flags: func(fs *flag.FlagSet) { c.flags(fs) }}
}

// manualCommands is the command table as the manual lists it.
func manualCommands() []manual.Command {
	cs := make([]manual.Command, len(commands))
	for i, c := range commands {
		cs[i] = c.manualCommand()
	}
	return cs
}

// manualDoc is the whole manual: what `experiment help all` prints and
// cmd/experiment/doc.go holds.
func manualDoc() string { return manual.Doc(manualCommands()) }
