package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/knightwalk/knightwalk/internal/runner"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// IsTerminal reports whether w is a terminal, where progress is shown.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// ProgressBar returns a live bar (walks done, walks/s, ETA) when w is a
// terminal, and nil otherwise so that the runner logs plain lines.
func ProgressBar(w io.Writer) func(total uint64, done *atomic.Uint64) func() {
	if !IsTerminal(w) {
		return nil
	}
	return func(total uint64, done *atomic.Uint64) func() {
		return bar(w, total, done)
	}
}

// bar draws the live bar on w, whatever w is, until the returned stop,
// which always ends it: completed when done reached total, aborted
// otherwise. mpb waits for a bar of total 0 to complete, which none does
// of itself, so nothing is drawn for no walks: stop must never wait on a
// count that may be zero.
func bar(w io.Writer, total uint64, done *atomic.Uint64) func() {
	if total == 0 {
		return func() {}
	}
	p := mpb.New(mpb.WithOutput(w), mpb.WithWidth(40), mpb.WithRefreshRate(150*time.Millisecond))
	t0 := time.Now()
	eta := func(s decor.Statistics) string { // runner.ETA: "unknown" until a walk has finished
		return "  ETA " + runner.ETA(uint64(max(0, s.Current)), uint64(max(0, s.Total)), time.Since(t0))
	}
	b := p.AddBar(int64(total),
		mpb.PrependDecorators(decor.Name("walks "), decor.CountersNoUnit("%d / %d")),
		mpb.AppendDecorators(decor.AverageSpeed(0, " %.0f walks/s"), decor.Any(eta)))
	stop := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				d := done.Load()
				b.SetCurrent(int64(d)) // completes a bar of total > 0 at d >= total
				if d < total {
					b.Abort(false)
				} else {
					b.EnableTriggerComplete() // and one of total 0
				}
				return
			case <-t.C:
				b.SetCurrent(int64(done.Load()))
			}
		}
	}()
	return func() { close(stop); <-finished; p.Wait() }
}

// ProgressLine redraws one status line on w every 200 ms while work goes
// on, when w is a terminal; line renders it from the time elapsed. The
// returned stop clears the line. Elsewhere (a file, a pipe, a test) it
// writes nothing.
func ProgressLine(w io.Writer, line func(elapsed time.Duration) string) (stop func()) {
	if !IsTerminal(w) {
		return func() {}
	}
	t0 := time.Now()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(w, "\r\033[K")
				return
			case <-t.C:
				fmt.Fprintf(w, "\r\033[K%s", line(time.Since(t0)))
			}
		}
	}()
	return func() { close(done); <-finished }
}

// rate formats a count per second over elapsed.
func Rate(n int64, elapsed time.Duration) string {
	if elapsed <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.3g", float64(n)/elapsed.Seconds())
}

// ByteSize is a flag holding a number of bytes, written as 4GiB, 512MiB,
// 1.5G (binary multiples either way) or a plain number of bytes.
type ByteSize int64

func (b *ByteSize) String() string { return FormatSize(int64(*b)) }

func (b *ByteSize) Set(s string) error {
	t := strings.TrimSpace(s)
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1}} {
		if strings.HasSuffix(strings.ToUpper(t), strings.ToUpper(u.suffix)) {
			t, mult = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v*mult >= 1<<20) || v*mult > 1<<60 {
		return fmt.Errorf("%q: want a size from 1MiB to 1EiB, e.g. 4GiB or 512MiB", s)
	}
	*b = ByteSize(v * mult)
	return nil
}

// FormatSize writes a byte count in binary units for people: three
// significant digits ("2.37 GiB", "9.6 MiB", "4 GiB"), as --max-memory
// accepts it back.
func FormatSize(b int64) string {
	v, unit := float64(b), "B"
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"} {
		if v < 1024 {
			break
		}
		v, unit = v/1024, u
	}
	if v >= 100 {
		return fmt.Sprintf("%.0f %s", v, unit)
	}
	return fmt.Sprintf("%.3g %s", v, unit)
}
