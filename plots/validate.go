package plots

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/plot/plotter"
)

// ErrLength reports slices that should have the same length but do not.
var ErrLength = errors.New("plots: mismatched lengths")

// checkFinite returns an error wrapping plotter.ErrNaN or plotter.ErrInfinity
// for the first value of vs that is not finite. what names the slice in the
// message.
func checkFinite(what string, vs []float64) error {
	for i, v := range vs {
		if err := checkValue(fmt.Sprintf("%s[%d]", what, i), v); err != nil {
			return err
		}
	}
	return nil
}

func checkValue(what string, v float64) error {
	switch {
	case math.IsNaN(v):
		return fmt.Errorf("%s is NaN: %w", what, plotter.ErrNaN)
	case math.IsInf(v, 0):
		return fmt.Errorf("%s is %v: %w", what, v, plotter.ErrInfinity)
	}
	return nil
}

// checkLengths returns an error wrapping ErrLength unless every slice named in
// names has length n.
func checkLengths(n int, names []string, lens ...int) error {
	for i, l := range lens {
		if l != n {
			return fmt.Errorf("%s has %d values, want %d: %w", names[i], l, n, ErrLength)
		}
	}
	return nil
}

func noData(what string) error {
	return fmt.Errorf("%s: %w", what, plotter.ErrNoData)
}
