package config

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// figureOptionsKey is where an experiment file holds its figure options.
const figureOptionsKey = "outputs.figure_options"

// ParseFigureOptions reads a figure options file (`experiment plot DIR
// --figure-options FILE`): the mapping an experiment file holds under
// outputs.figure_options (heatmap, length_distribution, size_curve, walk),
// on its own. It is decoded and validated as that key is, against base,
// the experiment of the result the figures are drawn from (its rules,
// walks and sources), and every problem is reported at once, each with
// filename, line and the key as the file writes it (size_curve.references[0].source).
// It returns the options as a manifest records them; nil for a file that
// sets none (every default).
func ParseFigureOptions(filename string, data []byte, base *Config) (*FigureOptions, error) {
	if len(data) > MaxFileBytes {
		return nil, Errors{{File: filename, Msg: fmt.Sprintf("%d bytes; a figure options file holds at most %d bytes (1 MiB)", len(data), MaxFileBytes)}}
	}
	src := &source{file: filename, rootLine: 1, lines: map[string]int{}}
	root, errs := parseNode(src, data)
	if errs != nil {
		return nil, errs
	}
	c := *base
	c.src, c.Outputs.FigureOptions = src, FigureOptions{}
	if root == nil {
		return nil, nil
	}
	src.rootLine = root.Line
	valid := yamlKeys(typeAt(figureOptionsKey))
	if root.Kind != yaml.MappingNode {
		return nil, Errors{{File: filename, Line: root.Line, Msg: "want a mapping with keys " + strings.Join(valid, ", ") + " (what an experiment file holds under outputs.figure_options)"}}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Value == "outputs" || k.Value == "figure_options" {
			return nil, Errors{{File: filename, Line: k.Line, Key: k.Value, Msg: "a figure options file holds the options themselves, the keys " + strings.Join(valid, ", ") +
				" at the top level (what an experiment file holds under outputs.figure_options): write them without " + k.Value + ":"}}
		}
	}
	src.add(figureOptionsKey, root.Line, root)
	src.walkChildren(root, figureOptionsKey)
	if errs := src.bounds(); errs != nil {
		return nil, fileKeys(errs.sorted())
	}
	decErrs, covered := src.decodeInto(data, &c.Outputs.FigureOptions, nil)
	decErrs = append(decErrs, src.dropItems(&c, decErrs, covered)...)
	for list, drop := range src.dropped {
		if drop == nil {
			covered = append(covered, list)
		}
	}
	errs = append(decErrs, src.wholeNumbers(covered)...)
	for _, e := range errs {
		covered = append(covered, e.Key)
	}
	// The rules the references may name: the experiment's, resolved (its
	// problems, if any, are not this file's).
	b := *base
	b.src = nil
	ruleNames := b.checkRules(&checker{c: &b}, false)
	k := &checker{c: &c}
	c.checkFigureOptions(k, ruleNames)
	for _, e := range k.errs {
		if !coveredBy(e.Key, covered) {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		return nil, fileKeys(errs.sorted().capped())
	}
	return c.canonicalFigureOptions(), nil
}

// fileKeys writes the keys of errors found in a figure options file as
// the file writes them: without the outputs.figure_options they are
// validated under.
func fileKeys(errs Errors) Errors {
	out := slices.Clone(errs)
	for i, e := range out {
		if k, ok := strings.CutPrefix(e.Key, figureOptionsKey); ok {
			out[i].Key = strings.TrimPrefix(k, ".")
		}
	}
	return out
}

// LoadFigureOptions reads the figure options file at path (a regular file
// of at most 1 MiB, as an experiment file) and parses it against base.
func LoadFigureOptions(path string, base *Config) (*FigureOptions, error) {
	data, err := readFileOf(path, "a figure options file")
	if err != nil {
		return nil, err
	}
	return ParseFigureOptions(path, data, base)
}
