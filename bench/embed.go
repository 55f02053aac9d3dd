// Package bench holds the plain Python implementations of seed 000's and
// seed 001's algorithms that `experiment bench` compares the Go kernels
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
