package harness

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/experiments"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/plotcheck"
	"github.com/knightwalk/knightwalk/internal/testenv"
)

var (
	updateGallery = flag.Bool("update-gallery", false, "redraw docs/figures from fresh runs of the committed experiments")
	galleryOnly   = flag.String("gallery-only", "", "check (or redraw) only this experiment's gallery figures")
)

// galleryEntry is one figure of the gallery (docs/figures.md): the key figure of a
// committed experiment, as `experiment run` draws it.
type galleryEntry struct {
	experiment string
	figure     string // base name under the run's figures/
	// small, when set, rewrites the experiment file into a smaller run
	// for the gallery (where the full run takes minutes).
	small func(t *testing.T, yaml string) string
	// redraw, when set, redraws the run's figures with `experiment plot
	// --figure redraw` (figures its outputs do not ask for, as claims).
	redraw string
	// with names committed experiments run too (made small by small) and
	// drawn beside this one: plot --figure redraw --with their results.
	with []string
	// note is said after the caption on the gallery page: how the gallery's
	// run differs from the committed experiment.
	note string
}

var gallery = []galleryEntry{
	{experiment: "claims-8x8", figure: "success-heatmap_8x8_warnsdorff-random"},
	{experiment: "claims-8x8", figure: "length-distribution_8x8_warnsdorff-random"},
	{experiment: "default", figure: "success-heatmap_8x8_warnsdorff-random_failure"},
	{experiment: "size-sweep", figure: "size-curve_size-sweep_warnsdorff-random", redraw: "size-curve,claims"},
	{experiment: "size-sweep", figure: "size-curve_size-sweep_rules"},
	{experiment: "size-sweep", figure: "claims_size-sweep"},
	// The committed 250-walk run, as docs/figures.md describes it (about 2.5
	// CPU-minutes and 0.6 GB: a gallery of a 20-walk stand-in showed
	// intervals the committed run does not have).
	{experiment: "large-boards", figure: "size-curve_large-boards_warnsdorff-random"},
	{experiment: "board-shapes", figure: "size-curve_board-shapes_shapes_warnsdorff-random"},
	{experiment: "board-shapes", figure: "size-curve_board-shapes_shapes_warnsdorff-random_failure"},
	{experiment: "random-walk", figure: "length-distribution_8x8_random"},
	{experiment: "closed-tours", figure: "closed-heatmap_8x8_warnsdorff-random"},
	{experiment: "example", figure: "size-curve_example_warnsdorff-random"},
	{experiment: "example", figure: "success-heatmap_10x10_warnsdorff-random"},
	{experiment: "example", figure: "convergence_7x7_warnsdorff-random_a1_error"},
	{experiment: "roth-sweep-corners", figure: "sweep-strip_roth-sweep-corners", small: smallRothSweep,
		with: []string{"roth-sweep-ostar"}, redraw: "sweep-strip",
		note: "Gallery run: n = 5…500 of the committed experiments' 5…2000 (the full sweeps take about 9 CPU-minutes; the Roth section of docs/claims.md shows them)."},
	{experiment: "marateck-orders-all", figure: "design-map_8x8_rules0"},
}

// galleryIndex is the gallery's page: every figure with the caption its
// run wrote, so that a person reviews figures and captions together.
var galleryIndex = filepath.Join(galleryDir, "index.html")

// galleryDir holds the gallery: EXPERIMENT_FIGURE.png and .svg.
var galleryDir = filepath.Join("..", "docs", "figures")

// smallRothSweep is a Roth sweep (roth-sweep-corners, roth-sweep-ostar)
// over n = 5..500 instead of 5..2000: seconds instead of 9 CPU-minutes,
// still past Roth's n = 428.
func smallRothSweep(t *testing.T, y string) string {
	if !strings.Contains(y, "sizes: 5..2000}") || !strings.Contains(y, "sizes: 5..1999,") {
		t.Fatal("a Roth sweep no longer runs sizes 5..2000 with a claim over 5..1999: update smallRothSweep")
	}
	// the claims then cover part of the source's stated range, and say so
	return strings.NewReplacer("5..2000", "5..500", "sizes: 5..1999,", "sizes: 5..499, part_of_range: true,").Replace(y)
}

// TestGallery reruns each committed experiment of the gallery and
// fails when a committed figure is not what the code draws now. SVGs are
// compared byte for byte (vector output from the tables: stable); PNGs only
// by size in pixels, since rasterised anti-aliasing may differ in the last
// bit between CPU architectures. -update-gallery rewrites docs/figures.
func TestGallery(t *testing.T) {
	testenv.SkipUnlessSlow(t, "the gallery of docs/figures.md (reruns the committed experiments, a few minutes)")
	runs := map[string]string{}
	var page strings.Builder
	for _, g := range gallery {
		if *galleryOnly != "" && g.experiment != *galleryOnly {
			continue
		}
		dir, ok := runs[g.experiment]
		if !ok {
			dir = runGalleryExperiment(t, g)
			runs[g.experiment] = dir
		}
		base := filepath.Join(galleryDir, g.experiment+"_"+g.figure)
		fresh := filepath.Join(dir, "figures", g.figure)
		name := g.experiment + "_" + g.figure
		caption := galleryCaption(t, dir, g.figure)
		if g.note != "" {
			caption += " <em>" + g.note + "</em>"
		}
		fmt.Fprintf(&page, "<figure id=\"%s\">\n<a href=\"%s.svg\"><img src=\"%s.png\" alt=\"%s\"></a>\n<figcaption><code>%s</code>: %s</figcaption>\n</figure>\n",
			name, name, name, name, g.experiment, caption)
		if *updateGallery {
			for _, ext := range []string{".png", ".svg"} {
				b, err := os.ReadFile(fresh + ext)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(base+ext, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		got, err := os.ReadFile(fresh + ".svg")
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(base + ".svg")
		if err != nil {
			t.Fatalf("%v (KNIGHTWALK_SLOW=1 go test ./harness -run Gallery -update-gallery draws it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s.svg is not what `experiment run %s` draws now (-update-gallery redraws it)", base, g.experiment)
		}
		gw, gh := pngSize(t, fresh+".png")
		if ww, wh := pngSize(t, base+".png"); gw != ww || gh != wh {
			t.Errorf("%s.png is %d×%d px, the code draws %d×%d", base, ww, wh, gw, gh)
		}
	}
	if *galleryOnly != "" {
		return // the page needs every figure's caption
	}
	html := galleryPageHead + page.String() + "</body>\n</html>\n"
	if *updateGallery {
		if err := os.WriteFile(galleryIndex, []byte(html), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want, err := os.ReadFile(galleryIndex); err != nil || string(want) != html {
		t.Errorf("%s is not the gallery page the code writes now (-update-gallery rewrites it): %v", galleryIndex, err)
	}
}

const galleryPageHead = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>knightwalk figure gallery</title>
<style>
body { font-family: sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; color: #222; }
figure { margin: 2.5em 0; border-top: 1px solid #ccc; padding-top: 1em; }
img { max-width: 100%; height: auto; }
figcaption { margin-top: 0.5em; line-height: 1.4; }
</style>
</head>
<body>
<h1>knightwalk figure gallery</h1>
<p>Each figure as <code>experiment run</code> draws it from a committed experiment, with the caption the run wrote from its tables
(<code>KNIGHTWALK_SLOW=1 go test ./harness -run TestGallery -update-gallery</code> redraws them).</p>
`

// galleryCaption is the caption, HTML-escaped, that the run in dir wrote
// for figure into its figures/index.html.
func galleryCaption(t *testing.T, dir, figure string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "figures", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<figure id="` + regexp.QuoteMeta(figure) + `">\n<img[^\n]*\n<figcaption>(.*?)\n<span`).FindSubmatch(b)
	if m == nil || len(m[1]) == 0 {
		t.Fatalf("%s: the run's index.html has no caption for %s", dir, figure)
	}
	return string(m[1])
}

// runGalleryExperiment runs g's experiment (or its small version) into a
// temporary directory and returns it.
func runGalleryExperiment(t *testing.T, g galleryEntry) string {
	t.Helper()
	tmp := t.TempDir()
	run := func(name string) string {
		src, ok := experiments.Lookup(name)
		if !ok {
			t.Fatalf("%s is not a committed experiment", name)
		}
		file := filepath.Join(tmp, name+".yaml")
		text := string(src)
		if g.small != nil {
			text = g.small(t, text)
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(tmp, name)
		if _, _, err := runCmd(t, "run", file, "--out", dir, "--quiet"); err != nil {
			t.Fatalf("run %s: %v", name, err)
		}
		return dir
	}
	dir := run(g.experiment)
	var with []string
	for _, w := range g.with {
		with = append(with, run(w))
	}
	if g.redraw != "" {
		args := []string{"plot", dir, "--figure", g.redraw}
		if with != nil {
			args = append(args, "--with", strings.Join(with, ","))
		}
		if _, _, err := runCmd(t, args...); err != nil {
			t.Fatalf("plot %s --figure %s: %v", g.experiment, g.redraw, err)
		}
	}
	return dir
}

func pngSize(t *testing.T, path string) (int, int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c.Width, c.Height
}

// galleryPage is the page that shows the gallery, docs/figures.md; its
// links to the figures are relative to docs/.
const galleryPage = "docs/figures.md"

// TestGalleryInReadme checks, fast, that the gallery page shows every
// gallery figure, that every figure it links under docs/figures is
// committed, and that its figure_options example is a valid experiment
// file.
func TestGalleryInReadme(t *testing.T) {
	readme := docPage(t, galleryPage)
	for _, g := range gallery {
		if name := g.experiment + "_" + g.figure + ".png"; !strings.Contains(readme, "](figures/"+name+")") {
			t.Errorf("%s does not show %s", galleryPage, name)
		}
	}
	links := regexp.MustCompile(`\]\((figures/[^)\s]+)\)`).FindAllStringSubmatch(readme, -1)
	if len(links) < 2*len(gallery) {
		t.Errorf("%s links %d files under docs/figures; want a PNG and an SVG per gallery figure", galleryPage, len(links))
	}
	for _, m := range links {
		if _, err := os.Stat(filepath.Join("..", "docs", m[1])); err != nil {
			t.Errorf("%s links %s: %v", galleryPage, m[1], err)
		}
	}
	i := strings.Index(readme, "```yaml\noutputs:\n")
	if i < 0 {
		t.Fatalf("%s has no figure_options example", galleryPage)
	}
	block := readme[i+len("```yaml\n"):]
	block = block[:strings.Index(block, "```")]
	text := "name: x\nboards: [8x8]\nrules: [{name: warnsdorff}]\n" + block
	if _, err := config.Parse(galleryPage, []byte(text)); err != nil {
		t.Errorf("the figure_options example of %s is not valid:\n%v", galleryPage, err)
	}
}

// TestGalleryReferee runs the referee's checks (plotcheck.SVG: tick
// labels at their values, nothing outside the canvas, every character
// drawable in PNG and PDF) over every committed gallery figure, in the
// fast suite: the gallery is what a reader of the documentation sees.
func TestGalleryReferee(t *testing.T) {
	for _, g := range gallery {
		path := filepath.Join(galleryDir, g.experiment+"_"+g.figure+".svg")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range plotcheck.SVG(b) {
			t.Errorf("%s: %s", path, p)
		}
	}
}
