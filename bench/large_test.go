package bench

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// TestLargeCWalksTheSameWalks: bench/c/large.c, the C baseline of the
// general kernel, walks the Go kernel's walks from the corner with the
// project's stream (the total steps of its walks agree, walk for walk in
// sum) and other walks of a like length with xoroshiro128+.
func TestLargeCWalksTheSameWalks(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "large.c"), filepath.Join(dir, "large")
	if err := os.WriteFile(src, LargeC, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-O3", "-Wall", "-Werror", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	run := func(args ...string) (steps uint64) {
		raw, err := exec.Command(bin, args...).Output()
		if err != nil {
			t.Fatalf("large %v: %v", args, err)
		}
		var res struct{ Steps uint64 }
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatalf("large %v: %v in %q", args, err, raw)
		}
		return res.Steps
	}
	for _, c := range []struct {
		rule, c string
		n       int
		walks   uint64
		args    []string
	}{
		{"random", "random", 100, 300, []string{"100", "300"}},
		{"random", "random", 1000, 100, []string{"1000", "100"}},
		{"warnsdorff/random", "warnsdorff", 100, 6, []string{"100", "6"}},
		{"warnsdorff/random", "warnsdorff", 9, 500, []string{"9", "500"}},
	} {
		b := sim.MustBoard(c.n, c.n)
		r, _ := sim.ParseRule(c.rule)
		w, err := sim.NewWalker(b, r)
		if err != nil {
			t.Fatal(err)
		}
		key := sim.NewKey(1, b, r, 0)
		var want uint64
		for i := range c.walks {
			want += uint64(w.Walk(0, key, i).Length - 1)
		}
		if got := run(append([]string{c.c}, c.args...)...); got != want {
			t.Errorf("%s %dx%d, %d walks: C %d steps, Go %d", c.rule, c.n, c.n, c.walks, got, want)
		}
		// xoroshiro128+: other walks, of a like mean length (a loose
		// bound: a hundred random walks' lengths spread by some 20 %).
		if got := float64(run(append([]string{c.c}, append(c.args, "xoroshiro")...)...)); got < 0.6*float64(want) || got > 1.5*float64(want) {
			t.Errorf("%s %dx%d xoroshiro: %v steps, the project's stream %d", c.rule, c.n, c.n, got, want)
		}
	}
}
