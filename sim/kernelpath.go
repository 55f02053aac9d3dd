package sim

import (
	"fmt"
	"os"
	"strings"
)

// KernelPath names a way WalkRange runs walks on boards of at most 64
// squares. Every path walks the same walks, bit for bit (TestKernelsAgree);
// they differ only in speed, which depends on the CPU.
type KernelPath string

const (
	// PathAuto picks, per rule, the fastest path this CPU has, by a short
	// measurement (autopath.go).
	PathAuto KernelPath = "auto"
	// PathAVX512: 16 walks in flight, eight per 512-bit register
	// (vec_amd64.s), for the random walk and warnsdorff/random; other
	// tie-breaks run as PathPDEP16.
	PathAVX512 KernelPath = "avx512"
	// PathAVX2: 16 walks in flight, four per 256-bit register
	// (vec2_amd64.s), for the random walk and warnsdorff/random; other
	// tie-breaks run as PathPDEP16.
	PathAVX2 KernelPath = "avx2"
	// PathPDEP16: 16 walks in flight in scalar Go code, the select by
	// PDEP (batch.go).
	PathPDEP16 KernelPath = "pdep16"
	// PathScalar: 16 walks in flight in pure Go (batch.go), the select by
	// knightSelect's multiply hash (no PDEP); every CPU.
	PathScalar KernelPath = "scalar"
	// PathGeneral is not a choice: it names the kernel of boards over 64
	// squares (and of backtracking) in reports.
	PathGeneral KernelPath = "general"
	// PathPolicy and PathLanes are not choices either: they name, in
	// reports, the policy kernel of a rule of your own, one walk a call,
	// and its lanes (a LanePolicy on at most 64 squares, walkLanes; with
	// the check and the move by AVX-512: PathLanesAVX512).
	PathPolicy      KernelPath = "policy"
	PathLanes       KernelPath = "lanes"
	PathLanesAVX512 KernelPath = "lanes-avx512"
)

// KernelEnv is the environment variable that forces a kernel path:
// auto (the default, also when unset or empty), avx512, avx2, pdep16 or
// scalar. Asking for a path this CPU cannot run is an error from NewWalker,
// never a silent fallback.
const KernelEnv = "KNIGHTWALK_KERNEL"

// kernelPaths lists the paths that can be forced, most vectorised first.
var kernelPaths = []KernelPath{PathAVX512, PathAVX2, PathPDEP16, PathScalar}

// KernelPaths returns the paths this CPU (and OS) can run, most
// vectorised first; PathScalar is always among them.
func KernelPaths() []KernelPath {
	var ps []KernelPath
	for _, p := range kernelPaths {
		if p.lacks() == "" {
			ps = append(ps, p)
		}
	}
	return ps
}

// cpuHas holds what the paths need of the CPU and OS (a variable so that
// a test can take features away).
var cpuHas = struct{ bmi2, avx2, avx512 bool }{haveBMI2, haveAVX2, haveAVX512}

// lacks says what this CPU lacks to run p ("" when it can).
func (p KernelPath) lacks() string {
	switch p {
	case PathScalar:
		return ""
	case PathPDEP16:
		if !cpuHas.bmi2 {
			return "BMI2 (PDEP)"
		}
	case PathAVX2:
		if !cpuHas.bmi2 || !cpuHas.avx2 {
			return "AVX2 and BMI2 with the OS saving the YMM state"
		}
	case PathAVX512:
		if !cpuHas.bmi2 || !cpuHas.avx512 {
			return "AVX-512 F, DQ, CD and VPOPCNTDQ and BMI2 with the OS saving the ZMM state"
		}
	default:
		return "?"
	}
	return ""
}

// pathNames returns ps as a comma-separated list.
func pathNames(ps []KernelPath) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = string(p)
	}
	return strings.Join(s, ", ")
}

// ParseKernelPath parses a path name as KernelEnv takes it ("" is auto)
// and checks that this CPU can run it.
func ParseKernelPath(s string) (KernelPath, error) {
	p := KernelPath(strings.TrimSpace(s))
	switch p {
	case "", PathAuto:
		return PathAuto, nil
	case PathAVX512, PathAVX2, PathPDEP16, PathScalar:
	default:
		return "", fmt.Errorf("kernel path %q: valid paths are auto, %s", s, pathNames(kernelPaths))
	}
	if why := p.lacks(); why != "" {
		return "", fmt.Errorf("kernel path %s: this CPU (%s) lacks %s; it can run auto, %s", p, cpuName(), why, pathNames(KernelPaths()))
	}
	return p, nil
}

// KernelPathFromEnv returns the path KernelEnv asks for (PathAuto when it
// is unset), or an error naming the variable when it asks for an unknown
// path or one this CPU cannot run. It reads the environment on every call,
// so a test can set the variable between walkers.
func KernelPathFromEnv() (KernelPath, error) {
	p, err := ParseKernelPath(os.Getenv(KernelEnv))
	if err != nil {
		return "", fmt.Errorf("%s: %w", KernelEnv, err)
	}
	return p, nil
}

// effective returns the path that runs rule r when p is asked for: the
// AVX paths differ from PDEP16 only in the rules that have vector rounds.
func (p KernelPath) effective(r Rule) KernelPath {
	if (p == PathAVX512 || p == PathAVX2) && !hasVecRounds(r) {
		return PathPDEP16
	}
	return p
}

// setPath makes k's WalkRange run on path p (one this CPU can run, not
// PathAuto).
func (k *fastKernel) setPath(p KernelPath) {
	p = p.effective(k.rule)
	k.kpath = p
	k.batched = true
	k.hashChoose = p == PathScalar
	k.vec = nil
	switch p {
	case PathAVX512:
		k.vec = &avx512Rounds
	case PathAVX2:
		k.vec = &avx2Rounds
	}
}

// vecImpl is one implementation of the vector rounds: the AVX-512 or the
// AVX2 rounds. Both have vecWarnsdorff's contract (vec_amd64.go).
type vecImpl struct {
	warnsdorff, random func(ls *lanes, nb *[64]uint64, maxSteps uint64, rounds int) uint64
	reversed           bool // nb is indexed by 63-square (the AVX-512 rounds use VPLZCNTQ)
	group              int  // lanes per register: a stopped round leaves groups of this many lanes as they were
}

var (
	avx512Rounds = vecImpl{warnsdorff: vecWarnsdorff, random: vecRandom, reversed: true, group: 8}
	avx2Rounds   = vecImpl{warnsdorff: vec2Warnsdorff, random: vec2Random, group: 4}
)

// KernelPath returns the path the walker's WalkRange runs on (PathGeneral
// on boards over 64 squares and for backtracking; for a rule of your own
// PathPolicy, or PathLanes or PathLanesAVX512 where it runs in lanes).
func (w *Walker) KernelPath() KernelPath {
	switch {
	case w.pol != nil && w.pol.lanes != nil && w.pol.lanes.avx512:
		return PathLanesAVX512
	case w.pol != nil && w.pol.lanes != nil:
		return PathLanes
	case w.pol != nil && w.rule.Kind != Backtrack:
		return PathPolicy
	}
	if w.fast == nil {
		return PathGeneral
	}
	return w.fast.kpath
}
