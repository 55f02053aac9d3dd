package exact

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/knightwalk/knightwalk/sim"
)

// TestExactMemoryRefusedUpFront: 8x8 with the random rule cannot fit in any
// reasonable memory; Walks says so from sampled walks, with the
// estimate, before enumerating anything.
func TestExactMemoryRefusedUpFront(t *testing.T) {
	b := sim.MustBoard(8, 8)
	r, _ := sim.ParseRule("random")
	var states atomic.Int64
	_, err := Walks(context.Background(), b, r, []int{0}, Options{MaxMemory: 64 << 20, Progress: &states})
	if !errors.Is(err, ErrMemory) || !strings.Contains(err.Error(), "8x8 random from a1: its layers hold at least about") ||
		!strings.Contains(err.Error(), "over the 22.4 MiB its states may take") {
		t.Fatalf("got %v; want ErrMemory with the estimate", err)
	}
	if states.Load() != 0 {
		t.Errorf("%d states expanded before the refusal; want none", states.Load())
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := estimateExactStates(cancelled, b, r, 0, 4<<30); !errors.Is(err, context.Canceled) {
		t.Errorf("estimate after cancel: %v, want context.Canceled", err)
	}
	est, err := estimateExactStates(context.Background(), b, r, 0, 4<<30)
	if err != nil || est.Bytes() <= 4<<30 || est.Walks != 1<<16 {
		t.Errorf("8x8 random from a1: estimate %+v (%d bytes); want more than 4 GiB from 65536 walks", est, est.Bytes())
	}
}

// TestExactMemoryDuringEnumeration: a budget that the estimate lets pass
// but the layers outgrow stops the enumeration when the layer would pass
// it; a budget that suffices changes nothing in the result.
func TestExactMemoryDuringEnumeration(t *testing.T) {
	b := sim.MustBoard(5, 5)
	r, _ := sim.ParseRule("random")
	want, err := Walk(context.Background(), b, r, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Walks(context.Background(), b, r, []int{0}, Options{MaxMemory: 1 << 30})
	if err != nil || !reflect.DeepEqual(got[0], want) {
		t.Errorf("1 GiB: err %v, result differs from Walk without a limit", err)
	}
	// The estimate (a lower bound) is below the real peak; find a limit
	// between the two.
	est, err := estimateExactStates(context.Background(), b, r, 0, 4<<20)
	if err != nil || est.Bytes() > 4<<20 {
		t.Fatalf("5x5 estimate %d bytes, want under 4 MiB for this test", est.Bytes())
	}
	_, err = Walks(context.Background(), b, r, []int{0}, Options{MaxMemory: 8 << 20})
	if !errors.Is(err, ErrMemory) || !strings.Contains(err.Error(), "outgrew the 2.8 MiB its states may take") {
		t.Errorf("8 MiB: got %v; want ErrMemory from the growing layer", err)
	}
	if want.Nodes < est.States+est.NextStates {
		t.Errorf("estimate %+v is more than the %d states expanded in all; it must be a lower bound", est, want.Nodes)
	}
}

// TestExactCancelPrompt: cancelling a large enumeration returns at once,
// not at the end of the layer (which takes seconds) — the ctx reaches the
// inner loops.
func TestExactCancelPrompt(t *testing.T) {
	b := sim.MustBoard(6, 6)
	r, _ := sim.ParseRule("random")
	ctx, cancel := context.WithCancel(context.Background())
	var states atomic.Int64
	done := make(chan error, 1)
	go func() {
		_, err := Walks(ctx, b, r, []int{0}, Options{MaxMemory: 1 << 30, Progress: &states})
		done <- err
	}()
	for states.Load() < 1<<18 { // into layers far larger than a check interval
		select {
		case err := <-done:
			t.Fatalf("the enumeration ended before it could be cancelled: %v", err)
		default:
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	t0 := time.Now()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want context.Canceled", err)
		}
		t.Logf("returned %v after cancel", time.Since(t0))
	case <-time.After(5 * time.Second):
		t.Fatal("no return 5 s after cancel")
	}
}

// TestSortStates: the cancellable merge sort gives exactly slices.SortFunc's
// order, for lengths around the run size.
func TestSortStates(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 4095, 4096, 4097, 3*4096 + 17, 9 * 4096} {
		xs := make([]exactState[words128], n)
		for i := range xs {
			// Distinct keys, as in a layer: i makes them so.
			xs[i] = exactState[words128]{set: set128{words128{uint64(i)<<8 | rng.Uint64()&0xff, rng.Uint64() & 0xf}}, cur: uint16(uint8(rng.Uint64())), p: float64(i)}
		}
		want := slices.Clone(xs)
		slices.SortFunc(want, func(x, y exactState[words128]) int {
			if c := x.set.compare(y.set); c != 0 {
				return c
			}
			return int(x.cur) - int(y.cur)
		})
		for threads := 1; threads <= 3; threads++ {
			in := slices.Clone(xs)
			got, spare, err := sortStates(context.Background(), in, make([]exactState[words128], 0, n), threads)
			if err != nil || !slices.Equal(got, want) || len(spare) != 0 {
				t.Errorf("n=%d, %d threads: sorted differently (err %v)", n, threads, err)
			}
		}
	}
}
