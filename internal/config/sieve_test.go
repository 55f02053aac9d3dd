package config

import (
	"reflect"
	"strings"
	"testing"
)

// TestSieveRefuses: what a sieve cannot be is refused at its key, saying
// what is valid, and a sieve's cell budget counts its rules and squares,
// not its boards (40,320 orders on 424 boards pass).
func TestSieveRefuses(t *testing.T) {
	const ok = "name: s\nwalks: 1\nstarts: [r0c0]\nrules: [{name: warnsdorff, tie_break: first}]\nboards:\n  - {sizes: \"9\", keep: fails}\n"
	mustParse(t, ok)
	mustParse(t, "name: s\nwalks: 1\nstarts: [r0c0]\nrules: [{name: warnsdorff, tie_break: roth+first, order: all}]\nboards:\n  - {sizes: \"428\", keep: fails}\n  - {sizes: \"5..427\", keep: succeeds}\n")
	for _, c := range []struct{ yaml, want string }{
		{ok + "  - {sizes: \"10\"}\n", `s.yaml:7: boards[1].keep: missing; in a sieve (boards[0].keep gives keep)`},
		{strings.Replace(ok, "keep: fails", "keep: fail", 1), `boards[0].keep: "fail"; valid: fails`},
		{ok + "  - {sizes: \"8..10\", keep: succeeds}\n", "boards[1]: 9x9 again (boards[0]); in a sieve each board belongs to one stage"},
		{strings.Replace(ok, "walks: 1", "walks: 5", 1), "walks: a sieve walks each cell once per board; want walks: 1"},
		{strings.Replace(ok, "starts: [r0c0]", "starts: [corner]", 1), "starts: a sieve follows each start square from board to board"},
		{strings.Replace(ok, "starts: [r0c0]", "starts: all", 1), "starts: a sieve follows each start square from board to board"},
		{ok + "outputs: {figures: [success-heatmap]}\n", "outputs: a sieve draws no figures"},
		{ok + "exact: on\n", `exact: "on": a sieve computes no exact values`},
		{ok + "claims: [{id: c, rule: warnsdorff/first, square: r0c0, rate: 1}]\n", "claims: a sieve checks no claims"},
	} {
		_, err := Parse("s.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %q", c.yaml, err, c.want)
		}
	}
}

// TestSieveCanonical: a sieve's stages are in its hash (the same boards
// without keep, or with the stages split otherwise, hash differently), and
// a manifest's canonical form resolves back to the same stages.
func TestSieveCanonical(t *testing.T) {
	const y = "name: s\nwalks: 1\nstarts: [r0c0, r1c2]\nrules: [{name: warnsdorff, tie_break: first, order: rotations}]\nboards:\n  - {sizes: \"12\", keep: fails}\n  - {sizes: \"5..7\", keep: succeeds}\n  - {rows: \"5\", cols: \"8..9\", keep: fails}\n"
	c := mustParse(t, y)
	e, err := Resolve(c, "s.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	back, err := FromCanonical("manifest.json", e.Config)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hash() != c.Hash() {
		t.Fatalf("hash %s back from the manifest, want %s", back.Hash(), c.Hash())
	}
	e2, err := Resolve(back, "manifest.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range e.Sieve {
		e.Sieve[i].Key, e2.Sieve[i].Key = "", ""
	}
	if !reflect.DeepEqual(e.Sieve, e2.Sieve) || len(e.Sieve) != 3 {
		t.Errorf("stages %+v back from the manifest, want %+v", e2.Sieve, e.Sieve)
	}
	for _, other := range []string{
		strings.ReplaceAll(strings.ReplaceAll(y, ", keep: fails", ""), ", keep: succeeds", ""),
		strings.Replace(y, "  - {sizes: \"5..7\", keep: succeeds}\n", "  - {sizes: \"5\", keep: succeeds}\n  - {sizes: \"6..7\", keep: succeeds}\n", 1),
	} {
		if o := mustParse(t, strings.Replace(other, "starts: [r0c0, r1c2]", "starts: [r0c0, r1c2]", 1)); o.Hash() == c.Hash() {
			t.Errorf("%q hashes as the sieve", other)
		}
	}
}
