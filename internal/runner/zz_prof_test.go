package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"knightwalk/internal/config"
)

func TestZZProf(t *testing.T) {
	if os.Getenv("ZZPROF") == "" {
		t.Skip()
	}
	data, _ := os.ReadFile("/tmp/t21/big4.yaml")
	cfg, err := config.Parse("big4.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	s, err := config.Resolve(cfg, "big4.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), s, RunOptions{Out: filepath.Join(t.TempDir(), "o"), Workers: 2, Shard: All})
	if err != nil {
		t.Fatal(err)
	}
}
