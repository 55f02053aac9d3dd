package plots

import (
	"fmt"
	"image/color"
	"strconv"

	"gonum.org/v1/plot"
)

// maxLettered is the widest board whose files are lettered a…z.
const maxLettered = 26

// SquareName is the display name of square index sq on a board cols wide:
// file letter and rank ("a1", "d4") up to 26 columns, "r<row>c<col>"
// (0-based) on wider boards, as in the harness's tables.
func SquareName(cols, sq int) string {
	row, col := sq/cols, sq%cols
	if cols <= maxLettered {
		return string(rune('a'+col)) + strconv.Itoa(row+1)
	}
	return fmt.Sprintf("r%dc%d", row, col)
}

// tickStep is the labelling step for n cells along an axis: every cell up to
// 16, then a round step that keeps about a dozen labels.
func tickStep(n int) int {
	if n <= 16 {
		return 1
	}
	for _, s := range []int{2, 5, 10, 20, 25, 50, 100, 200, 250, 500} {
		if n/s <= 12 {
			return s
		}
	}
	return 1000
}

// boardTicks labels the cell centres i+0.5 along an axis of n cells: files
// a, b, c… (letters) or numbers 1…n. Thinned axes label the first cell and
// every step-th.
func boardTicks(n int, letters bool) plot.ConstantTicks {
	step := tickStep(n)
	var ts plot.ConstantTicks
	for i := range n {
		if !labelled(i, step, letters) {
			continue
		}
		label := strconv.Itoa(i + 1)
		if letters {
			label = string(rune('a' + i))
		}
		ts = append(ts, plot.Tick{Value: float64(i) + 0.5, Label: label})
	}
	return ts
}

// labelled reports whether cell i carries a label: every step-th from the
// first for letters and small steps (a, c, e…; 1, 3, 5…), else the first and
// the round numbers (1, 10, 20…).
func labelled(i, step int, letters bool) bool {
	if letters || step <= 2 {
		return i%step == 0
	}
	return i == 0 || (i+1)%step == 0
}

// labelTicks labels the cell centres i+0.5 with labels[i], thinned as
// boardTicks thins numbers when there are many.
func labelTicks(labels []string) plot.ConstantTicks {
	step := tickStep(len(labels))
	var ts plot.ConstantTicks
	for i, l := range labels {
		if labelled(i, step, false) {
			ts = append(ts, plot.Tick{Value: float64(i) + 0.5, Label: l})
		}
	}
	return ts
}

// boardAxes sets p's axes to a board of rows × cols unit cells with board
// coordinates as tick labels and no axis lines or padding, so cells meet the
// frame.
func boardAxes(p *plot.Plot, rows, cols int) {
	p.X.Min, p.X.Max = 0, float64(cols)
	p.Y.Min, p.Y.Max = 0, float64(rows)
	p.X.Tick.Marker = boardTicks(cols, cols <= maxLettered)
	p.Y.Tick.Marker = boardTicks(rows, false)
	p.X.Label.Text = "file"
	p.Y.Label.Text = "rank"
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Padding = 0
		ax.LineStyle.Color = color.Transparent
		ax.LineStyle.Width = 0
		ax.Tick.Length = 2
	}
}
