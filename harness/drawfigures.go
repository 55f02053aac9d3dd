package harness

import (
	"context"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/figures"
)

// drawFigures draws the named figures into the result directory dir from
// its tables, with opts (when not nil) in place of the figure options its
// manifest records, and updates its report.
func drawFigures(ctx context.Context, dir string, names, with []string, opts *config.FigureOptions) ([]figures.Drawn, error) {
	drawn, err := figures.DrawWithOptions(ctx, dir, names, with, opts)
	if err != nil {
		return nil, err
	}
	return drawn, figures.UpdateReport(dir, drawn)
}

// experimentFigures is the runner's figure drawer: an experiment's own
// figures, drawn into its result before it is renamed into place.
func experimentFigures(ctx context.Context, dir string, names []string) error {
	_, err := drawFigures(ctx, dir, names, nil, nil)
	return err
}
