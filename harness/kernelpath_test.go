package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// TestKernelPathsSameTables runs the default experiment (2,000 walks a
// square; 50,000 with KNIGHTWALK_SLOW=1) with KNIGHTWALK_KERNEL forcing each
// kernel path this CPU has, and requires every table byte for byte the
// same: a path changes speed, never a number.
func TestKernelPathsSameTables(t *testing.T) {
	src, err := os.ReadFile("../experiments/default.yaml")
	if err != nil {
		t.Fatal(err)
	}
	walks := "2000"
	if os.Getenv("KNIGHTWALK_SLOW") != "" {
		walks = "50000"
	}
	const line = "\nwalks: {until: decided, min: 10000, max: 250000}\n"
	if !bytes.Contains(src, []byte(line)) {
		t.Fatalf("experiments/default.yaml: no %q line to shrink", line)
	}
	tmp := t.TempDir()
	cfg := filepath.Join(tmp, "default.yaml")
	// No exact values: they come from the enumeration, not from a kernel
	// path, and are 8x8's from every square (seconds of CPU).
	if err := os.WriteFile(cfg, append(bytes.Replace(src, []byte(line), []byte("\nwalks: "+walks+"\n"), 1), "exact: off\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	tables := []string{"squares", "lengths", "deadends", "classes", "boards", "comparisons", "claims"}
	var first sim.KernelPath
	for _, p := range sim.KernelPaths() {
		t.Setenv(sim.KernelEnv, string(p))
		out := filepath.Join(tmp, string(p))
		if _, _, err := runCmd(t, "run", cfg, "--out", out, "--quiet", "--workers", "2"); err != nil {
			t.Fatalf("%s=%s: %v", sim.KernelEnv, p, err)
		}
		if first == "" {
			first = p
			continue
		}
		for _, name := range tables {
			a, err := os.ReadFile(filepath.Join(tmp, string(first), name+".parquet"))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(filepath.Join(out, name+".parquet"))
			if !bytes.Equal(a, b) {
				t.Errorf("%s.parquet: path %s differs from path %s", name, p, first)
			}
		}
	}
	t.Setenv(sim.KernelEnv, "no-such-path")
	out := filepath.Join(tmp, "bad")
	if _, _, err := runCmd(t, "run", cfg, "--out", out, "--quiet"); err == nil || !strings.Contains(err.Error(), sim.KernelEnv) {
		t.Errorf("%s=no-such-path: err = %v", sim.KernelEnv, err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s=no-such-path: %s written (%v)", sim.KernelEnv, out, err)
	}
}
