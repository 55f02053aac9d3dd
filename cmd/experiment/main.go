package main

// The command's code is the package harness, so that a program of your own
// can register rules (sim.Register) and be this same command with them; its
// manual is doc.go.

import "github.com/knightwalk/knightwalk/harness"

func main() { harness.Main() }
