// Package bench measures the walk kernels and the end-to-end runner (Run,
// what `experiment bench` prints) and holds the plain Python implementations
// of seed 000's and seed 001's algorithms that the Go kernels are compared
// with, embedded so the comparison runs from any directory.
package bench

import _ "embed"

// KnightPy is knight_py.py.
//
//go:embed knight_py.py
var KnightPy []byte

// KernelsC is c/kernels.c.
//
//go:embed c/kernels.c
var KernelsC []byte

// LargeC is c/large.c, the general kernel's C baseline: the straightforward
// C program large boards are measured against.
//
//go:embed c/large.c
var LargeC []byte
