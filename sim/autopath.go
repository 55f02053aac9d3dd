package sim

import (
	"sync"
	"time"
)

// Auto-selection: which kernel path is fastest depends on the CPU in ways
// no feature bit tells. On AMD Zen 3 (AVX2 and a fast PDEP, no AVX-512)
// the 16 walks in flight in Go (PathPDEP16) measured 0.81× the scalar
// kernel for Warnsdorff but 1.58× for the random walk; on Zen 4
// the AVX-512 rounds are the fastest for both; how the AVX2 rounds compare
// on Zen 2 (256-bit instructions split in two) or Intel desktop parts is
// unmeasured here. So the choice is measured, not tabled: the first walker
// of a rule in a process times every path the CPU can run on a fixed 8x8
// workload, alternating paths and keeping each one's best of a few rounds
// (a slice taken by another process lengthens one round, not the best),
// and takes the fastest. It costs a few milliseconds per rule and process
// and is kept for the process; the choice changes speed only, never a
// walk, so a noisy measurement can cost time but not a result. The same
// 8x8 choice serves every board of at most 64 squares.
var autoPaths = struct {
	sync.Mutex
	m map[string]KernelPath
}{m: map[string]KernelPath{}}

// autoPath returns the fastest path for rule r on this CPU, measuring it
// the first time it is asked for r's rule family and tie-break (max_steps
// does not change the choice).
func autoPath(r Rule) KernelPath {
	cands := autoCandidates(r)
	if len(cands) == 1 {
		return cands[0]
	}
	key := Rule{Kind: r.Kind, TieBreak: r.TieBreak, Order: r.Order}.Name()
	autoPaths.Lock()
	defer autoPaths.Unlock()
	if p, ok := autoPaths.m[key]; ok {
		return p
	}
	p := calibrate(r, cands)
	autoPaths.m[key] = p
	return p
}

// autoCandidates lists the distinct paths this CPU can run r on (for a
// rule without vector rounds the AVX paths are PathPDEP16).
func autoCandidates(r Rule) []KernelPath {
	var cands []KernelPath
	seen := map[KernelPath]bool{}
	for _, p := range KernelPaths() {
		if e := p.effective(r); !seen[e] {
			seen[e] = true
			cands = append(cands, e)
		}
	}
	return cands
}

// calibrate times cands on r (without max_steps) on the 8x8 board and
// returns the fastest: each path's best of calibrationRounds rounds of
// 1024 walks (eight starts spread over the board, 128 walks each, in the
// runner's runs), the paths alternating within each round.
func calibrate(r Rule, cands []KernelPath) KernelPath {
	const calibrationRounds = 5
	b := MustBoard(8, 8)
	r.MaxSteps = 0
	walkers := make([]*Walker, len(cands))
	for i, p := range cands {
		walkers[i], _ = newWalker(b, r, false, p)
	}
	starts := []int{0, 9, 18, 27, 36, 45, 54, 63}
	keys := make([]Key, len(starts))
	for i, s := range starts {
		keys[i] = NewKey(1, b, r, s)
	}
	out := make([]Outcome, 128)
	best := make([]time.Duration, len(cands))
	for round := range calibrationRounds {
		for i, w := range walkers {
			t0 := time.Now()
			for j, s := range starts {
				w.WalkRange(s, keys[j], uint64(round)*128, out)
			}
			if d := time.Since(t0); round == 0 || d < best[i] {
				best[i] = d
			}
		}
	}
	fastest := 0
	for i := range cands {
		if best[i] < best[fastest] {
			fastest = i
		}
	}
	return cands[fastest]
}
