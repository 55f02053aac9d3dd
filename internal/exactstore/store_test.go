package exactstore

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// TestStoredFilesLoad: every committed file reads, holds every orbit of
// its board with distributions that sum to one (File.check), and 10x10
// Warnsdorff with random tie-breaks is among them.
func TestStoredFilesLoad(t *testing.T) {
	fs, err := Files()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range fs {
		have[key(f.Board, f.RuleSpec)] = true
	}
	if !have[key("10x10", "warnsdorff/random")] {
		t.Fatalf("the store holds %v, not 10x10 warnsdorff/random", have)
	}
}

// TestLookupIsTheEnumeration: a file made from one start per orbit gives,
// for every start square of 6x6 and 7x7, the values an enumeration from
// that square gives, up to the order of the floating-point sums (a few
// ulps), and the dead ends on the square's own image of the board: what
// shows the symmetry carried right (a wrong map moves a dead end's
// probability to another square).
func TestLookupIsTheEnumeration(t *testing.T) {
	for _, c := range []struct{ board, rule string }{
		{"6x6", "warnsdorff/random"}, {"7x7", "warnsdorff/random"}, {"5x6", "warnsdorff/random"},
		{"4x4", "random"}, {"3x4", "random"}, {"3x3", "random"},
	} {
		{
			board, rule := c.board, c.rule
			b, _ := sim.ParseBoard(board)
			r, _ := sim.ParseRule(rule)
			f := &File{Board: b.String(), RuleSpec: rule}
			for _, sq := range Representatives(b) {
				e, err := exact.Walk(context.Background(), b, r, sq, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.Orbits = append(f.Orbits, orbitOf(b, e))
			}
			if err := f.check(); err != nil {
				t.Fatal(err)
			}
			for sq := 0; sq < b.Squares(); sq++ {
				want, err := exact.Walk(context.Background(), b, r, sq, 0)
				if err != nil {
					t.Fatal(err)
				}
				got, err := f.exact(b, sq)
				if err != nil {
					t.Fatal(err)
				}
				name := board + " " + rule + " from " + b.SquareName(sq)
				near(t, name+" P(success)", got.PSuccess, want.PSuccess)
				near(t, name+" P(closed)", got.PClosed, want.PClosed)
				near(t, name+" mean length", got.MeanLength, want.MeanLength)
				near(t, name+" mean ties", got.MeanTies, want.MeanTies)
				if got.Start != sq || got.Nodes != want.Nodes {
					t.Errorf("%s: start %d, %d states; want %d, %d", name, got.Start, got.Nodes, sq, want.Nodes)
				}
				for s := range want.DeadEnds {
					near(t, name+" dead end on "+b.SquareName(s), got.DeadEnds[s], want.DeadEnds[s])
				}
				for l := range want.Lengths {
					near(t, name+" length", got.Lengths[l], want.Lengths[l])
				}
			}
		}
	}
}

// near fails unless got and want agree to 1e-13 (relative, or absolute
// near 0): the sums of one orbit's squares differ in the last bits.
func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if d := math.Abs(got - want); d > 1e-13*max(1, math.Abs(want)) {
		t.Errorf("%s: %v, want %v", what, got, want)
	}
}

// TestStoredInsideSample: every stored orbit's P(success) lies inside the
// 99.9 % Wilson interval of 200,000 seeded walks from its square (what
// docs/exact.md reports of each 10x10 orbit); a wrong value, or one stored
// for the wrong square, falls outside.
func TestStoredInsideSample(t *testing.T) {
	fs, err := Files()
	if err != nil {
		t.Fatal(err)
	}
	walks := 200_000
	if !testenv.Slow() {
		walks = 20_000
	}
	for _, f := range fs {
		b, _ := sim.ParseBoard(f.Board)
		r, _ := sim.ParseRule(f.RuleSpec)
		w, err := sim.NewWalker(b, r)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range f.Orbits {
			sq, _ := b.ParseSquare(o.Start)
			key := sim.NewKey(38, b, r, sq)
			hits := 0
			for i := range walks {
				if w.Walk(sq, key, uint64(i)).Success {
					hits++
				}
			}
			ci := stats.Proportion{Successes: uint64(hits), Trials: uint64(walks)}.Interval(0.999, stats.Wilson)
			if o.PSuccess < ci.Lo || o.PSuccess > ci.Hi {
				t.Errorf("%s %s from %s: stored %v outside the 99.9 %% interval [%v, %v] of %d walks", f.Board, f.RuleSpec, o.Start, o.PSuccess, ci.Lo, ci.Hi, walks)
			}
		}
	}
}

// TestStoredReenumerated (slow): the orbits of each file that take at
// most 30 million states are enumerated again and give the stored values
// bit for bit.
func TestStoredReenumerated(t *testing.T) {
	testenv.SkipUnlessSlow(t, "enumerating stored orbits again (about a minute)")
	fs, err := Files()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		b, _ := sim.ParseBoard(f.Board)
		r, _ := sim.ParseRule(f.RuleSpec)
		for _, o := range f.Orbits {
			if o.Nodes > 30_000_000 {
				continue
			}
			sq, _ := b.ParseSquare(o.Start)
			res, err := exact.Walks(context.Background(), b, r, []int{sq}, exact.Options{Workers: 2, MaxMemory: 2 << 30})
			if err != nil {
				t.Fatal(err)
			}
			got := orbitOf(b, res[0])
			got.CPUSeconds, got.LargestLayer, got.PeakDisk = o.CPUSeconds, o.LargestLayer, o.PeakDisk
			if !sameOrbit(got, o) {
				t.Errorf("%s %s from %s: enumerated %+v, stored %+v", f.Board, f.RuleSpec, o.Start, got, o)
			}
			t.Logf("%s %s from %s: %v, %d states, as stored", f.Board, f.RuleSpec, o.Start, o.PSuccess, o.Nodes)
		}
	}
}

func sameOrbit(a, b Orbit) bool {
	if a.Start != b.Start || a.PSuccess != b.PSuccess || a.PClosed != b.PClosed || a.PStopped != b.PStopped ||
		a.MeanLength != b.MeanLength || a.MeanTies != b.MeanTies || a.Nodes != b.Nodes || a.TreeNodes != b.TreeNodes ||
		len(a.Lengths) != len(b.Lengths) || len(a.DeadEnds) != len(b.DeadEnds) {
		return false
	}
	for i := range a.Lengths {
		if a.Lengths[i] != b.Lengths[i] {
			return false
		}
	}
	for i := range a.DeadEnds {
		if a.DeadEnds[i] != b.DeadEnds[i] {
			return false
		}
	}
	return true
}

// TestDocsTableIsTheStore: the 10x10 table of docs/exact.md ("Every orbit
// of 10×10") prints the stored P(success) of every orbit, digit for digit.
func TestDocsTableIsTheStore(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "exact.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(doc), "## Every orbit of 10×10")
	if !ok {
		t.Fatal("docs/exact.md has no section \"Every orbit of 10×10\"")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	fs, err := Files()
	if err != nil {
		t.Fatal(err)
	}
	var f *File
	for _, g := range fs {
		if g.Board == "10x10" && g.RuleSpec == "warnsdorff/random" {
			f = g
		}
	}
	if f == nil {
		t.Fatal("no 10x10 warnsdorff/random in the store")
	}
	rows := 0
	for _, o := range f.Orbits {
		prefix := "| " + o.Start + " | "
		i := strings.Index(sec, prefix)
		if i < 0 {
			t.Errorf("docs/exact.md's 10x10 table has no row for %s", o.Start)
			continue
		}
		field, _, _ := strings.Cut(sec[i+len(prefix):], " |")
		v, err := strconv.ParseFloat(field, 64)
		if err != nil || v != o.PSuccess {
			t.Errorf("docs/exact.md: %s %q, stored %v", o.Start, field, o.PSuccess)
		}
		rows++
	}
	if rows != 15 {
		t.Errorf("%d of 10x10's 15 orbits in docs/exact.md", rows)
	}
}
