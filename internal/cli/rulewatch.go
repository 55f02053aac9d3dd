package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/knightwalk/knightwalk/sim"
)

// A rule of your own runs inside the command's workers: one that sleeps,
// blocks or loops in a call would hold its worker, and the command waiting
// for it, forever, deaf to signals. So every command's body runs beside a
// sim.CallWatch: a call into a rule that has not returned within
// ruleCallLimit (KNIGHTWALK_RULE_TIMEOUT), or within signalGrace of a
// SIGINT or SIGTERM, stops the command with an error naming the rule and
// its position, without waiting for that worker. What the command had
// written stays as an interrupted command leaves it: a run's finished
// units in DIR.partial, for --resume.
const (
	defaultRuleCallLimit = 2 * time.Second
	signalGrace          = 500 * time.Millisecond
	watchTick            = 100 * time.Millisecond
	ruleTimeoutEnv       = "KNIGHTWALK_RULE_TIMEOUT"
)

// ruleCallLimit is the longest one call into a rule of your own may take:
// KNIGHTWALK_RULE_TIMEOUT (a Go duration such as 30s; 0: no limit) or 2 s.
func ruleCallLimit() (time.Duration, error) {
	v := os.Getenv(ruleTimeoutEnv)
	if v == "" {
		return defaultRuleCallLimit, nil
	}
	d, err := time.ParseDuration(v)
	if v == "0" {
		d, err = 0, nil
	}
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s=%q: want a duration such as 2s or 1m (0: no limit on a call into a rule of your own)", ruleTimeoutEnv, v)
	}
	return d, nil
}

// WatchRules runs body(ctx) for command name, and returns its error, or
// the error of a call into a rule of your own that does not return.
func WatchRules(ctx context.Context, name string, body func(context.Context) error) error {
	limit, err := ruleCallLimit()
	if err != nil {
		return err
	}
	inner, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- body(inner) }()
	watch := sim.NewCallWatch()
	tick := time.NewTicker(watchTick)
	defer tick.Stop()
	var stuck error
	var stuckAt time.Time
	for {
		select {
		case err := <-done:
			if stuck != nil {
				if err != nil && !errors.Is(err, context.Canceled) {
					return fmt.Errorf("%w (then: %v)", stuck, err)
				}
				return stuck
			}
			return err
		case <-tick.C:
		}
		switch {
		case stuck != nil:
			if time.Since(stuckAt) >= signalGrace {
				return stuck // the body waits for the rule's worker: leave both
			}
		case ctx.Err() != nil: // a signal: a call still in progress after the grace will not return
			if err := watch.Stuck(signalGrace); err != nil {
				return fmt.Errorf("%s interrupted by a signal, and %w; what it wrote is left as an interrupted %s leaves it", name, err, name)
			}
		case limit > 0:
			if err := watch.Stuck(limit); err != nil {
				stuck, stuckAt = fmt.Errorf("%s stopped: %w (limit %s, set by %s)", name, err, limit, ruleTimeoutEnv), time.Now()
				cancel()
			}
		}
	}
}
