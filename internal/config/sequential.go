package config

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Sequential says how long a sequential run goes on (walks: {until: ...}):
// in rounds of growing size, each square stopping on its own once
// decided (docs/design.md, "Running until decided").
type Sequential struct {
	Until     string  // one of Untils
	Min, Max  int64   // walks per start square: at least Min, at most Max
	HalfWidth float64 // until half_width: the always-valid interval's half-width to reach
}

// Untils lists what walks.until accepts: decided runs until every claim is
// decided, half_width until every square's always-valid interval is that
// narrow.
var Untils = []string{"decided", "half_width"}

// Defaults of a walks mapping that leaves min or max out.
const (
	DefMinWalks = 1000
	DefMaxWalks = 100_000_000
)

// WalksSpec is the walks key as written: a number of walks per start
// square, or a mapping {until, min, max, half_width} for a sequential run.
// Parse turns it into Config.Walks and Config.Sequential.
type WalksSpec struct {
	set bool
	n   int64
	seq *sequentialYAML
}

type sequentialYAML struct {
	Until     string   `yaml:"until"`
	Min       *int64   `yaml:"min"`
	Max       *int64   `yaml:"max"`
	HalfWidth *float64 `yaml:"half_width"`
}

// UnmarshalYAML reads walks: a scalar (decoded as an int64, with the
// library's messages for anything else) or a mapping with the keys of
// sequentialYAML.
func (w *WalksSpec) UnmarshalYAML(n *yaml.Node) error {
	w.set = true
	if n.Kind != yaml.MappingNode {
		return n.Decode(&w.n)
	}
	msgs := unknownKeys(n, sequentialType)
	type plain sequentialYAML
	var p plain
	msgs, err := decodeKeeping(n, &p, msgs)
	if err != nil {
		return err
	}
	s := sequentialYAML(p)
	w.seq = &s
	if len(msgs) > 0 {
		return &yaml.TypeError{Errors: msgs}
	}
	return nil
}

// applyWalks sets Walks and Sequential from the walks key as the file
// wrote it (nothing when the file left it out: the defaults stay).
func (c *Config) applyWalks() {
	w := c.WalksKey
	switch {
	case !w.set:
	case w.seq == nil:
		c.Walks, c.Sequential = w.n, nil
	default:
		s := &Sequential{Until: w.seq.Until, Min: DefMinWalks, Max: DefMaxWalks}
		if w.seq.Max != nil {
			s.Max = *w.seq.Max
			s.Min = min(s.Min, s.Max) // max: 500 alone asks for at most 500
		}
		if w.seq.Min != nil {
			s.Min = *w.seq.Min
		}
		if w.seq.HalfWidth != nil {
			s.HalfWidth = *w.seq.HalfWidth
		}
		c.Walks, c.Sequential = s.Max, s
	}
}

// checkSequential validates a walks mapping.
func (c *Config) checkSequential(k *checker) {
	s := c.Sequential
	if !slices.Contains(Untils, s.Until) {
		k.errorf("walks.until", "%q; valid: %s (decided: until every claim is decided; half_width: until every square's always-valid interval is that narrow)",
			s.Until, strings.Join(Untils, ", "))
	}
	if s.Min < 1 || s.Min > MaxWalks {
		k.errorf("walks.min", "%d is out of range; want 1 to %.0e walks per start square", s.Min, float64(MaxWalks))
	}
	if s.Max < 1 || s.Max > MaxWalks {
		k.errorf("walks.max", "%d is out of range; want 1 to %.0e walks per start square", s.Max, float64(MaxWalks))
	} else if s.Max < s.Min {
		k.errorf("walks.max", "%d is below min (%d); want max >= min", s.Max, s.Min)
	}
	switch {
	case s.Until == "half_width" && !(s.HalfWidth > 0 && s.HalfWidth < 0.5):
		k.errorf("walks.half_width", "%v is out of range; want a half-width strictly between 0 and 0.5 (a rate's interval is at most [0, 1]), e.g. 0.001", s.HalfWidth)
	case s.Until == "decided" && s.HalfWidth != 0:
		k.errorf("walks.half_width", "applies only to until: half_width; until: decided stops when the claims are decided")
	case s.Until == "decided" && len(c.Claims) == 0 && !c.partial("claims"):
		k.errorf("walks.until", "decided, but the experiment has no claims to decide; give claims, or until: half_width, or a number of walks")
	}
}
