// The audit's report: an audit.Result per server, in every format Write
// knows, SARIF and JUnit through the same writers as check's.

package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mcplens/mcplens/audit"
	"github.com/mcplens/mcplens/model"
)

// An Audit is the report of `mcplens audit`: the config and each server's
// result.
type Audit struct {
	Config  string         `json:"config"`
	Client  string         `json:"client"`
	Servers []audit.Result `json:"-"`
}

// AuditRules are audit's SARIF rules: one per check.
func AuditRules() []Rule {
	var out []Rule
	for _, c := range audit.Checks() {
		out = append(out, Rule{ID: c.ID, Short: c.Probes, Help: c.Probes + " (specification: " + c.Section + ")"})
	}
	return out
}

// WriteAudit renders an audit in format (Formats).
func WriteAudit(w io.Writer, a Audit, format string) error {
	switch format {
	case "text", "":
		return writeAuditText(w, a)
	case "json":
		return writeIndented(w, auditJSON(a), "audit")
	case "markdown", "md":
		return writeAuditMarkdown(w, a)
	case "sarif":
		return writeAuditSARIF(w, a)
	case "junit":
		return writeAuditJUnit(w, a)
	}
	return fmt.Errorf("writing audit: unknown format %q (want %s)", format, strings.Join(Formats(), ", "))
}

// The JSON document of an audit.
type auditDoc struct {
	Config  string        `json:"config"`
	Client  string        `json:"client,omitempty"`
	Servers []auditServer `json:"servers"`
}

type auditServer struct {
	Server     string            `json:"server"`
	Transport  string            `json:"transport"`
	Asked      string            `json:"asked"`
	Revision   string            `json:"revision"`
	ServerInfo string            `json:"serverInfo,omitempty"`
	Findings   []auditFinding    `json:"findings"`
	Passed     []string          `json:"passed"`
	Skipped    map[string]string `json:"skipped"`
	ElapsedMS  int64             `json:"elapsedMs"`
}

type auditFinding struct {
	Check    string          `json:"check"`
	Level    string          `json:"level"`
	Section  string          `json:"section"`
	Subject  string          `json:"subject,omitempty"`
	Message  string          `json:"message"`
	Evidence []auditEvidence `json:"evidence"`
}

type auditEvidence struct {
	Dir   string    `json:"dir"`
	At    time.Time `json:"at"`
	Text  string    `json:"text"`
	Size  int       `json:"size"`
	Junk  bool      `json:"junk,omitempty"`
	Issue string    `json:"problem,omitempty"`
}

func auditJSON(a Audit) auditDoc {
	doc := auditDoc{Config: model.Sanitize(a.Config), Client: a.Client, Servers: []auditServer{}}
	for _, r := range a.Servers {
		s := auditServer{Server: r.Server, Transport: r.Transport, Asked: r.Asked, Revision: r.Revision,
			ServerInfo: r.ServerInfo, Findings: []auditFinding{}, Passed: r.Passed, Skipped: r.Skipped, ElapsedMS: r.Elapsed.Milliseconds()}
		if s.Passed == nil {
			s.Passed = []string{}
		}
		for _, f := range r.Findings {
			af := auditFinding{Check: f.Check, Level: f.Level.String(), Section: f.Section, Subject: f.Subject, Message: f.Message, Evidence: []auditEvidence{}}
			for _, e := range f.Evidence {
				af.Evidence = append(af.Evidence, auditEvidence{Dir: e.Dir.String(), At: e.At, Text: string(e.Bytes), Size: e.Size, Junk: e.Junk, Issue: e.Problem})
			}
			s.Findings = append(s.Findings, af)
		}
		doc.Servers = append(doc.Servers, s)
	}
	return doc
}

// maxEvidenceText is how much of one frame the text and Markdown reports
// quote.
const maxEvidenceText = 300

func evidenceLine(b []byte, size int) string {
	s := model.Sanitize(strings.ReplaceAll(string(b), "\n", " ⏎ "))
	if r := []rune(s); len(r) > maxEvidenceText {
		s = string(r[:maxEvidenceText]) + "…"
	}
	if size > len(b) {
		s += fmt.Sprintf(" (%d bytes, cut)", size)
	}
	return s
}

func writeAuditText(w io.Writer, a Audit) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "mcplens audit of %s", model.Sanitize(a.Config))
	if a.Client != "" {
		fmt.Fprintf(bw, " as %s", model.Sanitize(a.Client))
	}
	fmt.Fprintln(bw)
	for _, r := range a.Servers {
		info := ""
		if r.ServerInfo != "" {
			info = " " + model.Sanitize(r.ServerInfo)
		}
		fmt.Fprintf(bw, "\n%s (%s; asked %s, answered %s)%s: %d finding(s), %d check(s) passed, %d not applicable, %s\n",
			model.Sanitize(r.Server), r.Transport, r.Asked, orNone(model.Sanitize(r.Revision)), info,
			len(r.Findings), len(r.Passed), len(r.Skipped), r.Elapsed.Round(time.Millisecond))
		for _, f := range r.Findings {
			subject := ""
			if f.Subject != "" {
				subject = " [" + model.Sanitize(f.Subject) + "]"
			}
			fmt.Fprintf(bw, "  %-7s %s%s: %s\n          spec: %s\n", f.Level, f.Check, subject, model.Sanitize(f.Message), f.Section)
			for _, e := range f.Evidence {
				fmt.Fprintf(bw, "          %-3s %s\n", e.Dir, evidenceLine(e.Bytes, e.Size))
			}
		}
	}
	return bw.Flush()
}

func writeAuditMarkdown(w io.Writer, a Audit) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# mcplens audit of %s\n", mdText(a.Config))
	for _, r := range a.Servers {
		fmt.Fprintf(bw, "\n## %s\n\n%s, asked %s, answered %s. %d finding(s), %d check(s) passed, %d not applicable.\n",
			mdText(r.Server), r.Transport, mdCode(r.Asked), mdCode(orNone(r.Revision)), len(r.Findings), len(r.Passed), len(r.Skipped))
		if len(r.Findings) == 0 {
			continue
		}
		fmt.Fprintf(bw, "\n| level | check | on | finding | spec |\n|---|---|---|---|---|\n")
		for _, f := range r.Findings {
			fmt.Fprintf(bw, "| %s | %s | %s | %s | %s |\n", f.Level, mdCode(f.Check), mdText(f.Subject), mdText(f.Message), mdText(f.Section))
		}
	}
	return bw.Flush()
}

func auditLevel(l audit.Level) string {
	if l == audit.Error {
		return "error"
	}
	return "warning"
}

// writeAuditSARIF writes one result per finding, each at its server's line
// in the config, as check's are.
func writeAuditSARIF(w io.Writer, a Audit) error {
	fileBacked := false
	for _, r := range a.Servers {
		fileBacked = fileBacked || r.Line > 0
	}
	uri := ArtifactURI(a.Config, fileBacked)
	run := newSARIFRun(AutomationID("audit", a.Config), nil)
	for i, rule := range AuditRules() {
		run.rule(rule, auditLevel(audit.Checks()[i].Level))
	}
	for _, r := range a.Servers {
		for _, f := range r.Findings {
			at := place{uri: uri, line: r.Line, col: r.Col, server: r.Server, tool: f.Subject}
			run.add(f.Check, auditLevel(f.Level), fmt.Sprintf("%s (on %s): %s", r.Server, orNone(r.Revision), f.Message), f.Message, at)
		}
	}
	return encodeSARIFRuns(w, []sarifRun{*run})
}

// writeAuditJUnit writes one suite per server, its revision (asked and
// settled on) among its properties, one test case per check probed
// (failed by an error-level finding; warnings in system-out) and one per
// check that did not apply, skipped with why.
func writeAuditJUnit(w io.Writer, a Audit) error {
	doc := junitSuites{}
	stamp := junitStamp()
	props := junitProperties{Property: []junitProperty{{Name: "config", Value: model.Sanitize(a.Config)}}}
	if a.Client != "" {
		props.Property = append(props.Property, junitProperty{Name: "client", Value: model.Sanitize(a.Client)})
	}
	for _, r := range a.Servers {
		label := model.Sanitize(r.Server)
		st := junitSuite{Name: label, Package: "mcplens.audit", ID: len(doc.Suites), Timestamp: stamp, Hostname: "localhost",
			Time: fmt.Sprintf("%.3f", r.Elapsed.Seconds()), Properties: junitProperties{Property: append(slices.Clone(props.Property),
				junitProperty{Name: "asked", Value: model.Sanitize(r.Asked)}, junitProperty{Name: "revision", Value: orNone(model.Sanitize(r.Revision))})}}
		byCheck := map[string][]audit.Finding{}
		for _, f := range r.Findings {
			byCheck[f.Check] = append(byCheck[f.Check], f)
		}
		for _, c := range audit.Checks() {
			found, probed := byCheck[c.ID]
			tc := junitCase{Name: c.ID, ClassName: label, Time: "0"}
			if why, skipped := r.Skipped[c.ID]; skipped && !probed {
				st.Skipped++
				tc.Skipped = &junitSkipped{Message: "not applicable: " + model.Sanitize(why)}
				st.Cases = append(st.Cases, tc)
				continue
			}
			if !probed && !contains(r.Passed, c.ID) {
				continue
			}
			var lines []string
			for _, f := range found {
				lines = append(lines, fmt.Sprintf("%s %s: %s", f.Level, f.Check, model.Sanitize(f.Message)))
			}
			switch {
			case len(found) > 0 && found[0].Level == audit.Error:
				st.Failures++
				tc.Failure = &junitFailure{Message: lines[0], Type: c.ID, Text: strings.Join(lines, "\n")}
			case len(found) > 0:
				st.SystemOut += strings.Join(lines, "\n") + "\n"
			}
			st.Cases = append(st.Cases, tc)
		}
		st.Tests = len(st.Cases)
		doc.Suites = append(doc.Suites, st)
	}
	return encodeJUnit(w, doc)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
