package config

// The adversarial section: inputs chosen to break the reader rather than to
// describe an experiment. Each must end in an Errors naming the file, with
// memory bounded by MaxFileBytes whatever the input.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// wantRefusal checks that err is an Errors naming file whose text holds want.
func wantRefusal(t *testing.T, err error, file, want string) {
	t.Helper()
	var es Errors
	if !errors.As(err, &es) || len(es) == 0 {
		t.Fatalf("want Errors, got %T %v", err, err)
	}
	if es[0].File != file || !strings.Contains(err.Error(), want) {
		t.Errorf("got %q; want an error for %s saying %q", err, file, want)
	}
}

func TestLoadRefusesLargeFiles(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	// A valid start, then a description past the limit: refused by size,
	// before any parsing.
	data := "name: big\nboards: [8x8]\nrules: [{name: random}]\ndescription: " + strings.Repeat("x", MaxFileBytes) + "\n"
	if err := os.WriteFile(big, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(big)
	wantRefusal(t, err, big, "bytes; an experiment file holds at most 1048576 bytes (1 MiB)")

	// Parse enforces the same limit on data from elsewhere (a part's copy).
	_, err = Parse("part.yaml", []byte(data))
	wantRefusal(t, err, "part.yaml", "at most 1048576 bytes")

	_, err = Load(dir)
	wantRefusal(t, err, dir, "is a directory")
	_, err = Load(filepath.Join(dir, "missing.yaml"))
	wantRefusal(t, err, filepath.Join(dir, "missing.yaml"), "no such file")
}

// TestLoadDevZero: an endless device is refused before it is opened,
// as everything that is not a regular file is.
func TestLoadDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, err := Load("/dev/zero")
	wantRefusal(t, err, "/dev/zero", "is a character device, not a regular file, and is not read; want an experiment file (YAML)")
}

// TestHugeBoardList: a board list of a megabyte is refused by counting its
// items, before any item is decoded or expanded.
func TestHugeBoardList(t *testing.T) {
	n := (MaxFileBytes - 100) / len("8x8, ")
	data := "name: x\nrules: [{name: random}]\nboards: [" + strings.Repeat("8x8, ", n-1) + "8x8]\n"
	_, err := Parse("huge.yaml", []byte(data))
	wantRefusal(t, err, "huge.yaml", "huge.yaml:3: boards: ")
	if !strings.Contains(err.Error(), fmt.Sprintf("items; at most %d", MaxBoards)) || strings.Count(err.Error(), "\n") != 0 {
		t.Errorf("want one error about the list's length, got:\n%v", err)
	}
}

// TestSeedRange: every seed uint64 holds is accepted exactly; nothing
// outside it is.
func TestSeedRange(t *testing.T) {
	const head = "name: x\nboards: [8x8]\nrules: [{name: random}]\nseed: "
	for text, want := range map[string]uint64{
		"0": 0, "18446744073709551615": 1<<64 - 1, "9223372036854775808": 1 << 63, "1e3": 1000, "1e19": 1e19, "0x10": 16,
	} {
		c, err := Parse("s.yaml", []byte(head+text+"\n"))
		if err != nil || c.Seed != want {
			t.Errorf("seed: %s: got %v, %v; want %d", text, c, err, want)
		}
	}
	for _, text := range []string{
		"18446744073709551616", "18446744073709551617", "36893488147419103232", "-1", "-1e3", "1e30", "1.5", ".inf", "-.inf", ".nan",
		"12345678901234567.0", "-0.5", "1e-3", "0x1_0000_0000_0000_0000",
	} {
		_, err := Parse("s.yaml", []byte(head+text+"\n"))
		var es Errors
		if !errors.As(err, &es) || len(es) != 1 || es[0].Key != "seed" || es[0].Line != 4 {
			t.Errorf("seed: %s: got %v; want one error at s.yaml:4: seed", text, err)
		}
	}
}

// TestValidateBoundsInGo: a Config built in Go meets the same bounds as a
// file.
func TestValidateBoundsInGo(t *testing.T) {
	c := Default()
	c.Name = "x"
	c.Boards = []BoardSpec{{Size: "8x8"}}
	c.Rules = make([]RuleSpec, MaxRules+1)
	for i := range c.Rules {
		c.Rules[i] = RuleSpec{Name: "random", MaxSteps: i + 1}
	}
	err := c.Validate()
	if err == nil || !strings.Contains(err.Error(), "rules: 101 items; at most 100") {
		t.Errorf("Validate: want the rules' count in\n%v", err)
	}
	c.Rules = c.Rules[:1]
	c.Description = strings.Repeat("d", MaxDescription+1)
	c.Outputs.RowGroup = MaxRowGroup + 1
	err = c.Validate()
	for _, want := range []string{"description: 10001 bytes", "outputs.row_group: 16777217 is out of range"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate: want %q in\n%v", want, err)
		}
	}
}

// TestManyMistakes: thousands of mistakes give a readable message (the
// first MaxErrors and a count), and a mapping of thousands of keys is
// refused before the YAML library's duplicate check, which is quadratic in
// them, runs.
func TestManyMistakes(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: x\nboards: [8x8]\nrules: [{name: random}]\nclaims:\n")
	for range MaxClaims {
		b.WriteString("  - {rule: random, class: corner, below: 2, x: 1, y: 2}\n")
	}
	_, err := Parse("many.yaml", []byte(b.String()))
	var es Errors
	if !errors.As(err, &es) || len(es) != MaxErrors+1 || !strings.Contains(es[MaxErrors].Msg, "more problems after this line") {
		t.Fatalf("got %d errors; want %d and a count of the rest", len(es), MaxErrors+1)
	}

	b.Reset()
	b.WriteString("name: x\n")
	for i := range 19000 {
		b.WriteString("k" + strconv.Itoa(i) + ": 1\n")
	}
	_, err = Parse("keys.yaml", []byte(b.String()))
	wantRefusal(t, err, "keys.yaml", "a mapping of 19001 keys; at most 64")

	b.Reset()
	b.WriteString("name: x\nboards: [8x8]\nrules: [{name: random}]\nclaims:\n")
	for range MaxClaims {
		b.WriteString("  - {rule: random, class: corner, below: 0.5, id: a, source: b, board: 8x8, x: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]}\n")
	}
	_, err = Parse("entries.yaml", []byte(b.String()))
	wantRefusal(t, err, "entries.yaml", "keys and list items; an experiment file holds at most 20000")
}

// TestLoadFIFONoWriter: a FIFO, with no writer (open(2) of it blocks
// for ever) or with one, is refused at once before it is opened, naming
// what it is and what is wanted, as an experiment file and as a sources
// file (issue 21 waited 5 s, twice, for a writer; ).
func TestLoadFIFONoWriter(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "silent.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	exp := filepath.Join(dir, "e.yaml")
	if err := os.WriteFile(exp, []byte("name: e\nboards: [5x5]\nrules: [{name: random}]\nsources: silent.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{fifo, "silent.yaml: is a FIFO (named pipe), not a regular file, and is not read; want an experiment file (YAML)"},
		{exp, "cannot read the sources file " + fifo + ": is a FIFO (named pipe), not a regular file, and is not read; want a sources file (YAML)"},
	} {
		t0 := time.Now()
		done := make(chan error, 1)
		go func() { _, err := Load(c.path); done <- err }()
		select {
		case err := <-done:
			wantRefusal(t, err, c.path, c.want)
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Load blocked on a FIFO with no writer", c.path)
		}
		if d := time.Since(t0); d > time.Second {
			t.Errorf("%s: refused after %v; want at once", c.path, d)
		}
	}
}
