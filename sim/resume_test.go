package sim

import (
	"reflect"
	"testing"
)

// stepperRules are the rules a Stepper serves, with every kind of
// tie-break and a step limit.
func stepperRules(t *testing.T) []Rule {
	var rules []Rule
	for _, name := range []string{"random", "warnsdorff/random", "warnsdorff/first", "warnsdorff/pohl", "warnsdorff/roth", "warnsdorff/pohl+roth+first"} {
		r, err := ParseRule(name)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	// a rule of your own steps through its policy
	registerOnce(t, CustomRule{Name: "test/degree-sum2", New: func(*Board) Policy { return &degreeSum2{} }})
	return append(rules, Rule{Kind: RandomWalk, MaxSteps: 9}, Rule{Kind: Warnsdorff, TieBreak: TieRandom, MaxSteps: 20},
		Rule{Kind: Custom, Custom: "test/degree-sum2"}, Rule{Kind: Custom, Custom: "test/degree-sum2", MaxSteps: 15})
}

// TestStepperMatchesWalk: a stepper advanced to the end of a walk, in one
// go or in pieces, takes the walk Walk takes with the same stream, on the
// bitboard and the general kernel's boards alike.
func TestStepperMatchesWalk(t *testing.T) {
	for _, bd := range [][2]int{{5, 5}, {6, 7}, {8, 8}, {9, 9}, {21, 23}} {
		b := MustBoard(bd[0], bd[1])
		for _, r := range stepperRules(t) {
			w, err := NewWalker(b, r)
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewStepper(b, r)
			if err != nil {
				t.Fatal(err)
			}
			for _, start := range []int{0, b.Squares() / 2, b.Cols + 2} {
				key := NewKey(7, b, r, start)
				for i := uint64(0); i < 60; i++ {
					want := w.Walk(start, key, i)
					var src PCG
					src.Seed(key.Seeds(i))
					s.Begin(start)
					for piece := 1 + int(i%7); !s.Ended() && s.Advance(&src, s.Length()+piece); {
					}
					s.Advance(&src, b.Squares())
					if got := s.Outcome(); !reflect.DeepEqual(got, want) || !s.Ended() {
						t.Fatalf("%s %s start %d walk %d: stepper %+v (ended %v), Walk %+v", b, r, start, i, got, s.Ended(), want)
					}
				}
			}
		}
	}
}

// TestStepperSaveRestore: a walk saved at some length and restored, after
// the stepper ran other walks, continues exactly as it would have.
func TestStepperSaveRestore(t *testing.T) {
	b := MustBoard(12, 12)
	for _, r := range stepperRules(t) {
		s, err := NewStepper(b, r)
		if err != nil {
			t.Fatal(err)
		}
		key := NewKey(3, b, r, 0)
		var snap Snapshot
		for i := uint64(0); i < 40; i++ {
			var src PCG
			src.Seed(key.Seeds(i))
			s.Begin(0)
			reached := s.Advance(&src, 30)
			s.Save(&snap)
			saved := src
			s.Advance(&src, b.Squares())
			want := s.Outcome()

			s.Begin(5) // something else in between
			s.Advance(&src, 100)
			s.Restore(&snap)
			if snap.Length() != s.Length() || (reached && s.Length() != 30) {
				t.Fatalf("%s walk %d: restored length %d, snapshot %d", r, i, s.Length(), snap.Length())
			}
			src = saved
			s.Advance(&src, b.Squares())
			if got := s.Outcome(); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s walk %d: restored walk %+v, uninterrupted %+v", r, i, got, want)
			}
		}
	}
	bt, _ := ParseRule("backtrack")
	if _, err := NewStepper(b, bt); err == nil {
		t.Error("NewStepper(backtrack): no error")
	}
}
