package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLegacyPartsStillMerge: a part written before seeds were JSON strings
// and parts carried provenance (a bare-number seed, no "provenance", sealed
// over that JSON) still reads and merges; one edited after sealing does
// not.
func TestLegacyPartsStillMerge(t *testing.T) {
	s := testSpec(t)
	tmp := t.TempDir()
	var dirs []string
	for k := range 2 {
		d := filepath.Join(tmp, "part"+strconv.Itoa(k))
		if _, err := runTo(t, context.Background(), s, d, 1, Shard{k, 2}, false); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	path := filepath.Join(dirs[0], partName)
	p, err := readPart(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.Provenance == nil || p.Provenance.Shard != "0/2" || p.Provenance.Host.KernelPath == "" {
		t.Fatalf("part provenance: %+v", p.Provenance)
	}
	// the part as an older binary wrote it
	p.Provenance, p.Sum = nil, ""
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	seed := strconv.FormatUint(uint64(p.Seed), 10)
	legacy := bytes.Replace(b, []byte(`"seed":"`+seed+`"`), []byte(`"seed":`+seed), 1)
	if bytes.Equal(legacy, b) {
		t.Fatal("the seed is not a JSON string in the part")
	}
	sum := seal(p.ConfigHash, legacy)
	legacy = bytes.Replace(legacy, []byte(`"sum":""`), []byte(`"sum":"`+sum+`"`), 1)
	if err := os.WriteFile(path, legacy, 0o644); err != nil {
		t.Fatal(err)
	}
	parts, err := ReadParts(dirs)
	if err != nil {
		t.Fatalf("a legacy part: %v", err)
	}
	if err := MergeInto(s, NewTallies(), parts); err != nil {
		t.Fatal(err)
	}
	if parts[0].Provenance != nil || parts[1].Provenance == nil {
		t.Errorf("provenance: %v, %v", parts[0].Provenance, parts[1].Provenance)
	}
	// edited after sealing: refused, whatever the seed's spelling
	edited := bytes.Replace(legacy, []byte(`"seed":`+seed), []byte(`"seed":`+strconv.FormatUint(uint64(p.Seed)+1, 10)), 1)
	os.WriteFile(path, edited, 0o644)
	if _, err := ReadParts(dirs); err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Errorf("an edited legacy part: %v", err)
	}
}
