package main

import (
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// progressBar returns a live bar (walks done, walks/s, ETA) when w is a
// terminal, and nil otherwise so that the runner logs plain lines.
func progressBar(w io.Writer) func(total uint64, done *atomic.Uint64) func() {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return func(total uint64, done *atomic.Uint64) func() {
		p := mpb.New(mpb.WithOutput(w), mpb.WithWidth(40), mpb.WithRefreshRate(150*time.Millisecond))
		bar := p.AddBar(int64(total),
			mpb.PrependDecorators(decor.Name("walks "), decor.CountersNoUnit("%d / %d")),
			mpb.AppendDecorators(decor.AverageSpeed(0, " %.0f walks/s"), decor.Name("  ETA "), decor.AverageETA(decor.ET_STYLE_GO)))
		stop := make(chan struct{})
		finished := make(chan struct{})
		go func() {
			defer close(finished)
			t := time.NewTicker(100 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-stop:
					bar.SetCurrent(int64(done.Load()))
					if done.Load() < total {
						bar.Abort(false)
					}
					return
				case <-t.C:
					bar.SetCurrent(int64(done.Load()))
				}
			}
		}()
		return func() { close(stop); <-finished; p.Wait() }
	}
}
