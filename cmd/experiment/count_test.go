package main

import (
	"errors"
	"strings"
	"testing"
)

func TestCountText(t *testing.T) {
	out, _, err := runCmd(t, "count", "--board", "5x5", "--unique", "--workers", "2")
	if err != nil {
		t.Fatal(err)
	}
	want := `directed open tours from each start square, 5x5

5  304   0  56   0 304
4    0  56   0  56   0
3   56   0  64   0  56
2    0  56   0  56   0
1  304   0  56   0 304
     a   b   c   d   e

directed tours: 1728
undirected tours: 864
up to symmetry (8 symmetries): 112
`
	if !strings.HasPrefix(out, want) {
		t.Errorf("got\n%s\nwant it to begin\n%s", out, want)
	}
}

func TestCountOneStart(t *testing.T) {
	out, _, err := runCmd(t, "count", "--board", "5x5", "--start", "c3")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "3   .  . 64  .  .\n") || strings.Contains(out, "directed tours:") {
		t.Errorf("want only c3 counted and no totals, got\n%s", out)
	}
	out, _, err = runCmd(t, "count", "--board", "5x6", "--closed", "--unique", "--start", "a1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "closed tours (cycles): 8\n") || !strings.Contains(out, "up to symmetry (4 symmetries): 3\n") {
		t.Errorf("5x6 closed from a1: got\n%s", out)
	}
}

func TestCountCSV(t *testing.T) {
	out, _, err := runCmd(t, "count", "--board", "3x4", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	want := `start,start_row,start_col,count
a1,0,0,2
b1,0,1,0
c1,0,2,0
d1,0,3,2
a2,1,0,4
b2,1,1,0
c2,1,2,0
d2,1,3,4
a3,2,0,2
b3,2,1,0
c3,2,2,0
d3,2,3,2
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	out, _, err = runCmd(t, "count", "--board", "5x5", "--closed", "--format", "csv", "--start", "a1")
	if err != nil || out != "start,start_row,start_col,count\na1,0,0,0\n" {
		t.Errorf("5x5 closed from a1: %q, %v", out, err)
	}
}

func TestCountErrors(t *testing.T) {
	for _, args := range [][]string{
		{"count"},
		{"count", "--board", "5y5"},
		{"count", "--board", "5x5", "--format", "json"},
		{"count", "--board", "5x5", "--start", "f9"},
		{"count", "--board", "5x5", "--workers", "0"},
		{"count", "--board", "5x5", "--unique", "--start", "a1"},
		{"count", "--board", "5x5", "--bogus"},
		{"count", "--board", "5x5", "extra"},
	} {
		_, _, err := runCmd(t, args...)
		var u usageError
		if !errors.As(err, &u) {
			t.Errorf("%q: err = %v, want a usage error", args, err)
		}
	}
	_, _, err := runCmd(t, "count", "--board", "9x9")
	var u usageError
	if err == nil || errors.As(err, &u) || !strings.Contains(err.Error(), "64 squares") {
		t.Errorf("9x9: err = %v, want a plain error about the 64-square limit", err)
	}
}
