package procstat

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
)

// TestPeakExcludesParent: a child started by a process with a large
// high-water mark reports its own peak, not its parent's (getrusage's
// ru_maxrss reported the parent's 2.7 GB for every command the harness
// tests started).
func TestPeakExcludesParent(t *testing.T) {
	if os.Getenv("PROCSTAT_CHILD") == "1" {
		os.Stdout.WriteString(strconv.FormatInt(PeakRSSBytes(), 10))
		os.Exit(0)
	}
	if runtime.GOOS != "linux" {
		t.Skip("the carried high-water mark is Linux's")
	}
	ballast := make([]byte, 512<<20)
	for i := range ballast {
		ballast[i] = 1
	}
	mine := PeakRSSBytes()
	if mine < 512<<20 {
		t.Fatalf("own peak %d bytes after touching 512 MiB", mine)
	}
	c := exec.Command(os.Args[0], "-test.run=^TestPeakExcludesParent$")
	c.Env = append(os.Environ(), "PROCSTAT_CHILD=1")
	out, err := c.Output()
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(ballast)
	child, err := strconv.ParseInt(string(out), 10, 64)
	if err != nil {
		t.Fatalf("child wrote %q", out)
	}
	if child <= 0 || child > 256<<20 {
		t.Fatalf("child's peak %d MiB, want its own few MiB (the parent's is %d MiB)", child>>20, mine>>20)
	}
}

func TestCPUSecondsGrows(t *testing.T) {
	t0 := CPUSeconds()
	x := 0
	for i := 0; i < 200_000_000; i++ {
		x += i ^ x
	}
	if t1 := CPUSeconds(); !(t1 > t0) || x == 1 {
		t.Fatalf("CPU time %v then %v", t0, t1)
	}
}
