package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// CheckedWriter passes writes to w and keeps the first error: every byte a
// command prints goes through one, so a failed write to standard output
// turns into a non-zero exit whichever print statement met it, and
// nothing is written after it (a CSV is never continued past a hole).
type CheckedWriter struct {
	W   io.Writer
	N   int64 // the bytes written
	Err error // the first error
}

func (c *CheckedWriter) Write(p []byte) (int, error) {
	if c.Err != nil {
		return 0, c.Err
	}
	n, err := c.W.Write(p)
	c.N += int64(n)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.Err = err
	return n, err
}

// Interleaved moves flags after positional arguments to the front, so that
// "experiment run FILE --workers 2" works as users expect. It is the one
// place where a value flag meets its value, and it never lets one take
// what is not its value: a value flag at the end of the line, or followed
// by another flag ("--out --force"), is an error naming the flag, never a
// positional argument silently swallowed ("run random-walk --out" would
// otherwise run the default experiment into ./random-walk).
func Interleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" { // what follows is positional, even if it starts with -
			return append(append(append(flags, "--"), pos...), args[i+1:]...), nil
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue // fs.Parse reports the unknown flag
		}
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
			continue
		}
		if i+1 >= len(args) {
			return nil, fmt.Errorf("flag %s needs a value (it is the last argument)", a)
		}
		if v := args[i+1]; looksLikeFlag(fs, v) {
			return nil, fmt.Errorf("flag %s needs a value, but is followed by the flag %s (write %s=VALUE if the value starts with a dash)", a, v, a)
		}
		flags = append(flags, args[i+1])
		i++
	}
	return append(flags, pos...), nil
}

// looksLikeFlag reports whether v names a flag of fs ("-x", "--x" or
// "--x=..."), or is "--" or "-h"/"--help": a value flag followed by it has
// been left without its value. A negative number ("-1") is a value.
func looksLikeFlag(fs *flag.FlagSet, v string) bool {
	if v == "--" {
		return true
	}
	if !strings.HasPrefix(v, "-") || v == "-" {
		return false
	}
	name, _, _ := strings.Cut(strings.TrimLeft(v, "-"), "=")
	return fs.Lookup(name) != nil || name == "h" || name == "help"
}
