// Package cli holds what the experiment command and the packages that do
// its work share: the usage mistake that exits with status 2, the parsing
// of its arguments (flags after positional ones, the rule, board and start
// flags, the shard a cluster's array job names), the output whose failed
// write fails the command, the watch over calls into rules of your own,
// progress on a terminal, sizes for people and the memory and disk a
// command may use.
package cli

import "fmt"

// UsageError marks mistakes in how the command was called (exit status 2).
type UsageError struct{ Msg string }

func (u UsageError) Error() string { return u.Msg }

// Usagef is a UsageError with a formatted message.
func Usagef(format string, a ...any) error { return UsageError{fmt.Sprintf(format, a...)} }
