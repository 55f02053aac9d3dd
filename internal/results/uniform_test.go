package results

import (
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/stats"
)

// TestUniformStartOneIntervalMethod: the boards table gives the uniform-
// start rate one interval whatever the allocation. With squares of very
// different rates (0 to 1 across 7×7), every square at 1000 walks gives the
// pooled interval; one square at 1001 walks (a sequential run's unequal
// allocation) must give about the same interval, not one 5× narrower (the
// stratified mean's effective sample size, which leaves out the spread
// between squares, did).
func TestUniformStartOneIntervalMethod(t *testing.T) {
	y := "name: u\nboards: [7x7]\nstarts: all\nwalks: {until: half_width, half_width: 0.01, min: 100, max: 2000}\nrules: [{name: warnsdorff}]\n"
	c, err := config.Parse("u.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	e, err := config.Resolve(c, "u.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	b := e.Boards[0]
	build := func(extra uint64) *Tables {
		ts := map[int]*stats.Tally{}
		for i, sq := range e.Starts[0] {
			n := uint64(1000)
			if i == 0 {
				n += extra
			}
			k := uint64(i) * n / uint64(len(e.Starts[0])-1) // rates 0 … 1
			tl := stats.NewTally(b.Squares())
			tl.Walks, tl.Successes = n, k
			tl.Lengths[b.Squares()], tl.Lengths[1], tl.DeadEnds[sq] = k, n-k, n-k
			ts[sq] = tl
		}
		tb, err := Build(e, func(_, _, s int) *stats.Tally { return ts[s] })
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	eq, uneq := build(0).Boards[0], build(1).Boards[0]
	w0, w1 := eq.SuccessHi-eq.SuccessLo, uneq.SuccessHi-uneq.SuccessLo
	t.Logf("equal walks: %.5f [%.5f, %.5f]; one square +1 walk: %.5f [%.5f, %.5f]", eq.SuccessRate, eq.SuccessLo, eq.SuccessHi, uneq.SuccessRate, uneq.SuccessLo, uneq.SuccessHi)
	if r := w1 / w0; r < 0.97 || r > 1.03 {
		t.Errorf("the interval's width changes by a factor %.3f with one walk more on one square; want one method whatever the allocation", r)
	}
}
