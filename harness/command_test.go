package harness

import (
	"errors"
	"flag"
	"strings"
	"testing"
)

// TestHelp: help lists every command of the table in order; help for one
// command prints its section of the manual, with its flags where it has
// any; an unknown command is a usage error (exit 2), not a silent fallback
// to the general help.
func TestHelp(t *testing.T) {
	out, _, err := runCmd(t, "help")
	if err != nil {
		t.Fatalf("help: %v", err)
	}
	last := -1
	for _, c := range commands {
		i := strings.Index(out, "\n    "+c.name+" ")
		if i < 0 || i < last {
			t.Errorf("help lists %q out of the table's order or not at all:\n%s", c.name, out)
		}
		last = i
	}
	for _, c := range commands {
		out, _, err := runCmd(t, "help", c.name)
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		c.flags(fs)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if err != nil || !strings.HasPrefix(out, "Usage:\n\n    experiment "+c.name) || strings.Contains(out, "Flags:") != hasFlags {
			t.Errorf("help %s: err %v, output:\n%s", c.name, err, out)
		}
	}
	for _, args := range [][]string{{"help", "nosuch"}, {"nosuch"}, {}} {
		_, _, err := runCmd(t, args...)
		var u usageError
		if !errors.As(err, &u) {
			t.Errorf("%q: err = %v, want a usage error (exit status 2)", args, err)
		}
	}
}
