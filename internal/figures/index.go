package figures

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"

	"github.com/knightwalk/knightwalk/internal/results"
)

// IndexFile is the page, in a result's figures directory, that shows
// every figure drawn with its caption: the gallery a person reviews.
const IndexFile = results.FigureIndexFile

// Index renders the figures drawn, with their captions, as a
// self-contained HTML page whose links are relative to the figures
// directory (so the directory can be moved or served as it is).
func Index(title string, drawn []Drawn) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>%s</title>
<style>
body { font-family: sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; color: #222; }
figure { margin: 2.5em 0; border-top: 1px solid #ccc; padding-top: 1em; }
img { max-width: 100%%; height: auto; }
figcaption { margin-top: 0.5em; line-height: 1.4; }
.files { font-size: 0.85em; color: #555; }
</style>
</head>
<body>
<h1>%s</h1>
`, html.EscapeString(title), html.EscapeString(title))
	for _, d := range drawn {
		if d.Base == "" {
			fmt.Fprintf(&b, "<p>%s: %s</p>\n", html.EscapeString(d.Name), html.EscapeString(d.Note))
			continue
		}
		name := html.EscapeString(filepath.Base(d.Base))
		fmt.Fprintf(&b, "<figure id=\"%s\">\n<img src=\"%s.png\" alt=\"%s\">\n<figcaption>%s\n<span class=\"files\">%s: <a href=\"%s.png\">PNG</a> · <a href=\"%s.svg\">SVG</a> · <a href=\"%s.pdf\">PDF</a></span></figcaption>\n</figure>\n",
			name, name, html.EscapeString(d.Caption), html.EscapeString(d.Caption), name, name, name, name)
	}
	b.WriteString("</body>\n</html>\n")
	return b.String()
}

// WriteIndex writes dir's figures/index.html for the figures drawn.
func WriteIndex(dir, experiment string, drawn []Drawn) error {
	path := filepath.Join(dir, results.FiguresDir, IndexFile)
	page := Index("Figures of "+experiment, drawn)
	return writeAtomic(path, func(tmp string) error { return os.WriteFile(tmp, []byte(page), 0o644) })
}
