package buildinfo

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestNoVCSWarningSaysHow: the warning a binary with no
// provenance puts in its results says how to get it both ways — go build
// in a git checkout (the commit), go install …@VERSION from the module
// proxy (the module version) — not only "go build in the checkout", which
// means nothing to whoever installed from the proxy; a binary installed
// at a version does not warn; a program of one's own built on knightwalk
// outside git warns, and records knightwalk's version, as the warning says.
func TestNoVCSWarningSaysHow(t *testing.T) {
	for _, msg := range []string{NoVCSWarning, NoVCSNote} {
		for _, want := range []string{"go build in a git checkout", "go install MODULE/cmd/", "@VERSION"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%q lacks %q", msg, want)
			}
		}
	}
	// testdata/audit/badrules/pass.py drops the warning by this phrase.
	if !strings.Contains(NoVCSWarning, "carries no VCS information") {
		t.Error("the warning no longer says \"carries no VCS information\"")
	}
	installed := Info{Module: "github.com/knightwalk/knightwalk", ModuleVersion: "v0.1.0"} // go install …/cmd/experiment@v0.1.0
	if !installed.Traceable() {
		t.Error("a binary installed at a version warns")
	}
	lab := Info{Module: "example.com/lab", ModuleVersion: "(devel)", HarnessModule: "github.com/knightwalk/knightwalk", HarnessVersion: "v0.1.0"}
	if lab.Traceable() {
		t.Error("a program of one's own with no VCS does not warn")
	}
	js, err := json.Marshal(lab)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"knightwalk_version":"v0.1.0"`) || !strings.Contains(NoVCSWarning, "records the knightwalk module version it embeds") {
		t.Errorf("the warning says the embedded knightwalk's version is recorded; the manifest: %s", js)
	}
}
