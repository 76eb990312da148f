// Rendering a diff of two surfaces (surfacediff.Diff): text, Markdown,
// JSON and SARIF.

package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surfacediff"
)

// DiffVersion is the version of the JSON diff.
const DiffVersion = 1

// DiffFormats lists the formats WriteDiff knows, the default first.
func DiffFormats() []string { return []string{"text", "markdown", "json", "sarif", "junit"} }

// WriteDiff renders diffs (one per client compared) in format; failOn
// marks the changes that fail the run.
func WriteDiff(w io.Writer, diffs []*surfacediff.Diff, format string, failOn []surfacediff.Class) error {
	switch format {
	case "text", "":
		return writeDiffText(w, diffs, failOn)
	case "markdown", "md":
		return writeDiffMarkdown(w, diffs, failOn)
	case "json":
		return writeDiffJSON(w, diffs, failOn)
	case "sarif":
		return writeDiffSARIF(w, diffs, failOn)
	case "junit":
		return writeDiffJUnit(w, diffs, failOn)
	}
	return fmt.Errorf("writing diff: unknown format %q (want %s)", format, strings.Join(DiffFormats(), ", "))
}

// diffHeading names what a diff compared.
func diffHeading(d *surfacediff.Diff) string {
	s := "policy " + d.Policy
	if d.Policy == "" {
		s = "definitions only (a side is a lock)"
	}
	if d.Client != "" {
		s += " · client " + d.Client
	}
	if d.ClientsDiffer() {
		b := d.Client
		if b == "" {
			b = "mcplens"
		}
		s += fmt.Sprintf(" · the sides were taken as different clients (A as %s, B as %s): a change may come from the client alone; give both the same --client",
			d.ClientA, b)
	}
	return s
}

// countText counts a diff's changes by class: "3 changes: 1 removed, 2 added".
func countText(d *surfacediff.Diff) string {
	if len(d.Changes) == 0 {
		return "no changes"
	}
	n := d.Count()
	var parts []string
	for _, c := range surfacediff.Classes() {
		if n[c] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[c], c))
		}
	}
	return plural(len(d.Changes), "change") + ": " + strings.Join(parts, ", ")
}

func writeDiffText(w io.Writer, diffs []*surfacediff.Diff, failOn []surfacediff.Class) error {
	bw := bufio.NewWriter(w)
	for i, d := range diffs {
		if i > 0 {
			bw.WriteString("\n")
		}
		fmt.Fprintf(bw, "mcplens diff %s → %s\n", model.Sanitize(d.A), model.Sanitize(d.B))
		fmt.Fprintf(bw, "%s\n%s\n", model.Sanitize(diffHeading(d)), countText(d))
		server := "\x00"
		for _, c := range d.Changes {
			if c.Server != server {
				server = c.Server
				fmt.Fprintf(bw, "\n%s\n", model.Sanitize(orValue(server, "(the config file)")))
			}
			mark := "·"
			if slices.Contains(failOn, c.Class) {
				mark = "✗"
			}
			fmt.Fprintf(bw, "  %s %-24s %s\n", mark, c.Class, model.Sanitize(c.Detail))
			for _, f := range c.Fields {
				fmt.Fprintf(bw, "      %s\n", model.Sanitize(f.String()))
			}
		}
	}
	return bw.Flush()
}

func writeDiffMarkdown(w io.Writer, diffs []*surfacediff.Diff, failOn []surfacediff.Class) error {
	bw := bufio.NewWriter(w)
	for i, d := range diffs {
		if i > 0 {
			bw.WriteString("\n")
		}
		fmt.Fprintf(bw, "### mcplens diff %s → %s\n\n", mdCode(d.A), mdCode(d.B))
		fmt.Fprintf(bw, "%s · %s\n", mdText(diffHeading(d)), mdText(countText(d)))
		if len(d.Changes) == 0 {
			continue
		}
		bw.WriteString("\n| | change | server | tool | what |\n|---|---|---|---|---|\n")
		for _, c := range d.Changes {
			mark := ""
			if slices.Contains(failOn, c.Class) {
				mark = "❌"
			}
			tool := ""
			if c.Tool != "" {
				tool = mdCode(c.Tool)
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s | %s |\n", mark, c.Class, mdCode(orValue(c.Server, "(config)")), tool, mdText(c.Detail))
		}
		for _, c := range d.Changes {
			if len(c.Fields) == 0 {
				continue
			}
			fmt.Fprintf(bw, "\n<details><summary>%s on %s</summary>\n\n", mdCode(c.Tool), mdCode(c.Server))
			for _, f := range c.Fields {
				fmt.Fprintf(bw, "- %s\n", mdCode(f.String()))
			}
			bw.WriteString("\n</details>\n")
		}
	}
	return bw.Flush()
}

// A diffDocument is the JSON diff.
type diffDocument struct {
	Version int                 `json:"version"`
	A       string              `json:"a"`
	B       string              `json:"b"`
	FailOn  []surfacediff.Class `json:"fail_on"`
	Fails   bool                `json:"fails"`
	Diffs   []*surfacediff.Diff `json:"diffs"`
}

func writeDiffJSON(w io.Writer, diffs []*surfacediff.Diff, failOn []surfacediff.Class) error {
	doc := diffDocument{Version: DiffVersion, FailOn: append([]surfacediff.Class{}, failOn...), Diffs: diffs}
	if len(diffs) > 0 {
		doc.A, doc.B = diffs[0].A, diffs[0].B
	}
	for _, d := range diffs {
		doc.Fails = doc.Fails || d.Fails(failOn)
	}
	return writeIndented(w, doc, "diff")
}

// writeIndented writes v as indented JSON, the characters that hide text
// escaped as in the JSON report (escapeHidden); what names it in errors.
func writeIndented(w io.Writer, v any, what string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("writing %s: %w", what, err)
	}
	_, err := w.Write(escapeHidden(buf.Bytes()))
	return err
}

// DiffRules are diff's SARIF rules: one per change class.
func DiffRules() []Rule {
	var out []Rule
	for _, c := range surfacediff.Classes() {
		out = append(out, Rule{ID: string(c), Short: c.Help(), Help: c.Help()})
	}
	return out
}

// writeDiffSARIF writes one SARIF run per diff: a result per change,
// located at the server's line in side B's config (Diff.Config), at error
// level when its class fails the run, else note.
func writeDiffSARIF(w io.Writer, diffs []*surfacediff.Diff, failOn []surfacediff.Class) error {
	var runs []sarifRun
	for _, d := range diffs {
		fileBacked := slices.ContainsFunc(d.Changes, func(c surfacediff.Change) bool { return c.Line > 0 })
		id := AutomationID("diff", d.Config)
		if d.Client != "" {
			id = AutomationID("diff/"+d.Client, d.Config)
		}
		run := newSARIFRun(id, DiffRules())
		for _, c := range d.Changes {
			level := "note"
			if slices.Contains(failOn, c.Class) {
				level = "error"
			}
			key := c.Provider
			if c.Class == surfacediff.FindingNew || c.Class == surfacediff.FindingGone {
				key += "\x00" + c.Detail
			}
			run.add(string(c.Class), level, c.Detail, key, place{uri: ArtifactURI(d.Config, fileBacked), line: c.Line, col: c.Col, server: c.Server, tool: c.Tool})
		}
		runs = append(runs, *run)
	}
	return encodeSARIFRuns(w, runs)
}

func orValue(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// writeDiffJUnit writes a test suite per server that changed (per client
// and server with --clients), a test case per tool that changed and one for
// the server itself; a case fails when one of its changes is of a
// --fail-on class, the others going to the suite's system-out.
func writeDiffJUnit(w io.Writer, diffs []*surfacediff.Diff, failOn []surfacediff.Class) error {
	doc := junitSuites{}
	stamp := junitStamp()
	for _, d := range diffs {
		props := junitProperties{Property: []junitProperty{
			{Name: "a", Value: model.Sanitize(d.A)}, {Name: "b", Value: model.Sanitize(d.B)}, {Name: "policy", Value: d.Policy},
		}}
		var suite *junitSuite
		cases := map[string]int{} // test case name → index in suite
		for _, c := range d.Changes {
			name := model.Sanitize(orValue(c.Server, "(config)"))
			if d.Client != "" {
				name = model.Sanitize(d.Client) + "/" + name
			}
			if suite == nil || suite.Name != name {
				doc.Suites = append(doc.Suites, junitSuite{Name: name, Package: "mcplens.diff." + orValue(d.Policy, "definitions"), ID: len(doc.Suites),
					Timestamp: stamp, Hostname: "localhost", Time: "0", Properties: props})
				suite, cases = &doc.Suites[len(doc.Suites)-1], map[string]int{}
			}
			tc := model.Sanitize(orValue(c.Tool, junitServerCase))
			i, ok := cases[tc]
			if !ok {
				i, cases[tc] = len(suite.Cases), len(suite.Cases)
				suite.Cases = append(suite.Cases, junitCase{Name: tc, ClassName: name, Time: "0"})
				suite.Tests++
			}
			line := fmt.Sprintf("%s: %s", c.Class, model.Sanitize(c.Detail))
			if !slices.Contains(failOn, c.Class) {
				suite.SystemOut += tc + ": " + line + "\n"
				continue
			}
			if f := suite.Cases[i].Failure; f != nil {
				f.Text += "\n" + line
				continue
			}
			suite.Cases[i].Failure = &junitFailure{Message: line, Type: string(c.Class), Text: line}
			suite.Failures++
		}
	}
	return encodeJUnit(w, doc)
}
