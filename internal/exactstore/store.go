// Package exactstore holds exact results of enumerations too costly to
// repeat in a run, computed once by this program and committed: per
// (board, rule) the full exact.Result of one start square of each orbit of
// the board's symmetries, from which every start square's follows. A run
// with `exact: auto`, `on` or `bounds` takes a stored (board, rule) from
// here instead of enumerating it (internal/runner).
//
// Only rules that treat the board's symmetries alike are stored: the
// random walk and Warnsdorff's rule with a random tie-break, whose walks
// from a square and from its image under a symmetry are images of each
// other with the same probabilities. The stored float64 values are those
// of the enumeration from the orbit's first square in row-major order; an
// enumeration from another square of the orbit sums the same probabilities
// in another order and may differ from them in the last one or two bits
// (8x8: a1 0.97957849376104589, h1 0.97957849376104611).
//
// The files are written by TestGenerate (its doc comment says how) and
// checked by the slow suite: the cheaper orbits are enumerated again and
// must match bit for bit, and every stored distribution must be one.
package exactstore

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sync"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/sim"
)

// File is one stored (board, rule): the results of one start square per
// orbit, and how they were computed.
type File struct {
	Board    string  `json:"board"`     // e.g. "10x10"
	RuleSpec string  `json:"rule_spec"` // the rule's rule_spec, e.g. "warnsdorff/random"
	Command  string  `json:"command"`   // how the file was made
	Machine  string  `json:"machine"`   // the CPU that made it
	Orbits   []Orbit `json:"orbits"`    // in the order of their first squares
}

// Orbit is the exact result of an orbit's first square (row-major).
type Orbit struct {
	Start      string    `json:"start"` // the square's name, e.g. "e5"
	PSuccess   float64   `json:"p_success"`
	PClosed    float64   `json:"p_closed"`
	PStopped   float64   `json:"p_stopped"`
	MeanLength float64   `json:"mean_length"`
	MeanTies   float64   `json:"mean_ties"`
	Lengths    []float64 `json:"lengths"`   // P(path length L), L = 0..squares
	DeadEnds   []float64 `json:"dead_ends"` // P(failing at a dead end on square s), row-major
	Nodes      int64     `json:"nodes"`
	TreeNodes  float64   `json:"tree_nodes"`
	// What it took: CPU seconds of the process while it ran (all its
	// threads), its largest layer, and the peak disk of its spilled layers.
	CPUSeconds   float64 `json:"cpu_seconds"`
	LargestLayer int64   `json:"largest_layer"`
	PeakDisk     int64   `json:"peak_disk_bytes"`
}

//go:embed data
var data embed.FS

var (
	loadOnce sync.Once
	files    map[string]*File // by Board + " " + RuleSpec
	loadErr  error
)

func key(board, ruleSpec string) string { return board + " " + ruleSpec }

// Files returns the stored files, by board and rule_spec.
func Files() ([]*File, error) {
	loadOnce.Do(func() { files, loadErr = load(data) })
	if loadErr != nil {
		return nil, loadErr
	}
	out := make([]*File, 0, len(files))
	for _, f := range files {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b *File) int {
		if a.Board != b.Board {
			return cmpBoard(a.Board, b.Board)
		}
		return cmpString(a.RuleSpec, b.RuleSpec)
	})
	return out, nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpBoard(a, b string) int {
	ba, ea := sim.ParseBoard(a)
	bb, eb := sim.ParseBoard(b)
	if ea != nil || eb != nil {
		return cmpString(a, b)
	}
	if d := ba.Squares() - bb.Squares(); d != 0 {
		return d
	}
	return ba.Rows - bb.Rows
}

func load(fsys fs.FS) (map[string]*File, error) {
	names, err := fs.Glob(fsys, "data/*.json")
	if err != nil {
		return nil, err
	}
	out := map[string]*File{}
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		var f File
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("exactstore: %s: %w", path.Base(name), err)
		}
		if err := f.check(); err != nil {
			return nil, fmt.Errorf("exactstore: %s: %w", path.Base(name), err)
		}
		if out[key(f.Board, f.RuleSpec)] != nil {
			return nil, fmt.Errorf("exactstore: %s: %s %s stored twice", path.Base(name), f.Board, f.RuleSpec)
		}
		out[key(f.Board, f.RuleSpec)] = &f
	}
	return out, nil
}

// Spec returns the rule_spec under which r is stored, and whether r is a
// rule the store can hold: the random walk and Warnsdorff's rule with a
// random tie-break, without a step limit (their walks treat the board's
// symmetries alike; a move order does not change their probabilities).
func Spec(r sim.Rule) (string, bool) {
	if r.MaxSteps != 0 || r.Custom != "" {
		return "", false
	}
	switch {
	case r.Kind == sim.RandomWalk:
		return "random", true
	case r.Kind == sim.Warnsdorff && r.Name() == "warnsdorff/random":
		return "warnsdorff/random", true
	}
	return "", false
}

// Representatives returns the first square (row-major) of each orbit of
// b's symmetries, ascending.
func Representatives(b *sim.Board) []int {
	syms := b.Symmetries()
	var reps []int
	for sq := 0; sq < b.Squares(); sq++ {
		if rep, _ := representative(syms, sq); rep == sq {
			reps = append(reps, sq)
		}
	}
	return reps
}

// representative returns the first square of sq's orbit and the first
// symmetry (in Board.Symmetries' order) that maps it to sq.
func representative(syms [][]int32, sq int) (rep int, sym []int32) {
	rep = sq
	for _, p := range syms {
		rep = min(rep, int(p[sq]))
	}
	for _, p := range syms {
		if int(p[rep]) == sq {
			return rep, p
		}
	}
	panic("exactstore: no symmetry maps a square's orbit representative to it") // the identity always does
}

// check says what is wrong with a file as read: an unknown board or rule,
// an orbit that is not one's first square, a distribution of the wrong
// length or that does not sum to 1, orbits missing.
func (f *File) check() error {
	b, err := sim.ParseBoard(f.Board)
	if err != nil {
		return err
	}
	r, err := sim.ParseRule(f.RuleSpec)
	if err != nil {
		return err
	}
	if spec, ok := Spec(r); !ok || spec != f.RuleSpec {
		return fmt.Errorf("rule_spec %q: the store holds only random and warnsdorff/random", f.RuleSpec)
	}
	reps := Representatives(b)
	if len(f.Orbits) != len(reps) {
		return fmt.Errorf("%s %s: %d orbits stored, the board has %d", f.Board, f.RuleSpec, len(f.Orbits), len(reps))
	}
	for i, o := range f.Orbits {
		if b.SquareName(reps[i]) != o.Start {
			return fmt.Errorf("%s %s: orbit %d is %q, want its first square %s", f.Board, f.RuleSpec, i, o.Start, b.SquareName(reps[i]))
		}
		if len(o.Lengths) != b.Squares()+1 || len(o.DeadEnds) != b.Squares() {
			return fmt.Errorf("%s %s from %s: %d lengths and %d dead-end squares, want %d and %d", f.Board, f.RuleSpec, o.Start, len(o.Lengths), len(o.DeadEnds), b.Squares()+1, b.Squares())
		}
		var sum float64
		for _, p := range o.Lengths {
			sum += p
		}
		if sum < 1-1e-9 || sum > 1+1e-9 || o.Lengths[b.Squares()] != o.PSuccess {
			return fmt.Errorf("%s %s from %s: the lengths sum to %v and P(length %d) is %v, want 1 and P(success) %v", f.Board, f.RuleSpec, o.Start, sum, b.Squares(), o.Lengths[b.Squares()], o.PSuccess)
		}
	}
	return nil
}

// Lookup returns the stored exact result of rule r on b from start, if
// the store holds (b, r): the result of start's orbit, its dead ends
// carried to start's image of the board.
func Lookup(b *sim.Board, r sim.Rule, start int) (exact.Result, bool, error) {
	spec, ok := Spec(r)
	if !ok {
		return exact.Result{}, false, nil
	}
	if _, err := Files(); err != nil {
		return exact.Result{}, false, err
	}
	f := files[key(b.String(), spec)]
	if f == nil {
		return exact.Result{}, false, nil
	}
	e, err := f.exact(b, start)
	return e, err == nil, err
}

// exact returns the stored result of f's board b from start: that of
// start's orbit, its dead ends carried to start's image of the board.
func (f *File) exact(b *sim.Board, start int) (exact.Result, error) {
	if b.String() != f.Board || start < 0 || start >= b.Squares() {
		return exact.Result{}, fmt.Errorf("exactstore: %s %s holds no start %d on %s", f.Board, f.RuleSpec, start, b)
	}
	rep, sym := representative(b.Symmetries(), start)
	i := slices.Index(Representatives(b), rep)
	if i < 0 || i >= len(f.Orbits) {
		return exact.Result{}, fmt.Errorf("exactstore: %s %s holds no orbit of %s", f.Board, f.RuleSpec, b.SquareName(start))
	}
	o := f.Orbits[i]
	dead := make([]float64, len(o.DeadEnds))
	for sq, p := range o.DeadEnds {
		dead[sym[sq]] = p
	}
	return exact.Result{Start: start, PSuccess: o.PSuccess, PClosed: o.PClosed, PStopped: o.PStopped, MeanLength: o.MeanLength,
		MeanTies: o.MeanTies, Lengths: slices.Clone(o.Lengths), DeadEnds: dead, Nodes: o.Nodes, TreeNodes: o.TreeNodes}, nil
}
