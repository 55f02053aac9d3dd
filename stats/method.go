package stats

import "fmt"

// Method is a confidence-interval method for a binomial proportion.
type Method uint8

const (
	// Wilson is the score interval of Wilson (1927): the set of rates p for
	// which the observed count is not rejected by the score test. It is the
	// default (docs/design.md, Intervals) because its coverage stays close to nominal down to
	// small counts while the interval stays short (Newcombe 1998; Brown, Cai
	// & DasGupta 2001).
	Wilson Method = iota
	// ClopperPearson is the exact interval of Clopper & Pearson (1934),
	// inverting two one-sided binomial tests. Its coverage is never below
	// nominal, at the price of a wider interval.
	ClopperPearson
	// ConfidenceSequence is the always-valid interval of sequential runs
	// (confseq.go): it covers the rate at every number of trials at once, so a
	// run may stop whenever its counts decide.
	ConfidenceSequence
)

var methodNames = [...]string{"wilson", "clopper-pearson", "beta-binomial-cs"}

func (m Method) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return fmt.Sprintf("Method(%d)", m)
}

// ParseMethod parses a method's name: "wilson", "clopper-pearson" or
// "beta-binomial-cs".
func ParseMethod(s string) (Method, error) {
	for i, n := range methodNames {
		if s == n {
			return Method(i), nil
		}
	}
	return 0, fmt.Errorf("interval method %q: valid methods are wilson, clopper-pearson, beta-binomial-cs", s)
}

// MarshalText lets a Method appear by name in YAML, JSON and metadata.
func (m Method) MarshalText() ([]byte, error) {
	if int(m) >= len(methodNames) {
		return nil, fmt.Errorf("stats: invalid %v", m)
	}
	return []byte(methodNames[m]), nil
}

// UnmarshalText is ParseMethod for decoders.
func (m *Method) UnmarshalText(b []byte) error {
	v, err := ParseMethod(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}
