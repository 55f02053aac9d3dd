package exactstore

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/procstat"
	"github.com/knightwalk/knightwalk/sim"
)

var (
	generate       = flag.String("generate", "", "TestGenerate: the board to enumerate and store, e.g. 10x10")
	generateRule   = flag.String("generate-rule", "warnsdorff/random", "TestGenerate: the rule")
	generateSpill  = flag.String("generate-spill", "", "TestGenerate: a directory to spill the layers to")
	generateMemory = flag.Int64("generate-memory", 2<<30, "TestGenerate: the bytes the enumeration may take")
	generateFirst  = flag.String("generate-first", "", "TestGenerate: the start square to enumerate first (the largest, so that a long run is seen to fit early)")
)

// TestGenerate enumerates one start square of each orbit of a board and
// writes data/BOARD-RULE.json, one orbit at a time (an interrupted run
// goes on from the orbits already written). It runs only when asked:
//
//	go test ./internal/exactstore -run TestGenerate -timeout 0 -v \
//	    -generate 10x10 -generate-spill /tmp/spill -generate-first e5
//
// 10x10 took some 50 CPU-minutes on 2 cores (docs/exact.md).
func TestGenerate(t *testing.T) {
	if *generate == "" {
		t.Skip("only with -generate BOARD")
	}
	b, err := sim.ParseBoard(*generate)
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.ParseRule(*generateRule)
	if err != nil {
		t.Fatal(err)
	}
	spec, ok := Spec(r)
	if !ok {
		t.Fatalf("%s is not a rule the store holds (symmetric rules only)", r.Name())
	}
	file := filepath.Join("data", strings.ReplaceAll(fmt.Sprintf("%s-%s.json", b, spec), "/", "-"))
	f := &File{Board: b.String(), RuleSpec: spec, Machine: cpuModel(),
		Command: fmt.Sprintf("go test ./internal/exactstore -run TestGenerate -timeout 0 -generate %s -generate-rule %s -generate-memory %d -generate-spill DIR", b, r.Name(), *generateMemory)}
	if old, err := os.ReadFile(file); err == nil {
		if err := json.Unmarshal(old, f); err != nil {
			t.Fatal(err)
		}
	}
	have := map[string]bool{}
	for _, o := range f.Orbits {
		have[o.Start] = true
	}
	reps := Representatives(b)
	if *generateFirst != "" {
		sq, err := b.ParseSquare(*generateFirst)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range reps {
			if s == sq {
				reps = append([]int{sq}, append(reps[:i:i], reps[i+1:]...)...)
			}
		}
	}
	for _, sq := range reps {
		name := b.SquareName(sq)
		if have[name] {
			continue
		}
		var largest, disk int64
		opt := exact.Options{Budget: 1 << 40, MaxMemory: *generateMemory, Workers: 2, Spill: *generateSpill,
			Layers: func(l exact.Layer) {
				largest, disk = max(largest, l.States), max(disk, l.DiskBytes)
				t.Logf("%s: path length %d: %d states, %d passes, %d bytes on disk", name, l.Depth, l.States, l.Runs, l.DiskBytes)
			}}
		cpu0, t0 := procstat.CPUSeconds(), time.Now()
		res, err := exact.Walks(context.Background(), b, r, []int{sq}, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		e := res[0]
		o := orbitOf(b, e)
		o.CPUSeconds, o.LargestLayer, o.PeakDisk = procstat.CPUSeconds()-cpu0, largest, disk
		f.Orbits = append(f.Orbits, o)
		t.Logf("%s: %v, %d states, %.0f CPU-s, %v", name, e.PSuccess, e.Nodes, procstat.CPUSeconds()-cpu0, time.Since(t0))
		f.sortOrbits(b)
		out, err := json.MarshalIndent(f, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file+".tmp", append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(file+".tmp", file); err != nil {
			t.Fatal(err)
		}
	}
}

// sortOrbits puts the orbits in the order of their squares.
func (f *File) sortOrbits(b *sim.Board) {
	slices.SortFunc(f.Orbits, func(x, y Orbit) int {
		sx, _ := b.ParseSquare(x.Start)
		sy, _ := b.ParseSquare(y.Start)
		return sx - sy
	})
}

// orbitOf is what the store keeps of an enumeration's result.
func orbitOf(b *sim.Board, e exact.Result) Orbit {
	return Orbit{Start: b.SquareName(e.Start), PSuccess: e.PSuccess, PClosed: e.PClosed, PStopped: e.PStopped,
		MeanLength: e.MeanLength, MeanTies: e.MeanTies, Lengths: e.Lengths, DeadEnds: e.DeadEnds, Nodes: e.Nodes,
		TreeNodes: e.TreeNodes}
}

func cpuModel() string {
	fh, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
