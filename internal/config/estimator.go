package config

import (
	"slices"
	"strings"

	"github.com/knightwalk/knightwalk/sim"
)

// Estimator is how a rule's success rates are estimated: plain walks, or
// multilevel splitting on path length (package rare), for rates too small
// for plain sampling (rule key estimator: splitting; docs/design.md, "Rare
// events").
type Estimator struct {
	Splitting  bool
	Particles  int // segments per stage of each replicate
	Replicates int // independent replicates
}

// Estimators lists what a rule's estimator key accepts.
var Estimators = []string{"walks", "splitting"}

// Defaults of a splitting estimator that leaves particles or replicates out.
const (
	DefParticles  = 1000
	DefReplicates = 20
	MaxParticles  = 1 << 24
	MaxReplicates = 10000
)

// estimator resolves rule rs's estimator keys (Validate checked them).
func (rs RuleSpec) estimator() Estimator {
	if rs.Estimator != "splitting" {
		return Estimator{}
	}
	e := Estimator{Splitting: true, Particles: rs.Particles, Replicates: rs.Replicates}
	if e.Particles == 0 {
		e.Particles = DefParticles
	}
	if e.Replicates == 0 {
		e.Replicates = DefReplicates
	}
	return e
}

// estimatorList returns the estimators of the rules, in ruleList's order.
func (c *Config) estimatorList() []Estimator {
	var out []Estimator
	specs, _ := c.ruleCells()
	for _, rs := range specs {
		if _, ok := rs.resolve(nil, ""); ok {
			out = append(out, rs.estimator())
		}
	}
	return out
}

// checkEstimator validates rule rs's estimator keys; r is the rule resolved.
func (c *Config) checkEstimator(k *checker, key string, rs RuleSpec, r sim.Rule) {
	if rs.Estimator != "" && !slices.Contains(Estimators, rs.Estimator) {
		k.errorf(key+".estimator", "%q; valid: %s (splitting: multilevel splitting on path length, for rates below about 1e-4)", rs.Estimator, strings.Join(Estimators, ", "))
		return
	}
	if rs.Estimator != "splitting" {
		if rs.Particles != 0 || rs.Replicates != 0 {
			k.errorf(key, "particles and replicates apply only to estimator: splitting")
		}
		return
	}
	switch {
	case r.Kind == sim.Backtrack:
		k.errorf(key+".estimator", "splitting serves the random walk and warnsdorff; backtrack searches, it does not walk once (use walks)")
	case r.Deterministic():
		k.errorf(key+".estimator", "splitting estimates a probability; %s is deterministic, and its one walk per start decides it (use walks)", r.Name())
	case c.Sequential != nil:
		k.errorf(key+".estimator", "splitting runs a fixed effort, not in rounds; run it in an experiment with a number of walks, not walks: {until: ...}")
	}
	if rs.Particles < 0 || rs.Particles > MaxParticles {
		k.errorf(key+".particles", "%d is out of range; want 1 to %d segments per stage (0: the default, %d)", rs.Particles, MaxParticles, DefParticles)
	}
	if rs.Replicates < 0 || rs.Replicates == 1 || rs.Replicates > MaxReplicates {
		k.errorf(key+".replicates", "%d is out of range; want 2 to %d replicates (0: the default, %d)", rs.Replicates, MaxReplicates, DefReplicates)
	}
}

// checkSplitClaim refuses a claim about a set of boards (share,
// first_failure, failing_below) on a rule estimated by splitting: those
// count boards by walks or failures, which splitting does not give.
func (c *Config) checkSplitClaim(k *checker, key string, cl Claim) {
	if cl.Share == nil && cl.FirstFailure == nil && cl.FailingBelow == nil && cl.Each == "" {
		return
	}
	r, err := sim.ParseRule(cl.Rule)
	if err != nil {
		return // checkClaim says so
	}
	for _, rs := range c.Rules {
		if x, ok := rs.resolve(nil, ""); ok && x.Name() == r.Name() && rs.Estimator == "splitting" {
			k.errorf(key+".rule", "%s uses estimator: splitting, which gives a rate per board, not walks or failures to count over a set of boards; state the claim per board (without share, first_failure or failing_below)", x.Name())
			return
		}
	}
}
