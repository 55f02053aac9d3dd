// Package plots draws the harness's figures for papers and screens with
// gonum.org/v1/plot.
//
// It draws from plain values (slices, grids, summaries) and knows nothing of
// simulations, Parquet or YAML: the caller turns its tables into the data
// types here (HeatmapData, Series, Line, ConvergenceData, WalkData) and
// its experiment options into the option fields and structs (HeatmapData's
// Scale, Failure, Percent, Interval and NoStart; LengthOptions;
// SizeOptions with published References). It computes no statistic: every
// rate, interval and caption number it draws is the caller's (the harness
// computes them in internal/results, with the functions its tables use),
// and it imports nothing of the project. The checks that read a drawn
// figure as a referee would are in internal/plotcheck.
//
// Figures are made to show effects, not to hold a fixed frame: a heatmap's
// colour scale runs over the data (its ends labelled on the colour bar)
// unless the caller fixes it, labels carry the digits that tell squares
// apart, failure rates go on a log scale, a length distribution dominated
// by one bin gets a log y axis, and axes end at the data.
//
// Every constructor validates its data first and returns an error, never a
// blank or misleading picture, for NaN, ±Inf, empty data or mismatched
// lengths; the errors wrap plotter.ErrNaN, plotter.ErrInfinity,
// plotter.ErrNoData or ErrLength so callers can test them with errors.Is.
//
// Figures are sized for a paper's single column (ColumnWidth, 3.5 in) with
// 7-9 pt text, so they can be included at 100 % without rescaling. Save writes
// the same figure as PNG (for screens, PNGDPI dots per inch), SVG and PDF (for
// print). Colours are colour-blind safe: viridis for sequential heatmaps and
// the Okabe–Ito palette, with distinct dash patterns and markers, for lines,
// so that figures also survive greyscale printing.
//
// Board coordinates follow the harness's conventions: square index
// row*cols+col, row 0 at the bottom (rank 1), column 0 on the left (file a).
package plots
