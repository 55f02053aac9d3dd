package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"

	"knightwalk/experiments"
	"knightwalk/internal/config"
	"knightwalk/internal/runner"
	"knightwalk/internal/table"
	"knightwalk/stats"
)

// version is the tool version recorded in every output.
const version = "0.1.0"

// loadExperiment reads FILE, or a committed experiment by name, or the
// embedded default when arg is "".
func loadExperiment(arg string) (*config.Config, string, []byte, error) {
	var name string
	var data []byte
	switch {
	case arg == "":
		name, data = experiments.Default()
		name = "experiments/" + name + ".yaml"
	case fileExists(arg):
		b, err := os.ReadFile(arg)
		if err != nil {
			return nil, "", nil, err
		}
		name, data = arg, b
	default:
		b, ok := experiments.Lookup(strings.TrimSuffix(arg, ".yaml"))
		if !ok {
			return nil, "", nil, fmt.Errorf("%s: no such file, and no committed experiment of that name (committed: %s)", arg, strings.Join(experiments.Names(), ", "))
		}
		name, data = "experiments/"+strings.TrimSuffix(arg, ".yaml")+".yaml", b
	}
	cfg, err := config.Parse(name, data)
	if err != nil {
		return nil, name, data, err
	}
	return cfg, name, data, nil
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// toSpec resolves a validated config into what the runner needs.
func toSpec(cfg *config.Config, file string, src []byte) (*runner.Spec, []runner.ClaimSpec, runner.Stats, error) {
	s := &runner.Spec{Name: cfg.Name, Seed: cfg.Seed, Boards: cfg.BoardList(), Rules: cfg.RuleList(), Walks: uint64(cfg.Walks),
		ConfigHash: cfg.Hash(), SourceFile: file, Source: src}
	for _, b := range s.Boards {
		s.Starts = append(s.Starts, cfg.StartSquares(b))
	}
	m, err := stats.ParseMethod(cfg.Interval)
	if err != nil {
		return nil, nil, runner.Stats{}, err
	}
	var claims []runner.ClaimSpec
	for i, c := range cfg.Claims {
		cs := runner.ClaimSpec{ID: c.ID, Source: c.Source, Rule: c.Rule, Board: c.Board}
		if cs.ID == "" {
			cs.ID = fmt.Sprintf("claim-%d", i+1)
		}
		switch {
		case c.Class != "":
			cs.Target = "class:" + c.Class
		case c.Square != "":
			cs.Target = "square:" + c.Square
		case c.Degree != nil:
			cs.Target = fmt.Sprintf("degree:%d", *c.Degree)
		}
		switch {
		case c.Rate != nil:
			cs.Claim = stats.Claim{Kind: stats.Rate, Value: *c.Rate}
			if c.Tolerance != nil {
				cs.Claim.Tolerance = *c.Tolerance
			}
		case len(c.Range) == 2:
			cs.Claim = stats.Claim{Kind: stats.Range, Lo: c.Range[0], Hi: c.Range[1]}
		case c.Below != nil:
			cs.Claim = stats.Claim{Kind: stats.Below, Value: *c.Below}
		case c.Above != nil:
			cs.Claim = stats.Claim{Kind: stats.Above, Value: *c.Above}
		}
		claims = append(claims, cs)
	}
	return s, claims, runner.Stats{Confidence: cfg.Confidence, Method: m}, nil
}

// metadata is the key-value metadata of every table.
func metadata(s *runner.Spec, st runner.Stats) table.Metadata {
	var lv table.Levels
	for _, b := range s.Boards {
		lv.Boards = append(lv.Boards, b.String())
	}
	for _, r := range s.Rules {
		lv.Rules = append(lv.Rules, r.Name())
	}
	return table.Metadata{Experiment: s.Name, Seed: s.Seed, ConfigHash: s.ConfigHash, ToolVersion: version, GitCommit: gitCommit(),
		Levels: lv,
		Extra:  map[string]string{"confidence": strconv.FormatFloat(st.Confidence, 'g', -1, 64), "interval": st.Method.String()}}
}

// gitCommit returns the commit the binary was built from, when known.
func gitCommit() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				return s.Value
			}
		}
	}
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
