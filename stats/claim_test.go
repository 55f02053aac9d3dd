package stats

import (
	"math"
	"strings"
	"testing"
)

func iv(lo, hi float64) Summary {
	return Summary{Center: (lo + hi) / 2, Lo: lo, Hi: hi, Confidence: 0.95}
}

func TestVerdict(t *testing.T) {
	below20 := Claim{Kind: Below, Value: 0.2}
	above50 := Claim{Kind: Above, Value: 0.5}
	range7080 := Claim{Kind: Range, Lo: 0.7, Hi: 0.8}
	about85 := Claim{Kind: Rate, Value: 0.85, Tolerance: 0.05}
	point85 := Claim{Kind: Rate, Value: 0.85}
	for _, c := range []struct {
		claim Claim
		s     Summary
		want  string
	}{
		// Below x: [0, x).
		{below20, iv(0.10, 0.15), Consistent},
		{below20, iv(0.10, 0.2), Inconclusive}, // hi == x: 0.2 itself is not below 0.2
		{below20, iv(0.15, 0.25), Inconclusive},
		{below20, iv(0.2, 0.25), Refuted}, // lo == x: nothing in the interval is below 0.2
		{below20, iv(0.21, 0.25), Refuted},
		{below20, iv(0, 0.01), Consistent},
		{below20, iv(0.2, 0.2), Refuted},
		// Above x: (x, 1].
		{above50, iv(0.6, 0.7), Consistent},
		{above50, iv(0.5, 0.7), Inconclusive}, // lo == x: 0.5 is not above 0.5
		{above50, iv(0.4, 0.5), Refuted},      // hi == x: nothing above 0.5
		{above50, iv(0.3, 0.4), Refuted},
		{above50, iv(0.99, 1), Consistent},
		// Range [a, b], closed.
		{range7080, iv(0.7, 0.8), Consistent},
		{range7080, iv(0.72, 0.78), Consistent},
		{range7080, iv(0.65, 0.75), Inconclusive},
		{range7080, iv(0.75, 0.85), Inconclusive},
		{range7080, iv(0.6, 0.9), Inconclusive},
		{range7080, iv(0.6, 0.7), Inconclusive}, // touches a: 0.7 is claimed
		{range7080, iv(0.8, 0.9), Inconclusive},
		{range7080, iv(0.6, 0.6999), Refuted},
		{range7080, iv(0.8001, 0.9), Refuted},
		// Rate with tolerance: [r − t, r + t].
		{about85, iv(0.81, 0.89), Consistent},
		{about85, iv(0.79, 0.86), Inconclusive},
		{about85, iv(0.91, 0.95), Refuted},
		{Claim{Kind: Rate, Value: 0.98, Tolerance: 0.05}, iv(0.97, 1), Consistent}, // clipped to [0.93, 1]
		// Point claim: a test of the point.
		{point85, iv(0.84, 0.86), Consistent},
		{point85, iv(0.85, 0.86), Consistent},
		{point85, iv(0.84, 0.85), Consistent},
		{point85, iv(0.86, 0.87), Refuted},
		{point85, iv(0.8, 0.8499), Refuted},
		// No data: [0, 1] decides nothing, except a claim of everything.
		{below20, Proportion{0, 0}.Interval(0.95, Wilson), Inconclusive},
		{Claim{Kind: Range, Lo: 0, Hi: 1}, Proportion{0, 0}.Interval(0.95, Wilson), Consistent},
		{below20, Summary{Lo: math.NaN(), Hi: 0.1}, Inconclusive},
	} {
		if got := Verdict(c.claim, c.s); got != c.want {
			t.Errorf("Verdict(%v, [%v, %v]) = %s, want %s", c.claim, c.s.Lo, c.s.Hi, got, c.want)
		}
	}
}

// TestVerdictFromCounts runs the whole path on seed 000's corner claim with
// counts: 150 successes in 1000 corner walks is clearly below 20%.
func TestVerdictFromCounts(t *testing.T) {
	below20 := Claim{Kind: Below, Value: 0.2}
	for _, c := range []struct {
		p    Proportion
		want string
	}{
		{Proportion{150, 1000}, Consistent},   // [12.92, 17.35]%
		{Proportion{190, 1000}, Inconclusive}, // [16.69, 21.55]%
		{Proportion{250, 1000}, Refuted},      // [22.42, 27.78]%
	} {
		s := c.p.Interval(0.95, Wilson)
		if got := Verdict(below20, s); got != c.want {
			t.Errorf("%v (%v) vs %v: %s, want %s", c.p, s, below20, got, c.want)
		}
	}
}

func TestClaimValidate(t *testing.T) {
	good := []Claim{
		{Kind: Rate, Value: 0.85},
		{Kind: Rate, Value: 0, Tolerance: 0.1},
		{Kind: Range, Lo: 0.7, Hi: 0.8},
		{Kind: Below, Value: 1},
		{Kind: Above, Value: 0},
	}
	bad := []Claim{
		{Kind: Rate, Value: 85},
		{Kind: Rate, Value: 0.5, Tolerance: -0.1},
		{Kind: Rate, Value: 0.5, Tolerance: math.Inf(1)},
		{Kind: Rate, Value: math.NaN()},
		{Kind: Range, Lo: 0.8, Hi: 0.7},
		{Kind: Range, Lo: 0.7, Hi: 0.7},
		{Kind: Below, Value: 0},
		{Kind: Above, Value: 1},
		{Kind: ClaimKind(9)},
	}
	for _, c := range good {
		if err := c.Validate(); err != nil {
			t.Errorf("%v: %v", c, err)
		}
	}
	for _, c := range bad {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v: Validate() = nil, want an error", c)
		}
	}
	defer func() {
		if s, _ := recover().(string); !strings.HasPrefix(s, "stats: ") {
			t.Errorf("Verdict on an invalid claim: want a stats: panic, got %q", s)
		}
	}()
	Verdict(bad[0], iv(0.1, 0.2))
}

func TestClaimString(t *testing.T) {
	for c, want := range map[Claim]string{
		{Kind: Rate, Value: 0.85, Tolerance: 0.05}: "rate 85% ± 5%",
		{Kind: Rate, Value: 0.85}:                  "rate 85%",
		{Kind: Range, Lo: 0.7, Hi: 0.8}:            "range [70%, 80%]",
		{Kind: Below, Value: 0.2}:                  "below 20%",
		{Kind: Above, Value: 0.5}:                  "above 50%",
	} {
		if got := c.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
	for _, k := range []ClaimKind{Rate, Range, Below, Above} {
		if got, err := ParseClaimKind(k.String()); err != nil || got != k {
			t.Errorf("ParseClaimKind(%q) = %v, %v", k.String(), got, err)
		}
	}
	if _, err := ParseClaimKind("about"); err == nil {
		t.Error("ParseClaimKind(about) succeeded")
	}
}

// TestClaimHolds: the ends of each kind of set, as Verdict reads them.
func TestClaimHolds(t *testing.T) {
	for _, c := range []struct {
		claim Claim
		x     float64
		want  bool
	}{
		{Claim{Kind: Below, Value: 0.2}, 0.2, false},
		{Claim{Kind: Below, Value: 0.2}, 0.1999, true},
		{Claim{Kind: Above, Value: 0.98}, 0.98, false},
		{Claim{Kind: Above, Value: 0.98}, 0.979578, false},
		{Claim{Kind: Above, Value: 0.98}, 0.9801, true},
		{Claim{Kind: Rate, Value: 0.75}, 0.75, true},
		{Claim{Kind: Rate, Value: 0.85, Tolerance: 0.05}, 0.9, true},
		{Claim{Kind: Rate, Value: 0.85, Tolerance: 0.05}, 0.9001, false},
		{Claim{Kind: Range, Lo: 0.7, Hi: 0.8}, 0.7, true},
		{Claim{Kind: Range, Lo: 0.7, Hi: 0.8}, math.NaN(), false},
	} {
		if got := c.claim.Holds(c.x); got != c.want {
			t.Errorf("%v holds for %v: got %v, want %v", c.claim, c.x, got, c.want)
		}
	}
}

// TestVerdictPValueMatchesVerdict: the p-value is decisive at a level
// exactly when Verdict is, across kinds, methods and counts.
func TestVerdictPValueMatchesVerdict(t *testing.T) {
	claims := []Claim{{Kind: Below, Value: 0.2}, {Kind: Above, Value: 0.98}, {Kind: Rate, Value: 0.75, Tolerance: 0.025},
		{Kind: Range, Lo: 0.7, Hi: 0.8}, {Kind: Rate, Value: 0.5}}
	for _, c := range claims {
		for _, m := range []Method{Wilson, ClopperPearson} {
			for _, x := range []Proportion{{0, 100}, {15, 100}, {20, 100}, {98, 100}, {990, 1000}, {74, 100}, {500, 1000}, {5, 8}} {
				p := VerdictPValue(c, x, m)
				for _, conf := range []float64{0.9, 0.95, 0.99} {
					v := Verdict(c, x.Interval(conf, m))
					decisive := v == Refuted || v == Consistent && !(c.Kind == Rate && c.Tolerance == 0)
					if (p <= 1-conf) != decisive && math.Abs(p-(1-conf)) > 1e-9 {
						t.Errorf("%v, %d/%d, %v: p %.6g but at %v the verdict is %s", c, x.Successes, x.Trials, m, p, conf, v)
					}
				}
			}
		}
	}
}

// TestProved: a success refutes probability zero and confirms "above 0";
// a failure refutes rate 1 and confirms "below 1"; nothing else is proved.
func TestProved(t *testing.T) {
	cases := []struct {
		c              Claim
		k, n           uint64
		holds, decided bool
	}{
		{Claim{Kind: Rate, Value: 0}, 1, 100, false, true},
		{Claim{Kind: Rate, Value: 0}, 0, 100, false, false},
		{Claim{Kind: Rate, Value: 1}, 99, 100, false, true},
		{Claim{Kind: Rate, Value: 1}, 100, 100, false, false},
		{Claim{Kind: Above, Value: 0}, 1, 100, true, true},
		{Claim{Kind: Above, Value: 0}, 0, 100, false, false},
		{Claim{Kind: Below, Value: 1}, 5, 100, true, true},
		{Claim{Kind: Below, Value: 1}, 100, 100, false, false},
		{Claim{Kind: Below, Value: 0.0295}, 1, 100, false, false},
		{Claim{Kind: Above, Value: 0.5}, 100, 100, false, false},
		{Claim{Kind: Rate, Value: 0, Tolerance: 0.01}, 3, 100, false, false},
		{Claim{Kind: Range, Lo: 0, Hi: 1}, 3, 100, true, true},
	}
	for _, c := range cases {
		holds, ok := Proved(c.c, c.k, c.n)
		if ok != c.decided || ok && holds != c.holds {
			t.Errorf("%v with %d of %d: proved %v holds %v, want %v %v", c.c, c.k, c.n, ok, holds, c.decided, c.holds)
		}
	}
}
