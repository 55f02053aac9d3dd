package figures

import (
	"fmt"
	"github.com/knightwalk/knightwalk/internal/safeio"
	"os"
	"path/filepath"
	"strings"

	"github.com/knightwalk/knightwalk/internal/results"
)

// ReportSection renders the figures as a markdown section for report.md,
// with paths relative to the result directory.
func ReportSection(dir string, drawn []Drawn) string {
	if len(drawn) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(FiguresHeading + "\n\n")
	for _, d := range drawn {
		if d.Base == "" {
			fmt.Fprintf(&b, "- %s: %s\n", d.Name, d.Note)
			continue
		}
		rel, err := filepath.Rel(dir, d.Base)
		if err != nil {
			rel = d.Base
		}
		rel = filepath.ToSlash(rel)
		fmt.Fprintf(&b, "![%s](%s.png)\n\n", filepath.Base(rel), rel)
		if d.Caption != "" {
			fmt.Fprintf(&b, "%s\n\n", d.Caption)
		}
		fmt.Fprintf(&b, "%s: [PNG](%s.png) · [SVG](%s.svg) · [PDF](%s.pdf)\n\n", filepath.Base(rel), rel, rel, rel)
	}
	return b.String()
}

// FiguresHeading starts the figures section of report.md; UpdateReport
// replaces everything from it to the end.
const FiguresHeading = "## Figures"

// UpdateReport replaces the figures section of dir/report.md and writes
// figures/index.html, both with the figures' captions.
func UpdateReport(dir string, drawn []Drawn) error {
	if len(drawn) > 0 {
		name := filepath.Base(dir)
		if m, err := results.ReadManifest(dir); err == nil {
			name = m.Experiment
		}
		if err := os.MkdirAll(filepath.Join(dir, results.FiguresDir), 0o755); err != nil {
			return err
		}
		if err := WriteIndex(dir, name, drawn); err != nil {
			return err
		}
	}
	path := filepath.Join(dir, results.ReportFile)
	b, err := safeio.ReadRegular(path, 64<<20)
	if err != nil {
		return err
	}
	s := string(b)
	if i := strings.Index(s, "\n"+FiguresHeading+"\n"); i >= 0 {
		s = s[:i+1]
	}
	if sec := ReportSection(dir, drawn); sec != "" {
		s = strings.TrimRight(s, "\n") + "\n\n" + sec
	}
	return writeAtomic(path, func(tmp string) error { return os.WriteFile(tmp, []byte(s), 0o644) })
}
