package harness

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/knightwalk/knightwalk/experiments"
	"github.com/knightwalk/knightwalk/internal/cli"
)

// The Kubernetes manifests in deploy/k8s have never run on a real cluster
// here; this test checks what they rely on against the binary itself: the
// Job fields, the shard each completion index gets from cli.ShardFromEnv, the
// arguments as the command's own flag sets parse them, and that the merge
// reads the directory the shards write, on the same volume.

type k8sJob struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string
	Metadata   struct{ Name string }
	Spec       struct {
		CompletionMode       string `yaml:"completionMode"`
		Completions          *int
		Parallelism          *int
		BackoffLimitPerIndex *int `yaml:"backoffLimitPerIndex"`
		Template             struct {
			Spec struct {
				RestartPolicy string `yaml:"restartPolicy"`
				Containers    []k8sContainer
				Volumes       []struct {
					Name                  string
					PersistentVolumeClaim *struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				}
			}
		}
	}
}

type k8sContainer struct {
	Name, Image string
	Command     []string
	Args        []string
	Env         []struct {
		Name, Value string
		ValueFrom   *struct {
			FieldRef *struct {
				FieldPath string `yaml:"fieldPath"`
			} `yaml:"fieldRef"`
		} `yaml:"valueFrom"`
	}
	VolumeMounts []struct {
		Name      string
		MountPath string `yaml:"mountPath"`
	} `yaml:"volumeMounts"`
}

// completionIndexPath is where Kubernetes puts an Indexed Job's index.
const completionIndexPath = "metadata.annotations['batch.kubernetes.io/job-completion-index']"

// k8sVarRef is a $(VAR) reference, which Kubernetes expands in args from
// the container's declared env only.
var k8sVarRef = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// podEnv returns the env of c in the pod of completion index k, and an
// error for a value this test cannot know.
func podEnv(c k8sContainer, k int) (map[string]string, error) {
	env := map[string]string{}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = e.Value
		case e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == completionIndexPath:
			env[e.Name] = strconv.Itoa(k)
		default:
			return nil, fmt.Errorf("env %s: a valueFrom other than the completion index (%s)", e.Name, completionIndexPath)
		}
	}
	return env, nil
}

// expandArgs expands $(VAR) as Kubernetes does: declared variables only;
// a reference to anything else is left as written, and reported.
func expandArgs(args []string, env map[string]string) ([]string, error) {
	var missing []string
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = k8sVarRef.ReplaceAllStringFunc(a, func(ref string) string {
			name := ref[2 : len(ref)-1]
			if v, ok := env[name]; ok {
				return v
			}
			missing = append(missing, ref)
			return ref
		})
	}
	if missing != nil {
		return nil, fmt.Errorf("args refer to %s, not declared in the container's env: declare it so that Kubernetes expands it", strings.Join(missing, ", "))
	}
	return out, nil
}

// parseCommand parses args with the flag set of the binary's own command.
func parseCommand(args []string) (*flag.FlagSet, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("no args: the image's entrypoint is the bare binary")
	}
	c := lookup(args[0])
	if c == nil {
		return nil, fmt.Errorf("args[0] %q is not a command of the binary", args[0])
	}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c.flags(fs)
	flagArgs, err := cli.Interleaved(fs, args[1:])
	if err != nil {
		return nil, fmt.Errorf("%q: %v", args, err)
	}
	if err := fs.Parse(flagArgs); err != nil {
		return nil, fmt.Errorf("%q: %v", args, err)
	}
	return fs, nil
}

// volumeAt returns the claim and the path inside it of the file p as the
// container of job j sees it.
func volumeAt(j *k8sJob, p string) (claim, rel string, err error) {
	c := j.Spec.Template.Spec.Containers[0]
	for _, m := range c.VolumeMounts {
		if r, ok := strings.CutPrefix(path.Clean(p), path.Clean(m.MountPath)); ok && (r == "" || r[0] == '/') {
			for _, v := range j.Spec.Template.Spec.Volumes {
				if v.Name == m.Name && v.PersistentVolumeClaim != nil {
					return v.PersistentVolumeClaim.ClaimName, path.Clean("/" + r), nil
				}
			}
			return "", "", fmt.Errorf("%s: volume %q is not a persistentVolumeClaim of the Job", p, m.Name)
		}
	}
	return "", "", fmt.Errorf("%s is on no mounted volume of job %s: it is lost with the pod", p, j.Metadata.Name)
}

func decodeJob(name string, data []byte) (*k8sJob, error) {
	var j k8sJob
	if err := yaml.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if j.APIVersion != "batch/v1" || j.Kind != "Job" {
		return nil, fmt.Errorf("%s: %s %s, want a batch/v1 Job", name, j.APIVersion, j.Kind)
	}
	if n := len(j.Spec.Template.Spec.Containers); n != 1 {
		return nil, fmt.Errorf("%s: %d containers, want 1", name, n)
	}
	if c := j.Spec.Template.Spec.Containers[0]; len(c.Command) != 0 {
		return nil, fmt.Errorf("%s: command %q overrides the image's entrypoint, the binary", name, c.Command)
	}
	return &j, nil
}

// checkK8s checks the shard Job and the merge Job against each other and
// the binary; it returns every problem found.
func checkK8s(indexedYAML, mergeYAML []byte) []error {
	ij, err := decodeJob("indexed-job.yaml", indexedYAML)
	if err != nil {
		return []error{err}
	}
	mj, err := decodeJob("merge-job.yaml", mergeYAML)
	if err != nil {
		return []error{err}
	}
	parts, errs := checkIndexedJob(ij)
	if len(errs) > 0 {
		return errs
	}
	return checkMergeJob(mj, ij, parts)
}

// checkIndexedJob checks the shard Job, one pod per shard told its shard by
// its completion index, and returns the directory the parts are written to.
func checkIndexedJob(ij *k8sJob) (parts string, errs []error) {
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("indexed-job.yaml: "+format, a...)) }
	s := ij.Spec
	if s.CompletionMode != "Indexed" {
		bad("completionMode %q: without Indexed, pods get no JOB_COMPLETION_INDEX", s.CompletionMode)
	}
	if s.Completions == nil || *s.Completions < 1 {
		bad("completions must be set to the number of shards")
		return "", errs
	}
	n := *s.Completions
	if s.Parallelism == nil || *s.Parallelism < 1 || *s.Parallelism > n {
		bad("parallelism %v: want 1 to completions (%d)", s.Parallelism, n)
	}
	if s.BackoffLimitPerIndex != nil && s.Template.Spec.RestartPolicy != "Never" {
		bad("backoffLimitPerIndex needs restartPolicy Never, got %q", s.Template.Spec.RestartPolicy)
	}
	outs := map[string]int{}
	dirs := map[string]bool{}
	for k := 0; k < n && len(errs) == 0; k++ {
		out, err := shardOut(s.Template.Spec.Containers[0], k, n)
		if err != nil {
			bad("index %d: %v", k, err)
			break
		}
		if prev, dup := outs[out]; dup {
			bad("indices %d and %d both write %s", prev, k, out)
		}
		outs[out] = k
		dirs[path.Dir(out)] = true
	}
	if len(errs) > 0 {
		return "", errs
	}
	if len(dirs) != 1 {
		bad("the parts are in %d directories, want one for the merge to read", len(dirs))
		return "", errs
	}
	for d := range dirs {
		parts = d
	}
	return parts, nil
}

// shardOut checks the pod of completion index k of n as the binary sees it
// and returns the directory it writes its part to.
func shardOut(c k8sContainer, k, n int) (string, error) {
	env, err := podEnv(c, k)
	if err != nil {
		return "", err
	}
	if env["KNIGHTWALK_SHARDS"] != strconv.Itoa(n) {
		return "", fmt.Errorf("KNIGHTWALK_SHARDS=%q but completions is %d: shards would be missed or the merge refused", env["KNIGHTWALK_SHARDS"], n)
	}
	// The binary gets the index even when the manifest does not declare it:
	// Kubernetes sets JOB_COMPLETION_INDEX in every pod of an Indexed Job.
	// Args are expanded from the declared env only, which does not depend
	// on how a Kubernetes version injects it.
	sh, from, ok, err := cli.ShardFromEnv(func(v string) string {
		if x, ok := env[v]; ok || v != "JOB_COMPLETION_INDEX" {
			return x
		}
		return strconv.Itoa(k)
	})
	if err != nil || !ok || sh.K != k || sh.N != n {
		return "", fmt.Errorf("the binary takes shard %v from %q (ok=%v, err=%v), want %d/%d", sh, from, ok, err, k, n)
	}
	args, err := expandArgs(c.Args, env)
	if err != nil {
		return "", err
	}
	fs, err := parseCommand(args)
	if err != nil {
		return "", err
	}
	if args[0] != "run" || fs.NArg() != 1 {
		return "", fmt.Errorf("args %q: want run EXPERIMENT [flags]", args)
	}
	if f := fs.Lookup("shard"); f.Value.String() != "" {
		return "", fmt.Errorf("--shard %s overrides the completion index", f.Value)
	}
	if _, ok := experiments.Lookup(fs.Arg(0)); !ok {
		return "", fmt.Errorf("%q is not a committed experiment, and the image holds no experiment files", fs.Arg(0))
	}
	out := fs.Lookup("out").Value.String()
	if out == "" {
		return "", fmt.Errorf("no --out: each shard would write inside its own pod")
	}
	return out, nil
}

// checkMergeJob checks that the merge Job reads the parts directory of the
// shard Job ij, on the same volume claim, with the same binary.
func checkMergeJob(mj, ij *k8sJob, parts string) (errs []error) {
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("merge-job.yaml: "+format, a...)) }
	claim, rel, err := volumeAt(ij, parts)
	if err != nil {
		return []error{fmt.Errorf("indexed-job.yaml: %v", err)}
	}
	mc := mj.Spec.Template.Spec.Containers[0]
	if mj.Spec.CompletionMode == "Indexed" || (mj.Spec.Completions != nil && *mj.Spec.Completions != 1) {
		bad("the merge is one pod, not an indexed or repeated Job")
	}
	if image := ij.Spec.Template.Spec.Containers[0].Image; mc.Image != image {
		bad("image %q, the shards ran %q: the merge checks the config hash of the version that wrote the parts", mc.Image, image)
	}
	fs, err := parseCommand(mc.Args)
	if err != nil {
		bad("%v", err)
		return errs
	}
	if mc.Args[0] != "merge" || fs.NArg() != 1 {
		bad("args %q: want merge --out DIR PARTS_DIR", mc.Args)
		return errs
	}
	mclaim, mrel, err := volumeAt(mj, fs.Arg(0))
	if err != nil {
		bad("%v", err)
	} else if mclaim != claim || mrel != rel {
		bad("reads %s on claim %q, but the shards write %s on claim %q", mrel, mclaim, rel, claim)
	}
	out := fs.Lookup("out").Value.String()
	if _, _, err := volumeAt(mj, out); err != nil {
		bad("--out: %v", err)
	}
	if p := path.Clean(fs.Arg(0)); path.Clean(out) == p || strings.HasPrefix(path.Clean(out), p+"/") {
		bad("--out %s is inside the parts directory %s", out, p)
	}
	return errs
}

func readK8s(t *testing.T) (indexed, merge string) {
	t.Helper()
	a, err := os.ReadFile("../deploy/k8s/indexed-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../deploy/k8s/merge-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(a), string(b)
}

func TestK8sManifests(t *testing.T) {
	indexed, merge := readK8s(t)
	for _, err := range checkK8s([]byte(indexed), []byte(merge)) {
		t.Error(err)
	}
	df, err := os.ReadFile("../deploy/k8s/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^ENTRYPOINT \["/experiment"\]$`).Match(df) {
		t.Error(`deploy/k8s/Dockerfile: want ENTRYPOINT ["/experiment"], the binary the Jobs' args are given to`)
	}
}

// TestK8sManifestsBroken makes sure each check can fail: every edit of a
// manifest below is one that would break the run on a cluster.
func TestK8sManifestsBroken(t *testing.T) {
	indexed, merge := readK8s(t)
	for _, c := range []struct {
		file, old, new, want string
	}{
		{"indexed", "completionMode: Indexed", "completionMode: NonIndexed", "completionMode"},
		{"indexed", `value: "8"`, `value: "7"`, "KNIGHTWALK_SHARDS"},
		{"indexed", "parallelism: 8", "parallelism: 9", "parallelism"},
		{"indexed", "restartPolicy: Never", "restartPolicy: OnFailure", "restartPolicy"},
		{"indexed", "- name: JOB_COMPLETION_INDEX", "- name: INDEX", "not declared"},
		{"indexed", "part-$(JOB_COMPLETION_INDEX)", "part-$(JOB_INDEX)", "not declared"},
		{"indexed", "job-completion-index']", "job-index']", "valueFrom other than"},
		{"indexed", "part-$(JOB_COMPLETION_INDEX)", "part", "both write"},
		{"indexed", `"--out"`, `"--output"`, "flag provided but not defined"},
		{"indexed", `"run", "large-boards"`, `"run", "no-such"`, "not a committed experiment"},
		{"indexed", "mountPath: /results}", "mountPath: /data}", "on no mounted volume"},
		{"merge", `"/results/parts"]`, `"/results/part"]`, "but the shards write"},
		{"merge", "claimName: knightwalk-results", "claimName: other", "but the shards write"},
		{"merge", `"--out", "/results/large-boards"`, `"--out", "/results/parts/merged"`, "inside the parts directory"},
		{"merge", "image: your-registry/knightwalk:latest", "image: your-registry/knightwalk:v2", "the shards ran"},
		{"merge", `args: ["merge"`, `args: ["marge"`, "not a command"},
	} {
		a, b := indexed, merge
		target := &a
		if c.file == "merge" {
			target = &b
		}
		if !strings.Contains(*target, c.old) {
			t.Errorf("%s-job.yaml no longer contains %q: update this test", c.file, c.old)
			continue
		}
		*target = strings.Replace(*target, c.old, c.new, 1)
		errs := checkK8s([]byte(a), []byte(b))
		found := false
		for _, err := range errs {
			found = found || strings.Contains(err.Error(), c.want)
		}
		if !found {
			t.Errorf("%s-job.yaml with %q for %q: want a problem mentioning %q, got %v", c.file, c.new, c.old, c.want, errs)
		}
	}
}
