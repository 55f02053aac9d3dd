package sim

import (
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestKernelEnv: KernelEnv forces each path this CPU has (the AVX paths
// only for the rules with vector rounds), rejects an unknown one with the
// valid names, and rejects a path the CPU lacks, naming what it lacks
// and what it can run, rather than falling back.
func TestKernelEnv(t *testing.T) {
	b := MustBoard(8, 8)
	vec, _ := ParseRule("warnsdorff/random")
	other, _ := ParseRule("warnsdorff/roth")
	for _, p := range KernelPaths() {
		t.Setenv(KernelEnv, " "+string(p))
		w, err := NewWalker(b, vec)
		if err != nil {
			t.Fatalf("%s=%s: %v", KernelEnv, p, err)
		}
		if w.KernelPath() != p {
			t.Errorf("%s=%s: walker runs %s", KernelEnv, p, w.KernelPath())
		}
		w, _ = NewWalker(b, other)
		if want := p.effective(other); w.KernelPath() != want || (p == PathAVX2 || p == PathAVX512) && want != PathPDEP16 {
			t.Errorf("%s=%s: warnsdorff/roth runs %s, want %s", KernelEnv, p, w.KernelPath(), want)
		}
		if w, _ := NewWalker(MustBoard(9, 9), vec); w.KernelPath() != PathGeneral {
			t.Errorf("9x9 runs %s", w.KernelPath())
		}
	}
	for _, v := range []string{"", "auto"} {
		t.Setenv(KernelEnv, v)
		if w, err := NewWalker(b, vec); err != nil || !slices.Contains(KernelPaths(), w.KernelPath()) {
			t.Errorf("%s=%q: %v, path %v", KernelEnv, v, err, w)
		}
	}
	t.Setenv(KernelEnv, "sse9")
	if _, err := NewWalker(b, vec); err == nil || !strings.Contains(err.Error(), KernelEnv) || !strings.Contains(err.Error(), "auto, avx512, avx2, pdep16, scalar") {
		t.Errorf("unknown path: err = %v", err)
	}

	// A CPU without AVX-512 and AVX2.
	saved := cpuHas
	defer func() { cpuHas = saved }()
	cpuHas.avx512, cpuHas.avx2 = false, false
	for _, p := range []KernelPath{PathAVX512, PathAVX2} {
		t.Setenv(KernelEnv, string(p))
		_, err := NewWalker(b, vec)
		if err == nil || !strings.Contains(err.Error(), KernelEnv) || !strings.Contains(err.Error(), "lacks") || strings.Contains(err.Error(), "can run auto, avx") {
			t.Errorf("%s=%s without it: err = %v", KernelEnv, p, err)
		}
	}
	if got := KernelPaths(); slices.Contains(got, PathAVX2) || slices.Contains(got, PathAVX512) || !slices.Contains(got, PathScalar) {
		t.Errorf("paths without AVX: %v", got)
	}
}

// TestAutoPath: auto-selection picks one of the paths the CPU has for the
// rule, and keeps its choice.
func TestAutoPath(t *testing.T) {
	for _, name := range []string{"random", "warnsdorff/random", "warnsdorff/pohl"} {
		r, _ := ParseRule(name)
		p := autoPath(r)
		if !slices.Contains(autoCandidates(r), p) {
			t.Errorf("%s: auto picked %s, not among %v", name, p, autoCandidates(r))
		}
		r.MaxSteps = 7
		if q := autoPath(r); q != p {
			t.Errorf("%s: auto picked %s, then %s", name, p, q)
		}
	}
}

// TestCPUInfo: what bench records agrees with what the paths were chosen
// from.
func TestCPUInfo(t *testing.T) {
	c := CPUInfo()
	if c.Arch != runtime.GOARCH || c.Features == nil {
		t.Fatalf("CPUInfo() = %+v", c)
	}
	if runtime.GOARCH == "amd64" && haveBMI2 && (c.Vendor == "" || c.Family == 0) {
		t.Errorf("amd64 without vendor or family: %+v", c)
	}
	if haveAVX2 != (slices.Contains(c.Features, "avx2") && slices.Contains(c.Features, "os-ymm")) || haveBMI2 != slices.Contains(c.Features, "bmi2") {
		t.Errorf("features %v, AVX2 %v, BMI2 %v", c.Features, haveAVX2, haveBMI2)
	}
}
