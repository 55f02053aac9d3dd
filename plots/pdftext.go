package plots

import (
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// pdfCanvas fixes text for vgpdf, which embeds fonts with the Windows-1252
// code page but passes Go's UTF-8 strings through unchanged, so that "×" or
// "10⁴" come out as mojibake. It re-encodes text to Windows-1252 and sets
// superscript digits (which that code page mostly lacks) as smaller raised
// digits.
type pdfCanvas struct{ *vgpdf.Canvas }

// superscriptScale and superscriptRise shape emulated superscripts,
// relative to the font size.
const (
	superscriptScale = 0.7
	superscriptRise  = 0.42
)

func (c pdfCanvas) FillString(f font.Face, pt vg.Point, s string) {
	enc := func(s string) string { return toCP1252(pdfText(s)) }
	fillSuperscripts(c.Canvas, f, pt, s, enc, enc)
}

// pdfStandIns are what the PDF writes for the characters of figure text
// that Windows-1252 lacks (CheckGlyphs holds every text to it).
var pdfStandIns = strings.NewReplacer("−", "-", "≥", ">=", "≤", "<=", "≈", "~", "∞", "inf", "→", "->", "√", "sqrt")

// pdfText replaces the characters Windows-1252 lacks by their stand-ins.
func pdfText(s string) string { return pdfStandIns.Replace(s) }

// pngCanvas sets superscripts in PNG files as pdfCanvas does in PDF:
// Liberation Sans lacks the superscript minus "⁻", which vgimg would leave
// out, turning "10⁻³" into "10³". The minus becomes a raised "−".
type pngCanvas struct{ vgimg.PngCanvas }

func (c pngCanvas) FillString(f font.Face, pt vg.Point, s string) {
	keep := func(s string) string { return s }
	fillSuperscripts(c.PngCanvas.Canvas, f, pt, s, keep, func(s string) string {
		return strings.ReplaceAll(s, "-", "−")
	})
}

// fillSuperscripts draws s on c with its superscript digits as smaller
// raised digits; ordinary runs pass through enc and superscript runs
// through supEnc first.
func fillSuperscripts(c vg.Canvas, f font.Face, pt vg.Point, s string, enc, supEnc func(string) string) {
	x := pt.X
	for _, r := range splitSuperscripts(s) {
		face := f
		y := pt.Y
		text := enc(r.text)
		if r.sup {
			face.Font.Size = f.Font.Size * superscriptScale
			y += f.Font.Size * superscriptRise
			text = supEnc(r.text)
		}
		c.FillString(face, vg.Point{X: x, Y: y}, text)
		x += face.Width(text)
	}
}

type textRun struct {
	text string
	sup  bool
}

var superscriptDigits = map[rune]rune{
	'⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4',
	'⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9', '⁻': '-',
}

// splitSuperscripts cuts s into runs of ordinary text and of superscript
// digits, the latter turned into ordinary digits.
func splitSuperscripts(s string) []textRun {
	var runs []textRun
	var b strings.Builder
	sup := false
	flush := func() {
		if b.Len() > 0 {
			runs = append(runs, textRun{b.String(), sup})
			b.Reset()
		}
	}
	for _, r := range s {
		d, isSup := superscriptDigits[r]
		if isSup != sup {
			flush()
			sup = isSup
		}
		if isSup {
			r = d
		}
		b.WriteRune(r)
	}
	flush()
	return runs
}

// cp1252High holds the characters of Windows-1252's 0x80-0x9F block that
// figure text may use; 0xA0-0xFF coincide with Unicode's Latin-1.
var cp1252High = map[rune]byte{
	'€': 0x80, '‚': 0x82, '„': 0x84, '…': 0x85, '‘': 0x91, '’': 0x92,
	'“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97, '™': 0x99,
}

// toCP1252 encodes s in Windows-1252; characters outside it become '?'.
func toCP1252(s string) string {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		switch b, ok := cp1252High[r]; {
		case r < 0x80 || (r >= 0xa0 && r <= 0xff):
			out = append(out, byte(r))
		case ok:
			out = append(out, b)
		default:
			out = append(out, '?')
		}
	}
	return string(out)
}

// Superscript returns the ordinary digit (or minus sign) of a superscript
// one, which PNG and PDF set as that digit raised rather than as a glyph
// of its own; ok is false for any other rune.
func Superscript(r rune) (digit rune, ok bool) {
	digit, ok = superscriptDigits[r]
	return digit, ok
}

// PDFWritable reports whether a PDF figure can write r: after the
// stand-ins its text takes, r is in the Windows-1252 encoding.
func PDFWritable(r rune) bool {
	return r == '?' || !strings.ContainsRune(toCP1252(pdfText(string(r))), '?')
}
