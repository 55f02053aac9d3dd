package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/knightwalk/knightwalk/sim"
)

// PrintGrid prints one value per square as a chess diagram: the highest
// rank at the top, rank numbers down the left, files along the bottom.
// Squares for which cell returns "" print as ".".
func PrintGrid(w io.Writer, b *sim.Board, cell func(sq int) string) {
	width := 1
	vals := make([]string, b.Squares())
	for sq := range vals {
		vals[sq] = cell(sq)
		if vals[sq] == "" {
			vals[sq] = "."
		}
		width = max(width, len(vals[sq]))
	}
	rw := len(strconv.Itoa(b.Rows))
	for r := b.Rows - 1; r >= 0; r-- {
		var line strings.Builder
		fmt.Fprintf(&line, "%*d ", rw, r+1)
		for c := 0; c < b.Cols; c++ {
			fmt.Fprintf(&line, " %*s", width, vals[b.Square(r, c)])
		}
		fmt.Fprintln(w, line.String())
	}
	var files strings.Builder
	fmt.Fprintf(&files, "%*s ", rw, "")
	for c := 0; c < b.Cols; c++ {
		name := string(rune('a' + c))
		if b.Cols > 26 {
			name = strconv.Itoa(c)
		}
		fmt.Fprintf(&files, " %*s", width, name)
	}
	fmt.Fprintln(w, files.String())
}
