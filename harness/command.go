package harness

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/manual"
)

// command is one subcommand: its name, usage line, short help and its own
// flag set, built fresh for every invocation.
type command struct {
	name  string
	usage string // after "experiment NAME"
	short string
	long  string
	flags func(fs *flag.FlagSet) func(ctx context.Context, env *env, args []string) error
}

// env is what a subcommand writes to.
type env struct {
	stdout, stderr io.Writer
}

// checkedWriter passes writes to w and keeps the first error: every byte a
// command prints goes through one, so a failed write to standard output
// turns into a non-zero exit (run) whichever print statement met it, and
// nothing is written after it (a CSV is never continued past a hole).
type checkedWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}

// usageError marks mistakes in how the command was called (exit status 2).
type usageError = cli.UsageError

var usagef = cli.Usagef

func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	out := &checkedWriter{w: stdout}
	err := dispatch(ctx, out, stderr, args)
	if out.err != nil && (err == nil || !errors.As(err, new(usageError))) {
		// Whatever a command prints is its result (a CSV, a table, the
		// verdicts, its help): a write that failed (a full disk,
		// /dev/full) leaves it cut short, so the exit status must say so.
		name := "experiment"
		if len(args) > 0 {
			name = args[0]
		}
		if err != nil {
			return fmt.Errorf("%s: %v; writing its output also failed after %d bytes: %v", name, err, out.n, out.err)
		}
		return fmt.Errorf("%s: writing its output failed after %d bytes: %v; what was written is incomplete", name, out.n, out.err)
	}
	return err
}

func dispatch(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 2 {
			return usagef("help takes at most one command name, got %q (usage: experiment help %s)", args[1:], manual.HelpUsage)
		}
		if len(args) == 2 {
			switch topic := args[1]; topic {
			case "help", "-h", "-help", "--help":
				fmt.Fprint(stdout, manual.Text(manual.Help))
			case "all":
				fmt.Fprint(stdout, manual.Text(manualDoc()))
			default:
				c := lookup(topic)
				if c == nil {
					return usagef("help %s: unknown command (run 'experiment help')", topic)
				}
				printCommandHelp(stdout, c)
			}
			return nil
		}
		fmt.Fprint(stdout, manual.Text(manual.Overview(manualCommands())))
		if len(args) == 0 {
			return usagef("no command given")
		}
		return nil
	}
	c := lookup(args[0])
	if c == nil {
		return usagef("unknown command %q (run 'experiment help')", args[0])
	}
	if err := config.CheckPublished(); err != nil {
		return err
	}
	fs := flag.NewFlagSet("experiment "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	body := c.flags(fs)
	flagArgs, err := interleaved(fs, args[1:])
	if err != nil {
		return usagef("%s: %v (usage: experiment %s %s)", c.name, err, c.name, c.usage)
	}
	if err := fs.Parse(flagArgs); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printCommandHelp(stdout, c)
			return nil
		}
		return usagef("%s: %v (usage: experiment %s %s)", c.name, err, c.name, c.usage)
	}
	err = watchRules(ctx, c.name, func(ctx context.Context) error {
		return body(ctx, &env{stdout: stdout, stderr: stderr}, fs.Args())
	})
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		// A bare "context canceled" tells a user nothing: say what
		// stopped the command and what it left (every command writes its
		// results only once complete).
		return fmt.Errorf("%s interrupted by a signal before it finished: nothing was written or changed", c.name)
	}
	return err
}

// interleaved moves flags after positional arguments to the front, so that
// "experiment run FILE --workers 2" works as users expect. It is the one
// place where a value flag meets its value, and it never lets one take
// what is not its value: a value flag at the end of the line, or followed
// by another flag ("--out --force"), is an error naming the flag, never a
// positional argument silently swallowed ("run random-walk --out" would
// otherwise run the default experiment into ./random-walk).
func interleaved(fs *flag.FlagSet, args []string) ([]string, error) {
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

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// printCommandHelp prints a command's section of the manual, as
// 'experiment help COMMAND' and 'experiment COMMAND -h' both do.
func printCommandHelp(w io.Writer, c *command) {
	fmt.Fprint(w, manual.Text(manual.Section(c.manualCommand())))
}

// maxWorkers bounds --workers: each worker holds its own search or walk
// state (count splits its search into 32 tasks a worker), so a mistyped
// 1000000 would exhaust memory before any work is done.
const maxWorkers = 1024

func checkWorkers(n int) error {
	if n < 1 || n > maxWorkers {
		return usagef("--workers %d: want 1 to %d", n, maxWorkers)
	}
	return nil
}
