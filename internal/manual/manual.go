// Package manual is the experiment command's manual, written once in Go
// doc comment syntax: its overview (what the command does, exit status,
// environment, examples), each command's long text, and the functions that
// join them with a command's usage line, short help and flags into the
// text `experiment help` prints and cmd/experiment/doc.go holds (go doc
// ./cmd/experiment), so the two cannot drift apart.
package manual

import (
	"flag"
	"fmt"
	"go/doc/comment"
	"strings"

	"github.com/knightwalk/knightwalk/internal/cli"
)

// Command is what the manual says of one command: its name, its usage
// line (after "experiment NAME"), its short help, its long text, and
// Flags, which declares its flags on a flag set (their usage and defaults
// are its Flags section).
type Command struct {
	Name, Usage, Short, Long string
	Flags                    func(fs *flag.FlagSet)
}

// intro opens the manual: what the command does and how it is called.
const intro = `Experiment runs seeded Monte Carlo studies of knight's walks — the uniformly
random walk, Warnsdorff's rule with random, first, Pohl and Roth
tie-breaking, and Warnsdorff-ordered backtracking — over every core, and
writes success rates, path lengths, closed tours and dead ends per start
square, with intervals, as Parquet tables and a report. It computes exact
values where the board is small enough, certified bounds where it is not,
and decides the claims an experiment file states about them.

Usage:

	experiment COMMAND [flags] [args]

Flags may come before or after the arguments, written -flag or --flag; a
flag that takes a value never takes the next flag as its value. Run
'experiment help COMMAND' (or 'experiment COMMAND -h') for one command's
section of this manual, and 'experiment help all' for all of it.

The commands are:
`

// HelpUsage and Help are the help command's own usage and manual
// (experiment help help).
const HelpUsage = "[COMMAND | all]"

const Help = `Usage:

	experiment help [COMMAND | all]

Prints the manual: with no argument its overview (the commands, exit
status, environment, examples), with a command's name that command's
section (its usage, what it does, its flags; 'experiment COMMAND -h' prints
the same), and with all the whole manual, as 'go doc ./cmd/experiment'
prints it.
`

// rest follows the command list: exit status, environment, examples
// and where the rest of the documentation lives.
const rest = `# Exit status

0 on success; 1 when the command failed (the message, on standard error,
starts with "experiment:"), and for tour when the walk is not a full tour;
2 for a usage error (an unknown command or flag, a flag without its value,
a value out of range); 3 when merge has merged the rounds of a sequential
run that are in, and the run is not decided yet: the next round is to run.
Whatever a command prints is its result: a write to standard output that
fails (a full disk) exits 1, saying how many bytes were written.

# Environment

  - KNIGHTWALK_KERNEL: the kernel path for boards of at most 64 squares:
    auto (the default: the fastest this CPU has, timed at start), avx512,
    avx2, pdep16 or scalar. Every path walks the same walks; a path the CPU
    lacks is an error, never a fallback.
  - SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT: run
    without --shard in a Slurm array task, run does shard K/N, K the task's
    index counted from the array's first.
  - JOB_COMPLETION_INDEX and KNIGHTWALK_SHARDS: the same for a Kubernetes
    Indexed Job (KNIGHTWALK_SHARDS is its completions).
  - KNIGHTWALK_COUNT_TABLE_SHARE, KNIGHTWALK_COUNT_GC_SHARE: for measuring
    only, the shares of --max-memory that count's state tables (0.6) and
    the garbage collector's limit (0.5) take.

# Examples

Run the default experiment (seed 000's claims on 8x8) into results/default/,
a committed experiment by name, and an experiment file of your own, checked
first:

	experiment run
	experiment run claims-8x8
	experiment validate my.yaml && experiment run my.yaml --out results/my

Redraw a result's figures, and print the claims of several results as one
table:

	experiment plot results/claims-8x8
	experiment claims results/literature results/pohl-original

Exact success probabilities on 8x8, certified bounds where enumeration does
not fit, tour counts, and a rare rate by splitting:

	experiment exact --board 8x8
	experiment exact --board 11x11 --start a1 --bounds --budget 400000000
	experiment count --board 6x6
	experiment rare --board 400x400 --particles 4000 --replicates 20

Three shards of a run on any machines, merged into the tables of one run:

	experiment run random-walk --shard 0/3 --out parts/part-0
	experiment run random-walk --shard 1/3 --out parts/part-1
	experiment run random-walk --shard 2/3 --out parts/part-2
	experiment merge --out results/random-walk parts

Replay walk 17 of a run from b1, as the run drew it:

	experiment tour --board 8x8 --start b1 --seed 2026 --walk 17

# Documentation

The repository's README is the front door; docs/commands.md describes each
command in depth, with the measurements behind its limits; docs/tables.md
documents every table and column; docs/design.md what every number means.
Clusters (Slurm, Kubernetes): deploy/README.md.

knightwalk is free software under the BSD 3-Clause licence (LICENSE).
`

// Overview is what `experiment help` prints: the manual up to the
// commands' own sections, cmds listed in their order.
func Overview(cmds []Command) string {
	var b strings.Builder
	b.WriteString(intro)
	b.WriteString("\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "\t%-9s %s\n", c.Name, c.Short)
	}
	b.WriteString("\n")
	b.WriteString(rest)
	return b.String()
}

// Section is one command's section of the manual, without its heading:
// its usage, what it does and its flags.
func Section(c Command) string {
	var b strings.Builder
	b.WriteString("Usage:\n\n")
	for _, l := range wrapWords("experiment "+c.Name+" "+c.Usage, 76, strings.Repeat(" ", len("experiment "+c.Name+" "))) {
		b.WriteString("\t" + l + "\n")
	}
	b.WriteString("\n" + upperFirst(c.Short) + ".\n")
	if long := strings.TrimSpace(c.Long); long != "" {
		b.WriteString("\n" + long + "\n")
	}
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	c.Flags(fs)
	var flags strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		if _, ok := f.Value.(*cli.ByteSize); ok {
			name = "size" // 512MiB, 4GiB
		}
		head := "--" + f.Name
		if name != "" {
			head += " " + name
		}
		flags.WriteString("\t" + head + "\n")
		if d := flagDefault(f); d != "" {
			usage += " (default " + d + ")"
		}
		for _, l := range wrapWords(usage, 72, "") {
			flags.WriteString("\t    " + l + "\n")
		}
	})
	if flags.Len() > 0 {
		b.WriteString("\nFlags:\n\n" + flags.String())
	}
	return b.String()
}

// machineDefaults are the flags whose default depends on the machine; the
// manual states the rule, the same everywhere, instead of this machine's
// value.
var machineDefaults = map[string]string{
	"workers":    "the CPUs this process may use, GOMAXPROCS",
	"max-memory": "", // its usage states the rule
}

// flagDefault is a flag's default as the manual shows it, or "" where
// there is none worth showing (the zero value, or a rule the usage gives).
func flagDefault(f *flag.Flag) string {
	if d, ok := machineDefaults[f.Name]; ok {
		return d
	}
	switch f.DefValue {
	case "", "0", "false", "[]", "0s":
		return ""
	}
	if fmt.Sprintf("%T", f.Value) == "*flag.stringValue" { // as flag.PrintDefaults quotes it
		return fmt.Sprintf("%q", f.DefValue)
	}
	return f.DefValue
}

// Doc is the whole manual in Go doc comment syntax: the overview, then a
// section per command. cmd/experiment/doc.go is this text.
func Doc(cmds []Command) string {
	var b strings.Builder
	b.WriteString(Overview(cmds))
	for _, c := range cmds {
		b.WriteString("\n# experiment " + c.Name + "\n\n")
		b.WriteString(Section(c))
	}
	return b.String()
}

// Text renders manual text as `go doc` prints a package's documentation:
// paragraphs wrapped at 80 columns, code indented by four spaces.
func Text(doc string) string {
	var p comment.Parser
	pr := &comment.Printer{TextCodePrefix: "    "}
	return string(pr.Text(p.Parse(doc)))
}

// wrapWords breaks s at spaces into lines of at most width columns (a
// longer word stays whole), the lines after the first indented by indent.
func wrapWords(s string, width int, indent string) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) > width:
			lines = append(lines, line)
			line = indent + w
		default:
			line += " " + w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
