// Command experiment runs knight-walk Monte Carlo studies: see the README.
// Its code is the package knightwalk/harness, so that a program of your own
// can register rules (sim.Register) and be this same command with them.
package main

import "github.com/knightwalk/knightwalk/harness"

func main() { harness.Main() }
